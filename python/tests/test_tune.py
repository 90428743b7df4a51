"""``catan tune`` from Python: self-play weights for a stack, deterministic for a seed."""

import catan_engine as ce


def test_tune_learns_weights_and_writes_the_file(tmp_path):
    kw = dict(games=4, rounds=2, seed=3, from_scratch=True, without_evaluate=True)
    weights, made = ce.tune("base", jobs=2, **kw)
    again, _ = ce.tune("base", jobs=1, **kw)
    assert weights == again, "the number of workers changed the weights"
    assert weights["points"] > 0 and "evaluate" not in weights
    assert "4 games" in made
    out = tmp_path / "house.weights.toml"
    ce.tune("base", out=str(out), **kw)
    text = out.read_text()
    assert "[[tuned]]" in text and 'stack = "base"' in text


def test_tune_distils_a_teacher_and_refuses_an_unknown_one():
    weights, made = ce.tune("base", games=2, rounds=1, seed=4, without_evaluate=True, teacher="greedy", jobs=2)
    assert any(k.startswith("named.near.") for k in weights), weights
    assert "2 games" in made
    try:
        ce.tune("base", games=1, teacher="wizard")
    except ce.SetupError as e:
        assert "wizard" in str(e)
    else:
        raise AssertionError("an unknown teacher was taken")


def test_tune_stops_at_its_minutes():
    # A budget already spent: the first round is played, no match of the search by play.
    weights, made = ce.tune("base", games=4, rounds=2, seed=3, jobs=2, play_games=96, minutes=0.0)
    assert "4 games" not in made and "search by play" not in made, made
    assert weights
