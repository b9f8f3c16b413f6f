"""A random player for a seat of easymoney speaking protocol 2 (docs/seats.md): legal moves,
chosen at random, and a bid never past what the seat holds.

    easymoney simulate --games 20 --players 2 --strategies 'exec:"python examples/agents/random_agent_v2.py",cautious'

Protocol 2 shows the game as easymoney's one view of a decision: `state`, `request`,
`legal`, each field spelt once. Standard library only.
"""

import json
import random
import sys


def answer(message):
    """The reply to one message of the game (None: no reply)."""
    if message["type"] == "hello":
        if 2 not in message.get("protocols", []):
            sys.exit("this agent speaks protocol 2, which this easymoney does not offer")
        return {"ready": True, "protocol": 2}
    if message["type"] == "decide":
        chosen = random.choice(message["legal"])
        if "least" in chosen:  # an amount: any multiple of step from least to most
            me = next(p for p in message["state"]["players"] if p["name"] == message["me"])
            most = max(chosen["least"], min(chosen["most"], me["cash"]))
            steps = (most - chosen["least"]) // chosen["step"]
            amount = chosen["least"] + chosen["step"] * random.randint(0, steps)
            return {"index": chosen["index"], "amount": amount}
        return {"index": chosen["index"]}
    return None  # "bye": the game is over


for line in sys.stdin:
    reply = answer(json.loads(line))
    if reply is not None:
        print(json.dumps(reply), flush=True)
