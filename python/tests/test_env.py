"""The action index, the PettingZoo AEC environment and the Gymnasium wrapper."""

import numpy as np
import pytest

import catan_engine as ce
from catan_engine.env import CatanGymEnv, aec_env


def test_index_is_stable_and_round_trips():
    a = ce.ActionIndex(ce.Game("base", seed=1))
    b = ce.ActionIndex(ce.Game("base", seed=2, options={"board": "random"}))
    assert len(a) == len(b) and a.blocks() == b.blocks()
    g = ce.Game("base", seed=3)
    for _ in range(200):
        if g.over:
            break
        for act in g.legal():
            i = a.index(g, act)
            if i is not None:
                assert a.action(g, i) == act
        g.play_random(1)
    with pytest.raises(ce.SetupError):
        a.mask(ce.Game("rivals", players=2, seed=1))


def test_masks_cover_the_legal_actions():
    g = ce.Game("base", seed=5)
    idx = ce.ActionIndex(g)
    rng = np.random.default_rng(1)
    while not g.over and len(g.log) < 400:
        mask = np.frombuffer(idx.mask(g), dtype=np.int8)
        legal = g.legal()
        inside = {idx.index(g, x) for x in legal} - {None}
        assert set(np.flatnonzero(mask[:-1])) == inside
        assert mask[-1] == (len(inside) < len(legal))
        idx.play(g, int(rng.choice(np.flatnonzero(mask))), draw=rng.random())


def test_aec_api():
    from pettingzoo.test import api_test

    api_test(aec_env(variant="base"), num_cycles=300)


def test_aec_plays_rivals_to_the_end():
    env = aec_env(variant="rivals", players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    final = {}
    for agent in env.agent_iter(max_iter=20000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game.over
    assert sorted(final.values()) == [-1, 1]


def test_gym_env_check_and_play():
    from gymnasium.utils.env_checker import check_env

    env = CatanGymEnv(variant="base", seat=1, opponents="random")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape
    done, steps, rng = False, 0, np.random.default_rng(0)
    while not done:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(a)
        done = term or trunc
        steps += 1
    assert reward in (-1.0, 1.0) and env.game.over
    strict = CatanGymEnv(variant="base", illegal="raise")
    _, info = strict.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ce.InvalidAction):
        strict.step(bad)


def test_observations_are_the_feature_vector():
    env = CatanGymEnv(variant="base", seat=1)
    obs, info = env.reset(seed=4)
    g = env.game
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape == (4 * len(g.feature_names()),)
    assert np.array_equal(obs, g.features(1).astype(np.float32))
    assert env.observation_space.contains(obs)
    wide = CatanGymEnv(variant="base", seat=1, board=True)
    more, _ = wide.reset(seed=4)
    assert more.shape == wide.observation_space.shape and np.array_equal(more[: obs.size], obs)
    aec = aec_env(variant="base")
    aec.reset(seed=2)
    first = aec.observe("player_0")["observation"]
    assert np.array_equal(first, aec.unwrapped.game.features(0).astype(np.float32))
