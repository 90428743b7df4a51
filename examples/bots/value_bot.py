#!/usr/bin/env python3
"""A one-ply value bot on the catan_engine package (the kind catanatron ships), fair.

For each decision it makes one fair fork of the game from its seat's view
(``game.fork(seat=...)``: the dice reseeded, the cards the seat cannot see dealt again),
tries every legal action on that fork (``snapshot``/``restore`` between actions: the loaded
rules are reused), and scores the position after each by a linear value of the engine's
feature vector (``fork.features()``: on a seat's fork, the referee's features are the
seat's guess). It plays the best action on the real game. Nothing it reads is more than
its seat may know.

    python3 examples/bots/value_bot.py --games 100 --seed 1    # against three greedy bots
    python3 examples/bots/value_bot.py --bench                 # costs: fork, features, view, decision

Copy ``ValueBot`` and change ``WEIGHTS`` (or ``value``) to make it your own.
"""

import argparse
import math
import statistics
import time

import numpy as np

import catan_engine as ce

# Weights of the feature vector's columns (``Game.feature_names()``), in victory points'
# units, after base's hand-written evaluation (variants/base/evaluation.lua); columns not
# named weigh nothing. A city's production column counts its pips once: its settlement's
# pips are gone from the settlement column, so a city weighs twice.
WEIGHTS = {
    "points": 1.0,
    "production.settlement": 0.07,  # pips: chances in 36 of each roll
    "production.city": 0.14,
    "production.kinds": 0.2,
    "harbors": 0.15,
    "dev.total": 0.3,
    "dev_new.total": 0.3,
    "played.total": 0.15,
    "trail.road": 0.02,
    "hand.total": 0.03,
    "sites.best": 0.02,
}

# What the hand may build next, by the printed costs, and what being near it is worth.
BUILDS = {
    "city": ({"grain": 2, "ore": 3}, 0.6),
    "settlement": ({"brick": 1, "lumber": 1, "wool": 1, "grain": 1}, 0.6),
    "development": ({"wool": 1, "grain": 1, "ore": 1}, 0.3),
    "road": ({"brick": 1, "lumber": 1}, 0.15),
}


class ValueBot:
    """A one-ply bot for one seat of ``game``'s kind of game (base and its editions)."""

    def __init__(self, game, weights=None):
        names = game.feature_names()
        self.col = {n: i for i, n in enumerate(names)}
        self.width = len(names)
        self.w = np.array([(weights or WEIGHTS).get(n, 0.0) for n in names])

    def value(self, fork, seat):
        """The position's worth to ``seat``: its score less the best other seat's."""
        if fork.winner is not None:
            return 100.0 if fork.winner == seat else -100.0
        rows = fork.features().reshape(-1, self.width)
        v = rows @ self.w
        c = self.col
        for s, row in enumerate(rows):
            # Room to grow: up to two open sites reachable by road.
            v[s] += 0.2 * min(row[c["sites.open"]], 2)
            # The hand: more as it nears a build; over seven cards it is at risk on a 7.
            n = row[c["hand.total"]]
            v[s] -= 0.08 * max(n - 7, 0)
            can = {
                "city": row[c["pieces.settlement"]] > 0 and row[c["pieces.city"]] < 4,
                "settlement": row[c["sites.open"]] > 0 and row[c["pieces.settlement"]] < 5,
                "development": True,
                "road": row[c["pieces.road"]] < 15,
            }
            best = 0.0
            for what, (price, worth) in BUILDS.items():
                if can[what] and n > 0:
                    have = sum(min(row[c["hand." + r]], k) for r, k in price.items())
                    best = max(best, worth * (have / sum(price.values())) ** 2)
            v[s] += best
        return v[seat] - np.max(np.delete(v, seat))

    def choose(self, game, seat=None):
        seat = game.to_act if seat is None else seat
        legal = game.legal(seat)
        if len(legal) <= 1:
            return legal[0] if legal else None
        # One fair fork per decision, from this seat's view; each action tried on it and
        # taken back (restore reuses the loaded rules: a state clone).
        fork = game.fork(seat=seat)
        start = fork.snapshot()
        best, best_value = legal[0], -math.inf
        for action in legal:
            try:
                fork.play(action, seat)
            except ce.CatanError:
                continue
            v = self.value(fork, seat)
            fork.restore(start)
            if v > best_value:
                best, best_value = action, v
        return best


def play_game(seed, seat, max_actions=ce.MAX_ACTIONS):
    """One 4-player base game: the value bot in ``seat``, greedy bots elsewhere."""
    g = ce.Game("base", seed=seed)
    me = ValueBot(g)
    bots = [None if s == seat else ce.Bot("greedy", seed=seed * 31 + s) for s in range(4)]
    times = []
    while not g.over and len(g.log) < max_actions:
        g.play_bots(bots, stop_at=seat, max_actions=max_actions - len(g.log))
        if g.over or len(g.log) >= max_actions:
            break
        t = time.perf_counter()
        a = me.choose(g, seat)
        times.append(time.perf_counter() - t)
        g.play(a, seat)
    return g.winner, times


def wilson95(wins, n):
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.96, wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def match(games, seed):
    wins, times = 0, []
    for i in range(games):
        seat = i % 4  # rotated through the seats
        winner, t = play_game(seed + i, seat)
        wins += winner == seat
        times += t
    lo, hi = wilson95(wins, games)
    print(f"value bot against 3 greedy bots, base, 4 players: {wins} wins in {games} games "
          f"({wins / games:.1%}, 95% interval {lo:.1%} to {hi:.1%}; a fair share is 25%)")
    print(f"decision: median {statistics.median(times) * 1e3:.2f} ms over {len(times)} decisions, "
          f"90th percentile {np.percentile(times, 90) * 1e3:.2f} ms")


def bench():
    def median_us(f, n=300):
        f()
        xs = []
        for _ in range(n):
            t = time.perf_counter()
            f()
            xs.append(time.perf_counter() - t)
        return statistics.median(xs) * 1e6

    g = ce.Game("base", seed=3)
    g.play_random(300)
    print(f"position: {g!r}")
    print(f"clone: {median_us(g.clone):.1f} us; fork: {median_us(g.fork):.1f} us; "
          f"fork(seat=0): {median_us(lambda: g.fork(seat=0)):.1f} us; "
          f"snapshot+restore: {median_us(lambda: g.restore(g.snapshot())):.1f} us")
    long = ce.Game("base", seed=9)
    long.play_random()  # to the end: the longest log a clone copies
    print(f"after {len(long.log)} actions: clone: {median_us(long.clone):.1f} us; "
          f"fork(seat=0): {median_us(lambda: long.fork(seat=0)):.1f} us")
    print(f"features: {median_us(g.features):.1f} us; features(seat=0): {median_us(lambda: g.features(0)):.1f} us; "
          f"view: {median_us(g.view, 100) / 1e3:.3f} ms; view(0): {median_us(lambda: g.view(0), 100) / 1e3:.3f} ms")
    times = []
    for i in range(4):
        times += play_game(1000 + i, i)[1]
    print(f"decision: median {statistics.median(times) * 1e3:.2f} ms over {len(times)} decisions of 4 games")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bench", action="store_true", help="time forks, features, views and decisions")
    args = ap.parse_args()
    bench() if args.bench else match(args.games, args.seed)
