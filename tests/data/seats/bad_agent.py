"""A seat program that answers the hello, then misbehaves at its first decision (tests/test_seats.py).

MODE: slow (never answers), crash (exits), garbage (not JSON), illegal (a line not listed),
badindex (an index out of range), ok (the first listed action, always).
"""

import json
import sys
import time

mode = sys.argv[1]
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
        elif mode == "garbage":
            print("hello there", flush=True)
        elif mode == "illegal":
            print(json.dumps({"line": "Nobody buys the moon"}), flush=True)
        elif mode == "badindex":
            print(json.dumps({"index": 999}), flush=True)
        else:
            print(json.dumps({"index": 0, "amount": message["actions"][0].get("least")}), flush=True)
