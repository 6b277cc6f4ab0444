#!/usr/bin/env python3
"""Crash injection for inboxd: deliver files while the job is killed with SIGKILL at random points.

    crash_driver.py INBOXD KILLS FILES_PER_ROUND [SEED [WORKING_FOLDER]]

Each round: start `inboxd run`, deliver FILES_PER_ROUND files into the Inbox (written under a
temporary name, then renamed in, as a sender does; names drawn from a small pool so suffixes are
exercised), wait a random 0-40 ms, kill -9 the job. After KILLS rounds, `inboxd once` finishes.
Then: every delivered file is in Documents/ exactly once with identical bytes, the Inbox is empty,
and the manifest has one `stored` row per file (name and SHA-256 matching the disk) and no `moving`
row, and no temporary name (`.inboxd-*`) is left in either folder. With WORKING_FOLDER (on another
file system, such as /dev/shm), files are moved there with `--working-folder`: every move is a
copy. Prints a summary line; exits 1 on any violation.
"""
import hashlib, os, random, signal, sqlite3, subprocess, sys, tempfile, time

inboxd, kills, per_round = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
root = tempfile.mkdtemp(prefix="crash-driver-")
app = "com.example.crash"
options = ["--root", root, "--app", app]
if len(sys.argv) > 5:
    options += ["--working-folder", tempfile.mkdtemp(prefix="crash-driver-", dir=sys.argv[5])]
container = os.path.join(root, "Containers", app)
inbox = os.path.join(container, "Documents", "Inbox")
# The app's container, as a first delivery makes it (inboxd creates no container for a name).
os.makedirs(inbox)
documents = options[-1] if len(options) > 4 else os.path.join(container, "Documents")
staging = os.path.join(root, "staging")
os.makedirs(staging)
names = ["report.pdf", "photo.jpg", "notes.txt", "a", ".hidden", "x" * 250 + ".bin", "résumé.doc"]
delivered = {}   # content sha -> bytes
names_of = {}    # content sha -> the Inbox name it was delivered under
serial = 0
interrupted = 0
started = time.time()
for k in range(kills):
    log = open(os.environ["CRASH_DRIVER_LOG"], "ab") if os.environ.get("CRASH_DRIVER_LOG") else subprocess.DEVNULL
    job = subprocess.Popen([inboxd, "run"] + options + ["--rescan", "0.05", "--log-level", "info"],
                           stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(per_round):
        serial += 1
        body = ("file %d %d " % (serial, rng.randrange(1 << 30))).encode() * rng.randrange(1, 200)
        temp = os.path.join(staging, "t%d" % serial)
        with open(temp, "wb") as f:
            f.write(body)
            f.flush()
            os.fsync(f.fileno())
        # Into the Inbox as openin does, never replacing: link under the name or name-N, then
        # drop the staging name (the file has two links for a moment).
        final = rng.choice(names)
        stem, dot, ext = final.rpartition(".")
        if not stem:
            stem, dot, ext = final, "", ""
        i = 0
        while True:
            short = stem
            while i and len(("%s-%d%s%s" % (short, i, dot, ext)).encode()) > 255:
                short = short[:-1]
            candidate = final if i == 0 else "%s-%d%s%s" % (short, i, dot, ext)
            try:
                os.link(temp, os.path.join(inbox, candidate))
                break
            except FileExistsError:
                i += 1
        os.unlink(temp)
        delivered[hashlib.sha256(body).hexdigest()] = body
        names_of[hashlib.sha256(body).hexdigest()] = candidate
    time.sleep(rng.random() * 0.04)
    job.send_signal(signal.SIGKILL)
    job.wait()
    # How often the kill cut a move between its journal entry and its completion.
    manifest = os.path.join(container, "Library", "Manifest.sqlite")
    if os.path.exists(manifest):
        with sqlite3.connect(manifest) as check:
            try:
                if check.execute("SELECT COUNT(*) FROM moves WHERE status IN ('moving', 'copied')").fetchone()[0]:
                    interrupted += 1
            except sqlite3.OperationalError:
                pass   # killed while it was creating the manifest: nothing was moving yet
subprocess.run([inboxd, "once"] + options, check=True, stdout=subprocess.DEVNULL)
print("root=%s working_folder=%s" % (root, documents), file=sys.stderr)

problems = []
leftovers = [n for n in os.listdir(documents) + os.listdir(inbox) if n.startswith(".inboxd-")]
if leftovers:
    problems.append("temporary names left: %r" % leftovers[:5])
found = {}
for name in os.listdir(documents):
    path = os.path.join(documents, name)
    if name == "Inbox" or not os.path.isfile(path):
        continue
    data = open(path, "rb").read()
    found.setdefault(hashlib.sha256(data).hexdigest(), []).append(name)
if os.listdir(inbox):
    problems.append("Inbox not empty: %r" % os.listdir(inbox)[:5])
for digest in delivered:
    if len(found.get(digest, [])) != 1:
        problems.append("file %s (delivered as %s) found %d times" % (digest[:12], names_of[digest], len(found.get(digest, []))))
extra = set(found) - set(delivered)
if extra:
    problems.append("%d files in Documents that were not delivered" % len(extra))
db = sqlite3.connect(os.path.join(container, "Library", "Manifest.sqlite"))
rows = db.execute("SELECT stored_name, status, sha256 FROM moves").fetchall()
moving = [r for r in rows if r[1] in ("moving", "copied")]
stored = {r[2]: r[0] for r in rows if r[1] == "stored"}
if moving:
    problems.append("%d rows still moving" % len(moving))
if len([r for r in rows if r[1] == "stored"]) != len(delivered):
    problems.append("%d stored rows for %d files" % (len([r for r in rows if r[1] == 'stored']), len(delivered)))
for digest, name in stored.items():
    if found.get(digest, [None])[0] != name:
        problems.append("manifest says %s for %s, disk disagrees" % (name, digest[:12]))
print("kills=%d mid_move=%d files=%d stored_rows=%d seconds=%.1f problems=%d"
      % (kills, interrupted, len(delivered), len(stored), time.time() - started, len(problems)))
for p in problems[:20]:
    print("  " + p)
if not problems:
    import shutil
    shutil.rmtree(root, ignore_errors=True)
    if len(options) > 4:
        shutil.rmtree(documents, ignore_errors=True)
sys.exit(1 if problems else 0)
