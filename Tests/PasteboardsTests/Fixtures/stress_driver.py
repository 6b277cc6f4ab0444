#!/usr/bin/env python3
"""Concurrency and crash injection for pasteboards, with the real pbcopy and pbpaste.

    stress_driver.py BIN_DIR MODE ROUNDS [SEED]

MODE `concurrent`: 4 writer processes run pbcopy ROUNDS times each on one pasteboard while 4
reader processes run pbpaste as fast as they can. Every payload is self-checking (a header with
its writer, sequence, length and SHA-256, then the body), so a torn or half-written item is seen.
Checks: every paste is a complete payload someone copied (or nothing before the first copy);
each reader sees the change count never go back; the final change count is exactly the number
of copies (no lost or doubled write).

MODE `kill`: ROUNDS times, a pbcopy of 64 KiB..4 MiB is killed with SIGKILL after a random
0..30 ms while a reader keeps pasting. Checks: every paste is a complete payload; the change
count never goes back and ends between the copies that finished and the copies started; no
temporary file (.gen-*) is left after a final clean copy.

Prints one summary line ending in problems=N; exits 1 on any problem.
"""
import hashlib, os, random, signal, subprocess, sys, tempfile, threading, time

bin_dir, mode, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
root = tempfile.mkdtemp(prefix="pasteboard-stress-")
env = dict(os.environ, DOCUMENT_INTERCHANGE_ROOT=root)
env.pop("DI_FAULTS", None)
pbcopy, pbpaste = os.path.join(bin_dir, "pbcopy"), os.path.join(bin_dir, "pbpaste")
board = ["-pboard", "com.example.stress"]
problems = []
lock = threading.Lock()

def payload(writer, seq, size):
    body = (b"%d:%d:" % (writer, seq)) * (size // 8 + 1)
    body = body[:size]
    header = b"PB %d %d %d %s\n" % (writer, seq, len(body), hashlib.sha256(body).hexdigest().encode())
    return header + body

def check(data, where):
    if data == b"":
        return
    head, _, body = data.partition(b"\n")
    parts = head.split(b" ")
    if len(parts) != 5 or parts[0] != b"PB" or int(parts[3]) != len(body) or hashlib.sha256(body).hexdigest().encode() != parts[4]:
        with lock:
            problems.append("%s: torn or foreign paste (%d bytes, head %r)" % (where, len(data), head[:60]))

def copy(data, extra=()):
    return subprocess.run([pbcopy] + board + list(extra), input=data, env=env, stdout=subprocess.DEVNULL).returncode

def count():
    out = subprocess.run([pbpaste] + board + ["--change-count"], env=env, capture_output=True)
    return int(out.stdout or b"0") if out.returncode == 0 else 0

# The pasteboard exists before readers start (a named one that does not exist is an error).
copy(b"")
stop = threading.Event()
pastes = [0]

def reader(index):
    last = 0
    while not stop.is_set():
        out = subprocess.run([pbpaste] + board, env=env, capture_output=True)
        if out.returncode != 0:
            with lock:
                problems.append("reader %d: pbpaste failed: %s" % (index, out.stderr.decode()[:200]))
            continue
        check(out.stdout, "reader %d" % index)
        now = count()
        if now < last:
            with lock:
                problems.append("reader %d: change count went back from %d to %d" % (index, last, now))
        last = now
        with lock:
            pastes[0] += 1

started = time.time()
if mode == "concurrent":
    readers = [threading.Thread(target=reader, args=(i,)) for i in range(4)]
    for r in readers: r.start()
    def writer(w):
        for seq in range(rounds):
            if copy(payload(w, seq, rng.randrange(1, 256 * 1024))) != 0:
                with lock: problems.append("writer %d: pbcopy failed" % w)
    writers = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for w in writers: w.start()
    for w in writers: w.join()
    stop.set()
    for r in readers: r.join()
    final = count()
    if final != 4 * rounds + 1:
        problems.append("final change count %d, expected %d" % (final, 4 * rounds + 1))
    check(subprocess.run([pbpaste] + board, env=env, capture_output=True).stdout, "final")
    print("mode=concurrent copies=%d pastes=%d change_count=%d seconds=%.1f problems=%d"
          % (4 * rounds, pastes[0], final, time.time() - started, len(problems)))
elif mode == "kill":
    readers = [threading.Thread(target=reader, args=(0,))]
    for r in readers: r.start()
    finished = 1
    for seq in range(rounds):
        data = payload(0, seq, rng.randrange(64 * 1024, 4 * 1024 * 1024))
        job = subprocess.Popen([pbcopy] + board, stdin=subprocess.PIPE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        def feed():
            try:
                job.stdin.write(data); job.stdin.close()
            except BrokenPipeError:
                pass
        feeder = threading.Thread(target=feed); feeder.start()
        time.sleep(rng.random() * 0.03)
        job.send_signal(signal.SIGKILL)
        status = job.wait(); feeder.join()
        if status == 0:
            finished += 1
    stop.set()
    for r in readers: r.join()
    before = count()
    if not (finished <= before <= rounds + 1):
        problems.append("change count %d outside [%d, %d]" % (before, finished, rounds + 1))
    check(subprocess.run([pbpaste] + board, env=env, capture_output=True).stdout, "after kills")
    copy(payload(9, 0, 100))
    if count() != before + 1:
        problems.append("a clean copy after the kills did not add one to the change count")
    folder = [d for d in os.listdir(os.path.join(root, "Pasteboards")) if "stress" in d][0]
    left = [n for n in os.listdir(os.path.join(root, "Pasteboards", folder)) if n.startswith(".gen-")]
    if left:
        problems.append("temporary files left: %s" % left)
    print("mode=kill kills=%d finished=%d pastes=%d change_count=%d seconds=%.1f problems=%d"
          % (rounds, finished - 1, pastes[0], before, time.time() - started, len(problems)))
for p in problems[:20]:
    print("PROBLEM", p)
subprocess.run(["rm", "-rf", root])
sys.exit(1 if problems else 0)
