"""Sweeps on a local Ray give catan sim's rows and totals."""

import json
import os
import subprocess

import pytest

import catan_engine as ce
from catan_engine import _native
from catan_engine.sweep import sweep

CATAN = os.environ.get("CATAN_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "catan"))


def test_shards_add_up_to_the_whole_run():
    whole = _native.sim_rows("base", None, 5, [], 0, 6)
    parts = [_native.sim_rows("base", None, 5, [], a, b) for a, b in [(4, 6), (0, 1), (1, 4)]]
    assert "".join(parts[1:] + parts[:1]) == whole
    text_a, js_a, _ = _native.sim_report("base", None, 5, [], [whole], 1, 1.0)
    text_b, js_b, _ = _native.sim_report("base", None, 5, [], parts, 3, 1.0)
    strip = lambda t: t.splitlines()[:-1]  # the last line is the time
    assert strip(text_a) == strip(text_b)


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_sweep_matches_catan_sim(local_ray, tmp_path):
    r = sweep("base", games=12, seed=21, batch=5, out=str(tmp_path / "rows.jsonl"))
    assert r.tasks == 3
    assert r.text.startswith("12 games of base with 4 players (seed 21)")
    rows = [json.loads(line) for line in r.rows_out.splitlines()]
    assert [row["game"] for row in rows] == list(range(12))
    if not os.path.exists(CATAN):
        pytest.skip(f"no catan binary at {CATAN} (set CATAN_BIN)")
    sim_rows = tmp_path / "sim.jsonl"
    out = subprocess.run([CATAN, "sim", "--variant", "base", "--games", "12", "--seed", "21", "--jobs", "1",
                          "--json", "--out", str(sim_rows)], capture_output=True, text=True, check=True)
    expected = json.loads(out.stdout)
    for key in ["games", "finished", "wins", "mean_turns", "mean_actions", "turns_ci95", "seat_rates"]:
        assert r.data[key] == expected[key], key
    assert [json.loads(x) for x in sim_rows.read_text().splitlines()] == rows


def test_ray_sweep_with_bots_and_errors(local_ray):
    r = sweep("base", games=4, seed=3, bots="greedy,random,random,random", batch=2)
    assert "per bot" in r.text and r.data["bots"]["greedy"]["seats"] == 1
    with pytest.raises(ce.SetupError):
        sweep("base", games=4, options={"victory_points": "many"})
    with pytest.raises(ce.SetupError, match="2 bots for 4 players"):
        sweep("base", games=4, bots="random,greedy")
