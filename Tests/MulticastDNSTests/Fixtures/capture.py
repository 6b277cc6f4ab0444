"""Captures the Multicast DNS datagrams a lab host receives, one file each, for the codec
fixtures (see README.md here):
   capture.py INTERFACE ADDRESS OUTDIR SECONDS
Listens on 5353 (beside any other stack: SO_REUSEADDR/SO_REUSEPORT) for 224.0.0.251 and ff02::fb
on INTERFACE (whose IPv4 address is ADDRESS) and writes OUTDIR/NNN-v4|v6-SOURCE.bin."""
import os, select, socket, struct, sys, time

interface, address, outdir, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
os.makedirs(outdir, exist_ok=True)
index = socket.if_nametoindex(interface)
v4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
v6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for s in (v4, v6):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
v4.bind(("0.0.0.0", 5353))
v6.bind(("::", 5353))
v4.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton("224.0.0.251") + socket.inet_aton(address))
v6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP, socket.inet_pton(socket.AF_INET6, "ff02::fb") + struct.pack("@I", index))
count = 0
deadline = time.time() + seconds
while (left := deadline - time.time()) > 0:
    for s in select.select([v4, v6], [], [], left)[0]:
        data, source = s.recvfrom(9000)
        family = "v4" if s is v4 else "v6"
        with open(os.path.join(outdir, f"{count:03d}-{family}-{source[0].split('%')[0]}.bin"), "wb") as f:
            f.write(data)
        count += 1
print(count)
