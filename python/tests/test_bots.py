"""The engine's bots from Python, and threads running games at once."""

import threading

import pytest

import catan_engine as ce


def test_bots_choose_legal_actions():
    g = ce.Game("base", seed=4)
    g.play_random(30)
    for kind in ["random", "greedy", "planner", "mcts"]:
        bot = ce.Bot(kind, seed=1, playouts=20)
        a = bot.choose(g)
        assert a in g.legal(), kind
        d = bot.decide(g)
        assert d is not None and isinstance(d[1], str)
    with pytest.raises(ce.SetupError, match="not a bot"):
        ce.Bot("genius")


def test_bots_play_a_game_in_rust():
    g = ce.Game("base", seed=9)
    bots = [ce.Bot("greedy", seed=1), ce.Bot("random", seed=2), ce.Bot("random", seed=3), ce.Bot("random", seed=4)]
    n = g.play_bots(bots)
    assert g.over and n == len(g.log)


def test_the_simulation_bot_plays_a_whole_game():
    g = ce.Game("base", seed=5)
    n = g.play_bots([ce.Bot("planner", seed=s) for s in range(4)])
    assert g.over and n == len(g.log)


def test_a_bot_plays_with_weights_of_its_own(tmp_path):
    # As `catan sim --bots`: "planner@FILE" plays with that file's weights, here victory
    # points alone, so it plays another game than the hand-written evaluation ("@none").
    path = tmp_path / "points.weights.toml"
    path.write_text('[[tuned]]\nstack = "base"\nhash = "0"\nplayers = 4\nmade = "by hand"\n\n'
                    '[tuned.weights]\npoints = 1.0\n')
    logs = {}
    for spec in [f"planner@{path}", "planner@none"]:
        g = ce.Game("base", seed=5)
        bots = [ce.Bot(spec, seed=s) for s in range(4)]
        assert bots[0].kind == spec
        g.play_bots(bots)
        assert g.over
        logs[spec] = g.log
    assert logs[f"planner@{path}"] != logs["planner@none"]
    with pytest.raises(ce.SetupError, match="no/such/file"):
        ce.Game("base", seed=5).play_bots([ce.Bot("planner@/no/such/file.toml")])


def test_play_bots_stops_at_a_seat():
    g = ce.Game("base", seed=9)
    bots = [None, ce.Bot("random", seed=2), ce.Bot("random", seed=3), ce.Bot("random", seed=4)]
    g.play_random(1)
    g.play_bots(bots)
    assert g.to_act == 0 or g.over


def test_threads_play_games_at_once():
    # Each thread makes and plays its own games (a Game stays on its thread); the engine
    # releases the GIL, so this is parallel. Sanity only: results, no timings.
    results = {}

    def work(k):
        g = ce.Game("base", seed=100 + k)
        g.play_random()
        results[k] = (g.winner, len(g.log))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for k in range(4):
        g = ce.Game("base", seed=100 + k)
        g.play_random()
        assert results[k] == (g.winner, len(g.log))


def test_a_game_refuses_other_threads():
    g = ce.Game("base", seed=1)
    errors = []

    def touch():
        try:
            g.legal()
        except BaseException as e:  # pyo3 raises a RuntimeError-like panic exception
            errors.append(e)

    t = threading.Thread(target=touch)
    t.start()
    t.join()
    assert errors
