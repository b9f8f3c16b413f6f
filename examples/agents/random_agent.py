"""A random player for a seat of easymoney (docs/seats.md): legal moves, chosen at random.

    easymoney simulate --games 20 --players 2 --strategies 'exec:"python examples/agents/random_agent.py",cautious'

Standard library only; any language that reads and writes lines of JSON can do the same.
"""

import json
import random
import sys


def answer(message):
    """The reply to one message of the game (None: no reply)."""
    if message["type"] == "hello":
        return {"ready": True}  # message["protocol"] is 1: the version this agent speaks
    if message["type"] == "decide":
        actions = message["actions"]
        index = random.randrange(len(actions))
        chosen = actions[index]
        if "least" in chosen:  # an amount: any multiple of step from least to most
            steps = (chosen["most"] - chosen["least"]) // chosen["step"]
            return {"index": index, "amount": chosen["least"] + chosen["step"] * random.randint(0, steps)}
        return {"line": chosen["line"]}
    return None  # "bye": the game is over


for line in sys.stdin:
    reply = answer(json.loads(line))
    if reply is not None:
        print(json.dumps(reply), flush=True)
