#!/usr/bin/env python3
"""A random bot for catan-engine's --bot-cmd, in plain Python (standard library only).

    catan play --bot-cmd "python3 examples/bots/random_bot.py"
    catan sim --games 8 --bots greedy,ext,random,ext --bot-cmd "ext=python3 examples/bots/random_bot.py"
    catan sim --variant rivals --players 2 --games 10 --bot-cmd "1=python3 examples/bots/random_bot.py"

The engine writes one JSON line when the bot's seat is to act (docs/protocol.md):
{"protocol": 1, "cmd": "decide", "seat": 2, "color": "blue", "seed": ..., "view": {...},
 "legal": [{"text": "road 12-13", "action": {...}}, ...], "templates": [...]}
and reads one JSON line back: {"action": "road 12-13"} (the text, or the "action"
object of a legal entry), or {"index": 3} (0-based, into "legal").

Like the engine's own random bot it draws a kind of action first (roll, road, end, ...),
then one of that kind, so a long list of roads does not drown out ending the turn. It
reseeds with every new "seed" (one per game and seat), so the same game is played the
same way whatever games this process played before: `catan sim --jobs N` stays
deterministic. examples/bots/lookahead_bot.py looks ahead on forks before it answers.
"""

import json
import random
import sys


def choose(rng, legal):
    kinds = sorted({entry["action"]["name"] for entry in legal})
    kind = rng.choice(kinds)
    return rng.choice([entry for entry in legal if entry["action"]["name"] == kind])


def main():
    rng, seed = None, None
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("protocol") != 1:
            print(f"random_bot: protocol {request.get('protocol')} is not 1", file=sys.stderr)
            return 1
        if request["seed"] != seed:
            seed = request["seed"]
            rng = random.Random(seed)
        if not request["legal"]:
            answer = {"action": "end"}  # never sent: the engine asks only seats with an action
        else:
            answer = {"action": choose(rng, request["legal"])["text"]}
        # Echoing the request's number lets the engine tell this answer from a stray line.
        answer["request"] = request["request"]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
