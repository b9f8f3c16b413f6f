"""A seat program that answers the hello, then misbehaves at its first decision (tests/test_seats.py).

MODE: slow (never answers), crash (exits), garbage (not JSON), illegal (a line not listed),
badindex (an index out of range), huge and hugeindex (an amount of 5,000 digits, in a line or
beside an index, at the first decision with an amount; the first listed action before it), ok
(the first listed action, always), deaf (answers the hello before reading it, then never
reads), shut (closes its output at its first decision and stays), spawn PIDFILE (starts a program that sleeps, adds its pid to PIDFILE, then plays ok).
"""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
if mode == "deaf":
    print(json.dumps({"ready": True}), flush=True)
    time.sleep(60)
if mode == "spawn":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open(sys.argv[2], "a") as pids:
        pids.write(f"{child.pid}\n")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "decide":
        if mode == "slow":
            time.sleep(60)
        elif mode == "crash":
            print("boom", file=sys.stderr, flush=True)
            sys.exit(3)
        elif mode == "shut":
            sys.stdout.close()
            os.close(1)
            time.sleep(60)
        elif mode == "garbage":
            print("hello there", flush=True)
        elif mode == "illegal":
            print(json.dumps({"line": "Nobody buys the moon"}), flush=True)
        elif mode == "badindex":
            print(json.dumps({"index": 999}), flush=True)
        elif mode.startswith("huge") and any("least" in a for a in message["actions"]):
            index, entry = next((i, a) for i, a in enumerate(message["actions"]) if "least" in a)
            digits = "9" * 5000  # written by hand: json.dumps refuses an int this long
            if mode == "huge":
                print(json.dumps({"line": entry["line"].replace("N", digits)}), flush=True)
            else:
                print('{"index": %d, "amount": %s}' % (index, digits), flush=True)
        else:
            print(json.dumps({"index": 0, "amount": message["actions"][0].get("least")}), flush=True)
