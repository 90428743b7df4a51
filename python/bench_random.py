"""Random play from Python against `catan sim --jobs 1`, on one core.

    python python/bench_random.py [--variant base] [--games 20] [--seed 1] [--catan target/release/catan]
    python python/bench_random.py --threads 2      # thread scaling: play_random on 1, then 2 threads

Prints actions per second of: `catan sim --jobs 1` (random bots, from its JSON report:
games/s times mean actions), a Python loop of `game.play(game.random_action())` (one call
into the engine per choice and per action, each returning Python objects), and the fast
path `game.play_random()` (the whole game in Rust). The process and catan sim are pinned to
one CPU. Run it after `maturin develop --release` (it imports the sources beside it, which
need the compiled module built in place). Like catan sim, the Python side makes one Game and `restart`s it for each game.
Actions per second, not games per second: the games differ (catan sim's bots have
their own random streams), their lengths vary. Rounds are interleaved; medians reported.
"""

import argparse
import json
import os
import statistics
import subprocess
import time

import catan_engine as ce


def sim_rate(catan, variant, games, seed, cpu):
    cmd = ["taskset", "-c", str(cpu), catan, "sim", "--variant", variant, "--games", str(games),
           "--seed", str(seed), "--jobs", "1", "--json"]
    r = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    return r["games_per_second"] * r["mean_actions"]


def loop_rate(variant, games, seed):
    n, t = 0, time.perf_counter()
    g = ce.Game(variant, seed=seed)
    for k in range(games):
        g.restart(seed + k)  # as catan sim does: the loaded scripts reused
        while not g.over and n < 10**9:
            g.play(g.random_action())
            n += 1
    return n / (time.perf_counter() - t)


def fast_rate(variant, games, seed):
    n, t = 0, time.perf_counter()
    g = ce.Game(variant, seed=seed)
    for k in range(games):
        g.restart(seed + k)
        n += g.play_random()
    return n / (time.perf_counter() - t)


def threads_rate(variant, games, seed, threads):
    import threading

    counts = [0] * threads

    def work(t):
        for k in range(t, games, threads):
            g = ce.Game(variant, seed=seed + k)
            counts[t] += g.play_random()

    start = time.perf_counter()
    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    return sum(counts) / (time.perf_counter() - start)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="base")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cpu", type=int, default=0)
    p.add_argument("--threads", type=int, help="measure thread scaling instead (no pinning)")
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--catan", default=os.path.join(here, "..", "target", "release", "catan"))
    a = p.parse_args()
    if a.threads:
        one = statistics.median(threads_rate(a.variant, a.games, a.seed, 1) for _ in range(a.rounds))
        many = statistics.median(threads_rate(a.variant, a.games, a.seed, a.threads) for _ in range(a.rounds))
        print(f"1 thread: {one:.0f} actions/s, {a.threads} threads: {many:.0f} actions/s ({many / one:.2f}x)")
        return
    os.sched_setaffinity(0, {a.cpu})
    rates = {"catan sim --jobs 1": [], "python loop": [], "python play_random": []}
    for _ in range(a.rounds):
        rates["catan sim --jobs 1"].append(sim_rate(a.catan, a.variant, a.games, a.seed, a.cpu))
        rates["python loop"].append(loop_rate(a.variant, a.games, a.seed))
        rates["python play_random"].append(fast_rate(a.variant, a.games, a.seed))
    base = statistics.median(rates["catan sim --jobs 1"])
    for name, xs in rates.items():
        m = statistics.median(xs)
        print(f"{name:<22} {m:10.0f} actions/s  ({m / base:.2f}x catan sim)")


if __name__ == "__main__":
    main()
