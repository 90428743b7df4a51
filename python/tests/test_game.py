"""The Game API from Python: legal actions, play, views, clone, save/load/undo, errors."""

import copy
import pickle

import pytest

import catan_engine as ce


def test_legal_and_play_by_text_object_and_dict():
    g = ce.Game("base", seed=3)
    assert g.players == 4 and g.to_act == 0 and g.winner is None and not g.over
    legal = g.legal()
    assert legal and all(isinstance(a, ce.Action) for a in legal)
    assert [a.text for a in legal] == g.legal_text()
    first = legal[0]
    assert first.to_dict() == {"name": first.name, "args": first.args}
    msgs = g.play(first)
    assert isinstance(msgs, list) and all("text" in m for m in msgs)
    assert g.log[-1] == (0, first.text)
    a = g.legal()[0]
    g.play(a.text)
    b = g.legal()[0]
    g.play(b.to_dict())
    assert [c for _, c in g.log] == [first.text, a.text, b.text]


def test_errors_are_python_exceptions_and_the_game_loses_nothing():
    g = ce.Game("base", seed=3)
    before = g.save()
    with pytest.raises(ce.InvalidAction, match="unknown command"):
        g.play("fly to the moon")
    with pytest.raises(ce.InvalidAction):
        g.play("settlement 1")  # not legal before the roll
    with pytest.raises(ce.CatanError):
        g.play({"name": "road"})
    with pytest.raises(ce.SetupError, match="no seat"):
        g.legal(seat=9)
    assert g.save() == before
    with pytest.raises(ce.SetupError):
        ce.Game("no_such_variant")
    with pytest.raises(ce.SetupError):
        ce.Game("base", players=9)
    with pytest.raises(ce.SetupError):
        ce.Game("base", options={"victory_points": "many"})
    with pytest.raises(ce.SetupError):
        ce.Game.load("not json")
    assert issubclass(ce.InvalidAction, ce.CatanError) and issubclass(ce.CatanError, Exception)


def test_views_hide_what_a_seat_may_not_see():
    g = ce.Game("base", seed=5)
    g.play_random(40)
    ref = g.view()
    mine = g.view(0)
    other = g.view(1)
    assert mine["observer"] == ref["players"][0]["color"]
    assert "count" not in mine["players"][0]["zones"]["hand"]  # its own cards, by kind
    assert set(other["players"][0]["zones"]["hand"]) == {"count"}
    assert g.view("spectator")["observer"] == "spectator"
    assert isinstance(g.view_json(0), str)
    with pytest.raises(ce.SetupError):
        g.view("nobody")


def test_same_seed_same_game():
    def run(seed):
        g = ce.Game("base", seed=seed)
        g.play_random()
        return g.save(), g.winner

    assert run(7) == run(7)
    assert run(7)[0] != run(8)[0]


def test_clone_save_load_undo_snapshot_pickle():
    g = ce.Game("base", seed=11, options={"board": "random"})
    g.play_random(60)
    c = g.clone()
    assert c.save() == g.save() and c.view() == g.view()
    c.play_random(10)
    assert len(c.log) == len(g.log) + 10
    loaded = ce.Game.load(g.save())
    assert loaded.save() == g.save()
    snap = g.snapshot()
    g.play_random(5)
    g.restore(snap)
    assert g.save() == loaded.save()
    g.undo(3)
    assert len(g.log) == 57
    assert pickle.loads(pickle.dumps(loaded)).save() == loaded.save()
    assert copy.deepcopy(loaded).save() == loaded.save()
    with pytest.raises(ce.SetupError):
        g.undo(1000)


def test_every_variant_plays_to_the_end():
    for variant, players in [("base", 4), ("family", 4), ("base+helpers", 4), ("rivals", 2)]:
        g = ce.Game(variant, players=players, seed=2)
        g.play_random()
        assert g.over, variant
        assert g.points(g.winner) >= 1


def test_restart_gives_the_game_a_new_game_of_that_seed_gives():
    g = ce.Game("base", seed=1)
    g.play_random(50)
    g.restart(6)
    g.play_random()
    fresh = ce.Game("base", seed=6)
    fresh.play_random()
    assert g.save() == fresh.save()


def test_random_action_and_syntaxes():
    g = ce.Game("base", seed=1)
    a = g.random_action()
    assert a in g.legal()
    assert any(s["syntax"] == "road <path>" for s in g.syntaxes())
    assert g.action_text(a) == a.text
    assert len(g.evaluate()) == 4


def test_seats_by_number_or_colour_and_errors_worded_for_python():
    g = ce.Game("base", seed=3)
    assert g.legal_text(seat="red") == g.legal_text(seat=0)
    assert g.points("blue") == g.points(1)
    assert g.view("blue")["observer"] == "blue"
    bot = ce.Bot("random", seed=1)
    assert bot.choose(g, "red") is not None
    with pytest.raises(ce.SetupError, match="'purple' is not a seat"):
        g.legal(seat="purple")
    # Python's words, not the REPL's (`help`, `legal`).
    with pytest.raises(ce.InvalidAction, match=r"Game\.legal_text\(\)") as e:
        g.play("fly")
    assert "help" not in str(e.value)
