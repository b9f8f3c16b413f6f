"""A seat program that offers the least loan (railroads example) whenever one is listed, to
the first player listed, and otherwise passes what it may: a cautious borrower with cash
rejects it every time (tests/test_bots_plugins.py)."""
import json
import sys

PASSES = (" passes", " declines", " rejects", " ends turn", " rolls")

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "decide":
        actions = message["actions"]
        for index, action in enumerate(actions):
            if " lends " in action["line"]:
                print(json.dumps({"index": index, "amount": action["least"]}), flush=True)
                break
        else:
            index = next((i for i, a in enumerate(actions) if a["line"].endswith(PASSES)), 0)
            chosen = actions[index]
            reply = {"index": index}
            if "least" in chosen:
                reply["amount"] = chosen["least"]
            print(json.dumps(reply), flush=True)
