#!/usr/bin/env python3
"""A one-ply bot for catan-engine's --bot-cmd that looks ahead on fair forks (standard
library only).

    catan sim --games 8 --bots lookahead,random,random,random \
        --bot-cmd "lookahead=python3 examples/bots/lookahead_bot.py"
    catan play --bot-cmd "blue=python3 examples/bots/lookahead_bot.py" --bots none

When its seat is to act the engine sends one "decide" line (docs/protocol.md). Before
answering, this bot tries each legal action (at most MAX_TRIED of them) on a fork of the
position: {"cmd": "fork"} opens one (reseeded, and the cards its seat cannot see dealt
again, so it never sees the real dice or the others' hands), {"cmd": "act", "fork": N,
...} plays the action there, {"cmd": "view", "fork": N} reads the result, {"cmd": "drop",
"fork": N} closes it. It answers with the action whose fork scores best. The real game
is never touched.

The score is deliberately plain and reads only what every edition's view has: victory
points, pieces placed (fewer left in supply), cards held. It is an example of the
protocol, not a strong player.
"""

import json
import random
import sys

MAX_TRIED = 24  # actions tried per decision (a seeded sample when there are more)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def ask(message):
    """One request about forks, one answer line back."""
    send(message)
    answer = json.loads(sys.stdin.readline())
    if not answer.get("ok"):
        raise RuntimeError(f"{message['cmd']}: {answer['error']['message']}")
    return answer


def score(view, seat):
    if view.get("winner") is not None:
        return 1000.0 if view["winner"] == view["players"][seat - 1]["color"] else -1000.0
    me = view["players"][seat - 1]
    cards = sum(n for zone in me["zones"].values() if isinstance(zone, dict) for n in zone.values()
                if isinstance(n, int))
    return 10.0 * me["points"] - 2.0 * sum(me["supply"].values()) + 0.5 * cards


def choose(rng, request):
    legal, seat = request["legal"], request["seat"]
    if len(legal) == 1:
        return legal[0]
    tried = legal if len(legal) <= MAX_TRIED else rng.sample(legal, MAX_TRIED)
    best, best_score = tried[0], None
    for entry in tried:
        fork = ask({"cmd": "fork"})["fork"]
        try:
            ask({"cmd": "act", "fork": fork, "seat": seat, "action": entry["action"]})
            value = score(ask({"cmd": "view", "fork": fork, "seat": seat})["view"], seat)
        except RuntimeError:
            value = None  # the rules refused it on this fork: not a candidate
        ask({"cmd": "drop", "fork": fork})
        if value is not None and (best_score is None or value > best_score):
            best, best_score = entry, value
    return best


def main():
    rng, seed = None, None
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("protocol") != 1:
            print(f"lookahead_bot: protocol {request.get('protocol')} is not 1", file=sys.stderr)
            return 1
        if request["seed"] != seed:  # a new game: reseed, so any --jobs plays it alike
            seed = request["seed"]
            rng = random.Random(seed)
        send({"action": choose(rng, request)["text"], "request": request["request"]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
