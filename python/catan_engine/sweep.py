"""``catan sim`` sharded into Ray tasks: ``python -m catan_engine.sweep --variant base
--games 1000000 --address auto``.

Each task plays a batch of the run's games (game ``i`` seeded with the run's seed plus
``i``, its bots seated as in game ``i`` of ``catan sim``) with the engine's own
``sim::play_range``; the rows come back as JSON Lines and are added up by the engine's
``sim::report_from_rows``, so the rows and totals are those of ``catan sim`` with the same
flags and seed, whatever the number of tasks or machines. The report is ``catan sim``'s
text (``--json``: its JSON; ``--out FILE``: its per-game rows).

Without ``--address`` a local Ray is started; ``--address auto`` joins the cluster this
machine belongs to (``ray start --head`` on one machine, ``ray start --address HEAD:6379``
on the others, the wheel installed on each), ``--address ray://HOST:10001`` connects a
client to a remote one.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field

from . import MAX_ACTIONS, _native


@dataclass
class SweepReport:
    """A sweep's report: ``text`` as ``catan sim`` prints it, ``json`` as ``catan sim
    --json`` does, ``rows_out`` the ``--out`` file's text (if asked), and the figures."""

    text: str
    json: str
    rows_out: str = ""
    games: int = 0
    tasks: int = 0
    seconds: float = 0.0
    data: dict = field(default_factory=dict)

    @property
    def totals(self) -> dict:
        """What must match ``catan sim``: games, finished, wins per seat, mean turns and
        actions, games failed and cut off."""
        d = self.data
        return {
            "games": d["games"],
            "finished": d["finished"],
            "wins": d["wins"],
            "mean_turns": d["mean_turns"],
            "mean_actions": d["mean_actions"],
            "failed": len(d["failed"]),
            "cut_off": len(d["cut_off"]),
        }


def _shard(spec: dict, start: int, end: int) -> str:
    from catan_engine import _native as native

    return native.sim_rows(spec["variant"], spec["players"], spec["seed"], spec["options"], start, end,
                           bots=spec["bots"], seats=spec["seats"], max_actions=spec["max_actions"],
                           playouts=spec["playouts"], saves=spec["saves"])


def sweep(variant: str = "base", games: int = 100, seed: int | None = None, players: int | None = None,
          options=(), bots: str | None = None, seats: str = "rotate", max_actions: int = MAX_ACTIONS,
          playouts: int | None = None, batch: int | None = None, address: str | None = None,
          num_cpus: int | None = None, out: str | None = None, progress=None) -> SweepReport:
    """Plays ``games`` games of ``catan sim``'s run on Ray and returns its report.

    ``options``: (key, value) pairs or a dict. ``batch``: games per task (default: about
    eight tasks per CPU of the cluster, at most 2000 games each). ``address``: as
    ``ray.init`` takes it (None: a local Ray unless one is running; "auto": the cluster
    of this machine). ``num_cpus`` caps a local Ray's CPUs.
    """
    import json

    import ray

    if seed is None:
        seed = int(time.time())
    options = list(options.items()) if isinstance(options, dict) else [tuple(o) for o in options]
    options = [(str(k), str(v).lower() if isinstance(v, bool) else str(v)) for k, v in options]
    # Fail before starting tasks if the set-up is wrong (variant, options, bots).
    _native.sim_report(variant, players, seed, options, [], 1, 0.0, bots=bots, seats=seats,
                       max_actions=max_actions)
    if not ray.is_initialized():
        kwargs = {"address": address, "log_to_driver": False}
        if num_cpus is not None and address is None:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    if batch is None:
        batch = max(1, min(2000, math.ceil(games / (8 * cpus))))
    spec = {"variant": variant, "players": players, "seed": seed, "options": options, "bots": bots,
            "seats": seats, "max_actions": max_actions, "playouts": playouts,
            # Rows written as JSON Lines carry each game's save, as `catan sim --out` writes them.
            "saves": bool(out) and str(out).endswith((".jsonl", ".json"))}
    remote = ray.remote(num_cpus=1)(_shard)
    spec_ref = ray.put(spec)
    start = time.perf_counter()
    ranges = [(a, min(a + batch, games)) for a in range(0, games, batch)]
    pending = {remote.remote(spec_ref, a, b): b - a for a, b in ranges}
    done_games, chunks = 0, []
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            chunks.append(ray.get(ref))
            done_games += pending.pop(ref)
            if progress:
                progress(done_games, games)
    seconds = time.perf_counter() - start
    jobs = min(len(ranges), cpus) if ranges else 1
    text, js, rows_out = _native.sim_report(variant, players, seed, options, chunks, jobs, seconds,
                                            bots=bots, seats=seats, max_actions=max_actions, out=out)
    return SweepReport(text=text, json=js, rows_out=rows_out, games=games, tasks=len(ranges),
                       seconds=seconds, data=json.loads(js))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m catan_engine.sweep",
        description="catan sim sharded into Ray tasks: the same rows and totals as catan sim with the same seed.")
    p.add_argument("--variant", default="base", help="variant stack, e.g. base, base+helpers (default: base)")
    p.add_argument("--players", type=int, help="number of players (default: the variant's)")
    p.add_argument("--seed", type=int, help="the run's seed (default: from the clock, printed)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="an option (repeatable)")
    p.add_argument("--options-file", help="a TOML file of options; --option wins over it")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--bots", help='one bot per seat, e.g. "mcts,random,random,random" (default: random)')
    p.add_argument("--seats", default="rotate", help="rotate, shuffle or fixed (default rotate)")
    p.add_argument("--max-actions", type=int, default=MAX_ACTIONS, help="cut a game off after this many actions")
    p.add_argument("--playouts", type=int, help="search bots: playouts per decision")
    p.add_argument("--batch", type=int, help="games per Ray task (default: about 8 tasks per CPU, at most 2000)")
    p.add_argument("--address", help='Ray address: "auto" for this machine\'s cluster, ray://HOST:10001 (default: a local Ray)')
    p.add_argument("--num-cpus", type=int, help="CPUs of a local Ray (default: all)")
    p.add_argument("--json", action="store_true", help="print the report as JSON, as catan sim --json")
    p.add_argument("--out", metavar="FILE", help="write one row per game: CSV, or JSON Lines if FILE ends in .jsonl/.json")
    a = p.parse_args(argv)
    try:
        options = _native.parse_options(a.options_file, a.option)
    except _native.CatanError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    def show(done, total):
        if sys.stderr.isatty():
            print(f"\r{done}/{total} games", end="", file=sys.stderr, flush=True)

    try:
        r = sweep(a.variant, a.games, a.seed, a.players, options, a.bots, a.seats, a.max_actions, a.playouts,
                  a.batch, a.address, a.num_cpus, a.out, progress=show)
    except _native.CatanError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(r.json if a.json else r.text, end="" if not a.json else "\n")
    if a.out:
        with open(a.out, "w") as f:
            f.write(r.rows_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
