#!/usr/bin/env python3
"""Side-by-side throughput: catan-engine's `catan sim` against its peers, interleaved.

Absolute times on a shared machine are noise; ratios measured in one interleaved run are
not. Each round runs every engine once, in turn; the report gives medians and each
engine's games/s divided by catan-engine's on the same setting (random board with the
set-up phase, 4 random bots: what the peers play).

Usage (from the project root, after `cargo build --profile fastest`, the build for
benchmarks; `--bin target/release/catan` times what `cargo run --release` builds):
  bench/side_by_side.py [--rounds 5] [--games 200] [--bin target/fastest/catan]
                                  [--jobs N]   (also time `catan sim --jobs N`, if it exists)
The first run makes a Python venv with the peers in ~/.cache/catan-peers (PyPI:
catanatron 3.2.1; fastcatan 2.0.0 when a Python >= 3.12 is found). Prints one JSON line
last with the median ratios.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.expanduser("~/.cache/catan-peers")


def find_py312():
    cands = []
    pyenv = os.path.expanduser("~/.pyenv/versions")
    if os.path.isdir(pyenv):
        for v in sorted(os.listdir(pyenv)):
            if v.startswith(("3.12", "3.13")):
                cands.append(os.path.join(pyenv, v, "bin", "python3"))
    cands += [shutil.which(n) for n in ("python3.12", "python3.13")]
    for c in cands:
        if c and subprocess.run([c, "-c", "import sys; assert sys.version_info >= (3, 12)"],
                                capture_output=True).returncode == 0:
            return c
    return None


def venv():
    py = os.path.join(CACHE, "bin", "python")
    if not os.path.exists(py):
        base = find_py312() or sys.executable
        subprocess.run([base, "-m", "venv", CACHE], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "catanatron==3.2.1"], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "fastcatan==2.0.0"], check=False)
    return py


def run(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr[-2000:]}")
    out = p.stdout
    j = json.loads(out[out.index("{"):out.rindex("}") + 1])
    gps = j.get("games_per_s") or j.get("games_per_second")
    games = j.get("games") if isinstance(j.get("games"), int) else None
    if gps is None and games:
        gps = games / wall
    return dict(gps=gps, wall=wall, turns=j.get("mean_turns"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--bin", default="target/fastest/catan")
    ap.add_argument("--jobs", type=int, default=0)
    a = ap.parse_args()
    py = venv()
    has_fast = subprocess.run([py, "-c", "import fastcatan"], capture_output=True).returncode == 0
    sim = [a.bin, "sim", "--variant", "base", "--players", "4", "--games", str(a.games),
           "--seed", "1", "--json", "--option", "board=random", "--option", "starting_pieces=false"]
    engines = {"catan_engine": sim}
    if a.jobs:
        engines[f"catan_engine_jobs{a.jobs}"] = sim + ["--jobs", str(a.jobs)]
    penv = dict(os.environ, PYTHONHASHSEED="0")
    engines["catanatron"] = [py, os.path.join(HERE, "bench_catanatron.py"), "--games", str(max(20, a.games // 4))]
    if has_fast:
        engines["fastcatan"] = [py, os.path.join(HERE, "bench_fastcatan.py"), "--games", str(a.games * 4)]
    rows = {k: [] for k in engines}
    for r in range(a.rounds):
        for k, cmd in engines.items():
            d = run(cmd, penv if k in ("catanatron", "fastcatan") else None)
            rows[k].append(d)
            print(f"round {r + 1} {k:22s} {d['gps']:8.1f} games/s  {d['turns']} turns/game", flush=True)
    ours = [x["gps"] for x in rows["catan_engine"]]
    summary = {}
    for k in engines:
        ratios = [x["gps"] / o for x, o in zip(rows[k], ours)]
        summary[k] = dict(games_per_s=round(statistics.median(x["gps"] for x in rows[k]), 1),
                          ratio_to_catan_engine=round(statistics.median(ratios), 3))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
