"""Fair forks, cheap clones, cheap reads (features, cards, view) and sandbox edits."""

import json

import numpy as np
import pytest

import catan_engine as ce


def at_roll(seed, turn=3):
    """A base game past its set-up, with the seat to act about to roll."""
    g = ce.Game("base", seed=seed)
    while not (g.turn > turn and "roll" in g.legal_text()):
        g.play_random(1)
    return g


def roll(g):
    return [m["text"] for m in g.play("roll")]


def test_a_fork_never_shows_the_real_next_roll_where_a_clone_does():
    for seed in (1, 2, 3):
        g = at_roll(seed)
        clone = g.clone()
        forks = [roll(g.fork()) for _ in range(4)] + [roll(g.fork(seat=s)) for s in range(4)]
        cloned = roll(clone)
        real = roll(g)
        assert cloned == real
        # The sum of two dice repeats by chance (1 in 6 at most), never every time.
        assert sum(f == real for f in forks) <= 4, (real, forks)
        assert len({tuple(f) for f in forks}) > 1


def test_forks_without_a_seed_are_reproducible():
    a, b = at_roll(5), at_roll(5)
    assert [roll(a.fork()) for _ in range(3)] == [roll(b.fork()) for _ in range(3)]
    assert roll(a.fork(seed=7)) == roll(b.fork(seed=7))


def test_a_seats_fork_never_shows_another_seats_hidden_cards():
    g = ce.Game("base", seed=7)
    # Two other seats with different hands of two cards or more.
    while not (g.turn > 8 and len({str(g.cards(s)) for s in (1, 2)}) == 2
               and all(sum(g.cards(s).values()) >= 2 for s in (1, 2))):
        g.play_random(1)
    real = [g.cards(s) for s in range(4)]
    dealt_otherwise = 0
    for seed in range(12):
        f = g.fork(seat=0, seed=seed)
        assert f.is_fork and not g.is_fork
        dealt = [f.cards(s) for s in range(4)]
        assert dealt[0] == real[0]
        assert [sum(h.values()) for h in dealt] == [sum(h.values()) for h in real]
        dealt_otherwise += dealt[1:] != real[1:]
        assert [g.fork(seed=seed).cards(s) for s in range(4)] == real  # the referee's fork keeps hands
    assert dealt_otherwise >= 4


def test_nothing_done_on_a_fork_or_a_clone_reaches_the_game():
    g = at_roll(4)
    before, view = g.save(), g.view()
    f, c = g.fork(seat=1), g.clone()
    start = f.view()
    for _ in range(50):
        f.play_random(1)
        c.play_random(1)
        with pytest.raises(ce.InvalidAction):
            f.play("city A1")
    assert g.save() == before and g.view() == view
    assert len(c.log) == len(g.log) + 50
    # A fork cannot be saved (its dice are its own) nor undone past the fork.
    with pytest.raises(ce.SetupError, match="fork"):
        f.save()
    f.undo(50)
    assert f.view() == start
    with pytest.raises(ce.SetupError, match="fork"):
        f.undo(1)
    g.play("roll")  # the game goes on


def test_features_are_named_rows_per_seat_as_the_seat_knows_them():
    g = ce.Game("base", seed=7)
    g.play_random(300)
    names = g.feature_names()
    assert names[0] == "points" and "hand.total" in names and len(set(names)) == len(names)
    ref = g.features()
    assert isinstance(ref, np.ndarray) and ref.dtype == np.float64 and ref.shape == (4 * len(names),)
    rows = ref.reshape(4, -1)
    hand = {n: i for i, n in enumerate(names)}
    for s in range(4):
        assert rows[s, 0] == g.points(s)
        assert rows[s, hand["hand.total"]] == sum(g.cards(s).values())
        for kind, n in g.cards(s).items():
            assert rows[s, hand[f"hand.{kind}"]] == n
    mine = g.features(2).reshape(4, -1)
    assert (mine[0] == rows[2]).all()  # the seat's own row first, as the referee sees it
    for i in range(1, 4):
        other = (2 + i) % 4
        assert mine[i, 0] == g.points(other, hidden=False)
        assert mine[i, hand["hand.total"]] == rows[other, hand["hand.total"]]
        assert all(mine[i, hand[f"hand.{k}"]] == 0 for k in g.cards(other))
    points = ref[0]
    ref[0] = -1  # a writable array of its own
    assert g.features()[0] == points != -1


def test_view_is_its_json():
    g = ce.Game("base", seed=2, options={"board": "random"})
    for _ in range(4):
        for who in (None, 0, 3, "spectator"):
            v = g.view(who)
            assert v == json.loads(g.view_json(who))
            assert json.dumps(v, separators=(",", ":"), ensure_ascii=False) == g.view_json(who)  # the same keys in the same order
        g.play_random(150)
    v = g.view()
    v["board"]["hexes"][0]["corners"].append("X")  # lists of its own: the next view is whole
    assert g.view() == json.loads(g.view_json())


def test_sandbox_edits_only_on_a_sandbox_game():
    g = ce.Game("base", seed=1, sandbox=True)
    while "roll" not in g.legal_text():
        g.play_random(1)
    msgs = g.edit("dice 3 4")
    assert "3 and 4" in msgs[0]["text"]
    assert any("7" in m["text"] for m in g.play("roll"))
    g.edit("give red 2 ore")
    with pytest.raises(ce.SetupError, match="dice are 1 to 6"):
        g.edit("dice 9 9")
    assert ce.Game.load(g.save()).save() == g.save()  # edits are logged and replay
    plain = ce.Game("base", seed=1)
    before = plain.save()
    with pytest.raises(ce.SetupError, match="sandbox=True"):
        plain.edit("dice 3 4")
    with pytest.raises(ce.InvalidAction, match="Game.edit"):
        plain.play("dice 3 4")
    assert plain.save() == before
