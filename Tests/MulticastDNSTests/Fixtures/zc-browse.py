"""python-zeroconf (0.154) browsing a type, for mdns-lab.sh: one JSON line per event, with the
wall-clock time and what ServiceInfo resolves (addresses, port, TXT, server).
   zc-browse.py TYPE SECONDS [INTERFACE-ADDRESS]"""
import json, sys, time, threading
from zeroconf import ServiceBrowser, ServiceStateChange, Zeroconf, IPVersion

service_type = sys.argv[1] + ".local."
seconds = float(sys.argv[2])
interfaces = sys.argv[3:] or None
zc = Zeroconf(interfaces=interfaces) if interfaces else Zeroconf()
lock = threading.Lock()

def emit(**fields):
    with lock:
        print(json.dumps({"time": time.time(), **fields}), flush=True)

def changed(zeroconf, service_type, name, state_change):
    if state_change is ServiceStateChange.Removed:
        emit(event="removed", name=name)
        return
    info = zeroconf.get_service_info(service_type, name, timeout=3000)
    if info is None:
        emit(event="unresolved", name=name)
        return
    emit(event="added" if state_change is ServiceStateChange.Added else "updated", name=name,
         server=info.server, port=info.port,
         addresses=info.parsed_addresses(IPVersion.All),
         txt={k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()})

emit(event="browsing")
browser = ServiceBrowser(zc, service_type, handlers=[changed])
time.sleep(seconds)
browser.cancel()
zc.close()
emit(event="stopped")
