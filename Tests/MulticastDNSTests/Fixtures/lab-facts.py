"""Reads the JSON lines the probes and peers of mdns-lab.sh print.
   lab-facts.py field FILE EVENT NAME-PART FIELD   FIELD of the first EVENT line whose name
                                                   contains NAME-PART ("-" when none), or "none"
   lab-facts.py time FILE EVENT [NAME-PART]        its time, or "none"
   lab-facts.py names FILE                         the names in a lookup's "found" line, sorted
   lab-facts.py added FILE                         the instance names of python-zeroconf's
                                                   "added" lines, sorted
   lab-facts.py p90 SECONDS… / max SECONDS…        the 90th percentile (nearest rank) or the
                                                   largest, in ms"""
import json, math, sys

def lines(path):
    with open(path) as f:
        for line in f:
            try:
                yield json.loads(line)
            except ValueError:
                pass

def first(path, event, part):
    for d in lines(path):
        if d.get("event") == event and (part in ("-", None) or part in d.get("name", "")):
            return d
    return None

command = sys.argv[1]
if command == "field":
    d = first(*sys.argv[2:5])
    value = None if d is None else d.get(sys.argv[5])
    print("none" if value is None else value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":")))
elif command == "time":
    d = first(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "-")
    print("none" if d is None else repr(d["time"]))
elif command == "names":
    d = first(sys.argv[2], "found", "-")
    print(",".join(sorted(s["name"] for s in d["services"])) if d else "none")
elif command == "added":
    names = {d["name"].split("._")[0] for d in lines(sys.argv[2]) if d.get("event") == "added"}
    print(",".join(sorted(names)) or "none")
elif command in ("p90", "max"):
    values = sorted(float(v) for v in sys.argv[2:])
    rank = len(values) if command == "max" else math.ceil(0.9 * len(values))
    print(round(1000 * values[max(0, rank - 1)]) if values else "none")
