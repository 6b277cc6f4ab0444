"""python-zeroconf (0.154) publishing one instance until SIGTERM or SECONDS pass, then
unregistering it (goodbye), for mdns-lab.sh.
   zc-register.py TYPE NAME PORT HOST-LABEL ADDRESS SECONDS [key=value]…"""
import json, signal, socket, sys, threading, time
from zeroconf import ServiceInfo, Zeroconf

service_type, name, port, host, address, seconds = sys.argv[1] + ".local.", sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6])
properties = dict((pair.split("=", 1) + [None])[:2] for pair in sys.argv[7:])
done = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: done.set())
zc = Zeroconf(interfaces=[address])
info = ServiceInfo(service_type, f"{name}.{service_type}", port=port, properties=properties,
                   server=f"{host}.local.", addresses=[socket.inet_aton(address)])
start = time.time()
zc.register_service(info)
print(json.dumps({"time": time.time(), "event": "registered", "since": start}), flush=True)
done.wait(seconds)
zc.unregister_service(info)
zc.close()
print(json.dumps({"time": time.time(), "event": "stopped"}), flush=True)
