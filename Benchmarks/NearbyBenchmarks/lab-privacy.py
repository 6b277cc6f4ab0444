#!/usr/bin/env python3
"""The analysis half of lab-privacy.sh: reads its capture (libpcap, Ethernet) and the secrets it
wrote, and says whether the packets hold anything that names a device or stays the same across
discovery epochs (DiscoveryTag: floor(unix time / 900)).

    lab-privacy.py CAPTURE.pcap SECRETS.json

1. Raw search: every secret (host names, device names, certificate fingerprints as raw bytes, hex
   and their first 8 hex digits / 4 bytes, the SHA-256 of each fingerprint, the certificates and
   public keys, the pairs' discovery keys) in every frame's bytes, headers and TLS included.
2. Every field of every mDNS message, decoded here (not by the parser under test): header, names
   and each label, types, classes, TTLs, SRV, TXT strings and keys, addresses, NSEC, trailing bytes;
   and the cleartext fields of the TLS handshakes (tshark). Each value is placed in the epochs of
   the packets holding it; a value seen in more than one epoch is listed, with what explains it.
Exit status 0 when the verdict is PASS, 1 when FAIL.
"""
import hashlib
import ipaddress
import json
import os
import struct
import subprocess
import sys
from collections import defaultdict

# DiscoveryTag.epochLength. PRIVACY_EPOCH=30 checks the analysis itself on a short capture: names
# that do not rotate within 30 s must then be flagged as stable.
EPOCH = int(os.environ.get("PRIVACY_EPOCH", "900"))
# A record of the old epoch may still be sent just after a boundary (a goodbye, an answer already
# scheduled, a browser's known answer): seen only this long into the next epoch, it is listed as a
# carry-over rather than as a stable value.
GRACE = min(30, EPOCH // 10)
# What every receiver of this protocol shows in every epoch, the same for all devices.
PROTOCOL_NAMES = {"_di-nearby._tcp.local", "_di-nearby", "_tcp", "local",
                  # DNS-SD's service enumeration (RFC 6763 §9), which the responder answers too.
                  "_services._dns-sd._udp.local", "_services", "_dns-sd", "_udp"}
PROTOCOL_TXT = {"v=1", "v", "t"}
DEFAULT_PORT = "53400"


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        sys.exit(f"{path}: not a libpcap file (write it with tshark -F pcap)")
    nano = magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    linktype = struct.unpack(endian + "I", data[20:24])[0]
    if linktype != 1:
        sys.exit(f"{path}: link type {linktype}, expected Ethernet (1)")
    offset, frames = 24, []
    while offset + 16 <= len(data):
        sec, frac, caplen, _ = struct.unpack(endian + "IIII", data[offset:offset + 16])
        offset += 16
        frames.append((sec + frac / (1e9 if nano else 1e6), data[offset:offset + caplen]))
        offset += caplen
    return frames


def mac(b):
    return ":".join(f"{x:02x}" for x in b)


def ip6(b):
    return str(ipaddress.IPv6Address(b))


def ip4(b):
    return ".".join(str(x) for x in b)


def dissect(frame):
    """(fields, protocol, udp/tcp payload) of an Ethernet frame: addresses and ports as fields."""
    fields = [("eth.src", mac(frame[6:12])), ("eth.dst", mac(frame[0:6]))]
    ethertype = struct.unpack(">H", frame[12:14])[0]
    body = frame[14:]
    if ethertype == 0x0800:
        ihl = (body[0] & 0xF) * 4
        proto, src, dst, l4 = body[9], body[12:16], body[16:20], body[ihl:]
        fields += [("ip.src", ip4(src)), ("ip.dst", ip4(dst))]
    elif ethertype == 0x86DD:
        proto, src, dst, l4 = body[6], body[8:24], body[24:40], body[40:]
        fields += [("ip.src", ip6(src)), ("ip.dst", ip6(dst))]
    elif ethertype == 0x0806:
        return fields, "arp", b""
    else:
        return fields, f"ethertype-{ethertype:04x}", b""
    if proto == 17:
        sport, dport = struct.unpack(">HH", l4[:4])
        fields += [("udp.srcport", str(sport)), ("udp.dstport", str(dport))]
        return fields, "mdns" if 5353 in (sport, dport) else "udp", l4[8:]
    if proto == 6:
        sport, dport = struct.unpack(">HH", l4[:4])
        header = (l4[12] >> 4) * 4
        # The listening port is a field; the client's ephemeral port is the kernel's choice.
        fields += [("tcp.port", str(min(sport, dport)))]
        return fields, "tcp", l4[header:]
    if proto == 58:
        return fields, "icmpv6", l4
    return fields, f"ip-proto-{proto}", l4


TYPES = {1: "A", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 47: "NSEC", 255: "ANY"}


class DNSError(Exception):
    pass


def read_name(msg, offset):
    """(labels, offset after the name in place); compression followed backwards only."""
    labels, end, jumps, pos = [], None, 0, offset
    while True:
        if pos >= len(msg):
            raise DNSError("name runs off the message")
        n = msg[pos]
        if n == 0:
            return labels, (end if end is not None else pos + 1)
        if n & 0xC0 == 0xC0:
            target = ((n & 0x3F) << 8) | msg[pos + 1]
            if target >= pos or jumps > 127:
                raise DNSError("bad pointer")
            if end is None:
                end = pos + 2
            pos, jumps = target, jumps + 1
            continue
        if n > 63:
            raise DNSError("bad label length")
        labels.append(msg[pos + 1:pos + 1 + n])
        pos += 1 + n


def text(b):
    return b.decode("utf-8", "backslashreplace")


def dns_fields(msg):
    """Every field of an mDNS message as (field, value) pairs."""
    out = []
    if len(msg) < 12:
        return [("dns.malformed", msg.hex())]
    ident, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", msg[:12])
    out += [("dns.id", str(ident)), ("dns.flags", f"0x{flags:04x}")]

    suffix = ""

    def name(labels, field):
        out.append((field + suffix, ".".join(text(l) for l in labels)))
        out.extend(("dns.label" + suffix, text(l)) for l in labels)

    pos = 12
    try:
        for _ in range(qd):
            labels, pos = read_name(msg, pos)
            qtype, qclass = struct.unpack(">HH", msg[pos:pos + 4])
            pos += 4
            name(labels, "dns.qname")
            out += [("dns.qtype", TYPES.get(qtype, str(qtype))), ("dns.qclass", f"0x{qclass:04x}")]
        for section, count in (("an", an), ("ns", ns), ("ar", ar)):
            for _ in range(count):
                labels, pos = read_name(msg, pos)
                rtype, rclass, ttl, rdlen = struct.unpack(">HHIH", msg[pos:pos + 10])
                pos += 10
                rdata, start = msg[pos:pos + rdlen], pos
                pos += rdlen
                # A goodbye (TTL 0) withdraws a record: its values are told apart from the live ones.
                suffix = " (goodbye)" if ttl == 0 else ""
                name(labels, "dns.rrname")
                kind = TYPES.get(rtype, str(rtype))
                out += [("dns.rrtype", kind), ("dns.rrclass", f"0x{rclass:04x}"), ("dns.ttl", str(ttl))]
                if rtype == 1:
                    out.append(("dns.a", ip4(rdata)))
                elif rtype == 28:
                    out.append(("dns.aaaa", ip6(rdata)))
                elif rtype == 12:
                    name(read_name(msg, start)[0], "dns.ptr")
                elif rtype == 33:
                    prio, weight, port = struct.unpack(">HHH", rdata[:6])
                    out += [("dns.srv.priority", str(prio)), ("dns.srv.weight", str(weight)), ("dns.srv.port", str(port))]
                    name(read_name(msg, start + 6)[0], "dns.srv.target")
                elif rtype == 16:
                    i = 0
                    while i < len(rdata):
                        s = rdata[i + 1:i + 1 + rdata[i]]
                        i += 1 + rdata[i]
                        out.append(("dns.txt" + suffix, text(s)))
                        key, _, value = s.partition(b"=")
                        out.append(("dns.txt.key" + suffix, text(key)))
                        # Each comma-separated tag on its own: one pair's tag must change too.
                        for part in value.split(b","):
                            out.append(("dns.txt.value-part" + suffix, text(part)))
                elif rtype == 47:
                    nxt, after = read_name(msg, start)
                    name(nxt, "dns.nsec.next")
                    out.append(("dns.nsec.bitmaps", msg[after:start + rdlen].hex()))
                else:
                    out.append((f"dns.rdata.{kind}", rdata.hex()))
        if pos < len(msg):
            out.append(("dns.trailing", msg[pos:].hex()))
    except (DNSError, struct.error, IndexError, ValueError) as e:
        out.append(("dns.malformed", f"{e}: {msg.hex()}"))
    return out


def tls_fields(path):
    """Cleartext TLS handshake fields per frame number, from tshark."""
    wanted = ["tls.handshake.type", "tls.handshake.version", "tls.handshake.extensions.supported_version",
              "tls.handshake.extensions_server_name", "tls.handshake.extensions_alpn_str", "tls.handshake.ciphersuite",
              "tls.handshake.session_id", "tls.handshake.certificate", "tls.handshake.extensions_key_share_group",
              # A resumed session's ticket would be a value sent in clear again and again.
              "tls.handshake.extensions.psk.identity.identity"]
    command = ["tshark", "-r", path, "-d", "tcp.port==53400,tls", "-d", "tcp.port==53401,tls", "-Y", "tls.handshake",
               "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=|", "-e", "frame.number"]
    for field in wanted:
        command += ["-e", field]
    result = subprocess.run(command, capture_output=True, text=True)
    fields = defaultdict(list)
    for line in result.stdout.splitlines():
        parts = line.split("\t")
        for field, value in zip(wanted, parts[1:]):
            for v in value.split("|") if value else []:
                fields[int(parts[0])].append((field, v))
    return fields


def tshark_names(path):
    """The names and TXT strings tshark decodes in the mDNS packets, to cross-check dns_fields."""
    command = ["tshark", "-r", path, "-Y", "mdns", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
               "-e", "dns.qry.name", "-e", "dns.resp.name", "-e", "dns.ptr.domain_name", "-e", "dns.srv.target", "-e", "dns.txt"]
    result = subprocess.run(command, capture_output=True, text=True)
    values = set()
    for line in result.stdout.splitlines():
        for column in line.split("\t"):
            values.update(v for v in column.split("|") if v)
    return values


def patterns(secrets):
    """(label, bytes) to search for, each case-folded for ASCII text."""
    out = []
    for device in secrets["devices"]:
        who = device["role"]
        for field in ("host_name", "device_name", "name_at_peer"):
            if device.get(field):
                out.append((f"{who} {field} {device[field]!r}", device[field].encode(), True))
        fp = bytes.fromhex(device["fingerprint"])
        for label, value in ((f"{who} fingerprint", fp), (f"{who} SHA-256(fingerprint bytes)", hashlib.sha256(fp).digest()),
                             (f"{who} SHA-256(fingerprint hex)", hashlib.sha256(fp.hex().encode()).digest())):
            out += [(label + " (raw)", value, False), (label + " (first 4 bytes)", value[:4], False),
                    (label + " (hex)", value.hex().encode(), True), (label + " (first 8 hex digits)", value.hex()[:8].encode(), True)]
        cert = bytes.fromhex(device["certificate"])
        out += [(f"{who} certificate (DER)", cert, False), (f"{who} certificate (first 32 bytes of DER)", cert[:32], False),
                (f"{who} public key", bytes.fromhex(device["public_key"]), False)]
    for index, key in enumerate(secrets["discovery_keys"]):
        raw = bytes.fromhex(key)
        out += [(f"discovery key {index} (raw)", raw, False), (f"discovery key {index} (first 4 bytes)", raw[:4], False),
                (f"discovery key {index} (first 8 hex digits)", key[:8].encode(), True)]
    return out


def main():
    capture, secrets_path = sys.argv[1], sys.argv[2]
    with open(secrets_path) as f:
        secrets = json.load(f)
    frames = read_pcap(capture)
    if not frames:
        sys.exit("empty capture")
    first, last = frames[0][0], frames[-1][0]
    epochs = sorted({int(ts // EPOCH) for ts, _ in frames})
    boundaries = int(last // EPOCH) - int(first // EPOCH)
    print(f"capture: {len(frames)} frames, {first:.0f} .. {last:.0f} ({(last - first) / 60:.1f} min), "
          f"epochs {epochs}, {boundaries} boundaries crossed")
    kinds = defaultdict(int)
    failures = []

    # 1. Raw bytes.
    searches = patterns(secrets)
    hits = defaultdict(list)
    for number, (ts, frame) in enumerate(frames, 1):
        lowered = frame.lower()
        for label, value, fold in searches:
            haystack = lowered if fold else frame
            needle = value.lower() if fold else value
            at = haystack.find(needle)
            if at >= 0:
                hits[label].append((number, at, dissect(frame)[1]))
    print(f"\n1. raw search: {len(searches)} patterns in every byte of every frame")
    for label, value, _ in searches:
        found = hits.get(label, [])
        shown = value[:24].hex() if not label.endswith(("'", "(hex)", "digits)")) else value.decode()
        print(f"   {'FOUND' if found else 'absent':6} {label}: {shown}{'…' if len(value) > 24 else ''}")
        for number, at, proto in found[:5]:
            print(f"          frame {number} ({proto}) at byte {at}")
        if found:
            failures.append(f"{label} appears in {len(found)} frames")

    # 2. Fields per epoch.
    seen = defaultdict(lambda: defaultdict(list))  # (field, value) -> epoch -> [(seconds into the epoch, in a goodbye)]
    tls = tls_fields(capture)
    announcements = defaultdict(lambda: defaultdict(set))  # epoch -> source -> instance names (paired mode)
    tag_counts = defaultdict(set)  # (source, epoch) -> numbers of tags per announcement
    mdns_names = set()
    for number, (ts, frame) in enumerate(frames, 1):
        epoch, into = int(ts // EPOCH), ts % EPOCH
        fields, proto, payload = dissect(frame)
        kinds[proto] += 1
        if proto == "mdns":
            dns = dns_fields(payload)
            fields += dns
            source = next(v for f, v in fields if f == "ip.src")
            # A response's PTR records are its sender's instances; a query's are known answers.
            response = any(f == "dns.flags" and int(v, 16) & 0x8000 for f, v in dns)
            for f, v in dns:
                if f in ("dns.qname", "dns.rrname", "dns.ptr", "dns.srv.target", "dns.txt", "dns.nsec.next"):
                    mdns_names.add(v)
                if response and f == "dns.ptr" and v.endswith("._di-nearby._tcp.local"):
                    announcements[epoch][source].add(v)
                if response and f == "dns.txt" and v.startswith("t="):
                    tag_counts[(source, epoch)].add(len([t for t in v[2:].split(",") if t]))
        fields += tls.get(number, [])
        for field, value in fields:
            base = field.removesuffix(" (goodbye)")
            seen[(base, value)][epoch].append((into, base != field))

    print(f"\nframes by kind: {dict(sorted(kinds.items()))} (ip-proto-0: IPv6 hop-by-hop, MLD; ip-proto-2: IGMP)")
    handshakes = {(f, v) for values in tls.values() for f, v in values if f in (
        "tls.handshake.extensions.supported_version", "tls.handshake.extensions_server_name", "tls.handshake.extensions_alpn_str")}
    certificates = sum(1 for values in tls.values() for f, _ in values if f == "tls.handshake.certificate")
    print(f"TLS: {len(tls)} handshake frames; {sorted(handshakes)}; certificates in clear: {certificates}")
    missing = tshark_names(capture) - mdns_names
    # tshark writes the root as <Root> and escapes some bytes; any other difference is a decoding gap.
    missing = {v for v in missing if v != "<Root>"}
    print(f"tshark cross-check: every name and TXT string tshark decodes is among ours: {'yes' if not missing else missing}")
    if missing:
        failures.append(f"tshark decodes values this analysis missed: {sorted(missing)[:5]}")

    print("\npaired-mode announcements (PTR targets of _di-nearby._tcp.local) per epoch and source:")
    for epoch in sorted(announcements):
        for source in sorted(announcements[epoch]):
            print(f"   epoch {epoch} {source}: {sorted(announcements[epoch][source])}")
    sources = {s for e in announcements for s in announcements[e] if ":" not in s}
    # Each epoch the capture covers for a minute or more must show every receiver's announcement.
    covered = [e for e in epochs if min(last, (e + 1) * EPOCH) - max(first, e * EPOCH) >= EPOCH / 15]
    for epoch in covered:
        absent = sources - set(announcements.get(epoch, {}))
        if absent:
            failures.append(f"epoch {epoch}: no announcement from {sorted(absent)} (the comparison would be vacuous)")
    print("tags per announcement (live TXT records), by source and epoch:")
    for (source, epoch), counts in sorted(tag_counts.items()):
        print(f"   {source} epoch {epoch}: {sorted(counts)}")

    print("\n2. values seen in more than one epoch:")
    network = ("eth.", "ip.", "dns.a", "dns.aaaa")
    explained, carried, unexplained = [], [], []
    for (field, value), by_epoch in sorted(seen.items()):
        if len(by_epoch) < 2:
            continue
        later = sorted(by_epoch)[1:]

        def count(e):
            goodbyes = sum(1 for _, goodbye in by_epoch[e] if goodbye)
            return f"{e}: {len(by_epoch[e])}" + (f" ({goodbyes} in goodbyes)" if goodbyes else "")
        latest = max(into for into, _ in by_epoch[later[-1]])
        line = f"{field} = {value!r}   (sightings per epoch {', '.join(count(e) for e in sorted(by_epoch))}; " \
               f"the latest {latest:.2f} s into epoch {later[-1]})"
        if field.startswith(network) or field in ("udp.srcport", "udp.dstport"):
            explained.append(("network (addresses and ports of the link, not ours to change)", line))
        elif field.removesuffix(" (goodbye)") in ("dns.qname", "dns.rrname", "dns.ptr", "dns.label") and value in PROTOCOL_NAMES:
            explained.append(("protocol constant (the service type)", line))
        elif field.removesuffix(" (goodbye)") in ("dns.txt", "dns.txt.key", "dns.txt.value-part") and value in PROTOCOL_TXT | {"1"}:
            explained.append(("protocol constant (TXT version and key)", line))
        elif field in ("dns.id", "dns.flags", "dns.qtype", "dns.qclass", "dns.rrtype", "dns.rrclass", "dns.ttl",
                       "dns.srv.priority", "dns.srv.weight", "dns.nsec.bitmaps") or field.startswith("tls."):
            explained.append(("protocol constant (header, type, class, TTL, TLS parameter)", line))
        elif field in ("dns.srv.port", "tcp.port") and value in (DEFAULT_PORT, "5353"):
            explained.append(("the default port, the same for every device", line))
        elif field.startswith("dns.") and all(max(into for into, _ in by_epoch[e]) < GRACE for e in later):
            carried.append(line)
        else:
            unexplained.append(line)
    for reason in sorted({r for r, _ in explained}):
        print(f"   {reason}:")
        for r, line in explained:
            if r == reason:
                print(f"      {line}")
    print(f"   carried over a boundary only (every later sighting within {GRACE} s after the boundary: the old "
          f"epoch's records withdrawn by goodbyes as the new ones are announced):")
    for line in carried or ["(none)"]:
        print(f"      {line}")
    print("   UNEXPLAINED (a value that stays the same):")
    for line in unexplained or ["(none)"]:
        print(f"      {line}")
    failures += [f"stable value: {line}" for line in unexplained]
    if boundaries < 2:
        failures.append(f"the capture crosses {boundaries} epoch boundaries, not 2")

    print("\nVERDICT: " + ("PASS: no host name, device name, fingerprint, certificate or key in any packet, and nothing "
                          "but protocol constants and the network's addresses and ports stays the same across epochs"
                          if not failures else "FAIL"))
    for failure in failures:
        print(f"   - {failure}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
