"""Reinforcement-learning environments over any variant stack.

``CatanAEC``: a PettingZoo AEC environment, one agent per seat (``player_0``, ...).
``CatanGymEnv``: a Gymnasium environment for one learning seat, the others played by the
engine's bots.

Actions are indices into the variant's stable action index (``catan_engine.ActionIndex``,
documented in docs/python.md): every declared action times every value of its arguments,
plus a last entry, "other", for a legal action outside the index (drawn at random).
Observations are a float32 vector of what the seat may see: the generic features the
engine's bots evaluate and tune on (``Game.features(seat)``: one row of
``Game.feature_names()`` per seat, the observing seat's row first), followed, with
``board=True``, by the board's one-hot encoding (``ActionIndex.observe``); and the
legal-action mask. The raw view (``Game.view(seat)``) is ``env.view(agent)``, or in
``infos`` with ``raw_view=True``.
"""

from __future__ import annotations

import numpy as np

from . import MAX_ACTIONS, ActionIndex, Bot, Game

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover
    raise ImportError("catan_engine.env needs gymnasium: pip install gymnasium pettingzoo") from e


def _spaces(kind):
    # The generic features are counts, points, pips and lengths (none negative); the
    # board's encoding counts cards (at most 65535 a kind) and flags in {-1, 0, 1}.
    n = kind.observation_size
    obs = spaces.Box(low=-1.0, high=65535.0, shape=(n,), dtype=np.float32)
    mask = spaces.Box(low=0, high=1, shape=(len(kind.index),), dtype=np.int8)
    return obs, mask, spaces.Discrete(len(kind.index))


class _Kind:
    """The game set-up an environment plays, its action index and its observations."""

    def __init__(self, variant, players, options, cards_cap, board=False):
        self.variant, self.options = variant, dict(options or {})
        probe = Game(variant, players=players, seed=0, options=self.options)
        self.players = probe.players
        self.index = ActionIndex(probe, cards_cap=cards_cap)
        self.board = board
        self.feature_names = probe.feature_names()
        self.observation_size = self.players * len(self.feature_names)
        if board:
            self.observation_size += self.index.observation_size

    def new_game(self, seed: int) -> Game:
        return Game(self.variant, players=self.players, seed=int(seed), options=self.options)

    def observe(self, game: Game, seat: int) -> np.ndarray:
        features = game.features(seat).astype(np.float32)
        if not self.board:
            return features
        return np.concatenate([features, np.frombuffer(self.index.observe(game, seat), dtype=np.float32)])

    def mask(self, game: Game, seat: int) -> np.ndarray:
        if game.over or game.to_act != seat:
            return np.zeros(len(self.index), dtype=np.int8)
        return np.frombuffer(self.index.mask(game, seat), dtype=np.int8).copy()


def _import_aec():
    try:
        from pettingzoo import AECEnv
    except ImportError as e:  # pragma: no cover
        raise ImportError("CatanAEC needs pettingzoo: pip install pettingzoo") from e
    return AECEnv


def _make_aec_class():
    AECEnv = _import_aec()

    class CatanAEC(AECEnv):
        """A PettingZoo AEC environment of a variant stack: one agent per seat.

        ``variant``, ``players``, ``options``: the game, as for ``Game``. ``board``: the
        board's one-hot encoding after the features in each observation. Rewards: +1 to
        the winner and -1 to the others when the game is won; a game still running after
        ``max_actions`` actions is truncated with rewards 0. Each observation is a dict of
        ``observation`` (float32 vector) and ``action_mask`` (int8, only the seat to act
        has legal actions).
        """

        metadata = {"render_modes": ["ansi", "human"], "name": "catan_v0", "is_parallelizable": False}

        def __init__(self, variant="base", players=None, options=None, max_actions=MAX_ACTIONS,
                     cards_cap=4, raw_view=False, render_mode=None, board=False):
            super().__init__()
            self._kind = _Kind(variant, players, options, cards_cap, board)
            self.index = self._kind.index
            self.max_actions = max_actions
            self.raw_view = raw_view
            self.render_mode = render_mode
            self.possible_agents = [f"player_{i}" for i in range(self._kind.players)]
            obs, mask, act = _spaces(self._kind)
            self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask})
                                       for a in self.possible_agents}
            self.action_spaces = {a: act for a in self.possible_agents}
            self.game = None
            self._np_random = None

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def _seat(self, agent) -> int:
            return self.possible_agents.index(agent)

        def _info(self, agent):
            return {"view": self.game.view(self._seat(agent))} if self.raw_view else {}

        def reset(self, seed=None, options=None):
            if seed is not None or self._np_random is None:
                self._np_random = np.random.default_rng(seed)
            game_seed = seed if seed is not None else int(self._np_random.integers(0, 2**63))
            self.game = self._kind.new_game(game_seed)
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: self._info(a) for a in self.agents}
            self.actions_played = 0
            self.agent_selection = self.possible_agents[self.game.to_act]

        def observe(self, agent):
            seat = self._seat(agent)
            return {"observation": self._kind.observe(self.game, seat),
                    "action_mask": self._kind.mask(self.game, seat)}

        def view(self, agent):
            """The raw view of ``agent``'s seat, as ``Game.view`` gives it."""
            return self.game.view(self._seat(agent))

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0
            self.rewards = {a: 0 for a in self.agents}
            self.index.play(self.game, int(action), self._seat(agent), float(self._np_random.random()))
            self.actions_played += 1
            if self.game.over:
                w = self.game.winner
                self.rewards = {a: (1 if self._seat(a) == w else -1) for a in self.agents}
                self.terminations = {a: True for a in self.agents}
            elif self.actions_played >= self.max_actions:
                self.truncations = {a: True for a in self.agents}
            self.infos = {a: self._info(a) for a in self.agents}
            if not self.game.over:
                self.agent_selection = self.possible_agents[self.game.to_act]
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def render(self):
            if self.render_mode is None:
                gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
                return None
            last = self.game.log[-1][1] if self.game.log else "(start)"
            text = f"turn {self.game.turn}, phase {self.game.phase}, last: {last}, to act: {self.game.to_act}"
            if self.render_mode == "human":
                print(text)
                return None
            return text

        def close(self):
            self.game = None

    return CatanAEC


def __getattr__(name):
    # CatanAEC is built on first use, so that the Gymnasium wrapper needs no pettingzoo.
    if name == "CatanAEC":
        cls = _make_aec_class()
        globals()["CatanAEC"] = cls
        return cls
    raise AttributeError(name)


def aec_env(**kwargs):
    """A ``CatanAEC`` wrapped in PettingZoo's order-enforcing checks."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(__getattr__("CatanAEC")(**kwargs))


class CatanGymEnv(gymnasium.Env):
    """One learning seat against the engine's bots, as a Gymnasium environment.

    ``seat``: the learner's seat (0-based). ``opponents``: a bot kind ("random", "greedy",
    "mcts") for every other seat, or a list of kinds, one per other seat in seat order;
    ``playouts`` bounds the search bots. Reward: +1 when the learner wins, -1 when another
    seat does, else 0; ``max_actions`` (all seats' actions) truncates. ``illegal``: what an
    action outside the mask does: "random" plays a random legal action instead (``info
    ["illegal"]`` says so), "raise" raises ``InvalidAction``. The mask is in ``info
    ["action_mask"]`` and ``action_masks()`` (as sb3-contrib's MaskablePPO asks).
    ``board``: the board's one-hot encoding after the features in each observation.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant="base", players=None, options=None, seat=0, opponents="random",
                 playouts=None, max_actions=MAX_ACTIONS, cards_cap=4, illegal="random", render_mode=None,
                 board=False):
        super().__init__()
        if illegal not in ("random", "raise"):
            raise ValueError(f"illegal is 'random' or 'raise', not {illegal!r}")
        self._kind = _Kind(variant, players, options, cards_cap, board)
        self.index = self._kind.index
        self.players = self._kind.players
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat}: seats are 0 to {self.players - 1}")
        self.seat = seat
        others = self.players - 1
        self.opponents = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(self.opponents) != others:
            raise ValueError(f"opponents names {len(self.opponents)} bots for {others} other seats")
        for kind in self.opponents:
            Bot(kind)  # fails early on an unknown kind
        self.playouts = playouts
        self.max_actions = max_actions
        self.illegal = illegal
        self.render_mode = render_mode
        obs, _, act = _spaces(self._kind)
        self.observation_space = obs
        self.action_space = act
        self.game = None

    def _bots(self, seed):
        kinds = iter(self.opponents)
        return [None if s == self.seat else Bot(next(kinds), seed=(seed * 31 + s) % 2**64, playouts=self.playouts)
                for s in range(self.players)]

    def _advance(self):
        left = self.max_actions - len(self.game.log)
        if left > 0:
            self.game.play_bots(self._bots_now, stop_at=self.seat, max_actions=left)

    def _obs_info(self, illegal=False):
        mask = self._kind.mask(self.game, self.seat)
        info = {"action_mask": mask, "illegal": illegal}
        return self._kind.observe(self.game, self.seat), info

    def action_masks(self):
        return self._kind.mask(self.game, self.seat).astype(bool)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.game = self._kind.new_game(game_seed)
        self._bots_now = self._bots(game_seed)
        self._advance()
        return self._obs_info()

    def step(self, action):
        action = int(action)
        mask = self._kind.mask(self.game, self.seat)
        illegal = not (0 <= action < len(mask) and mask[action])
        if illegal:
            if self.illegal == "raise":
                from . import InvalidAction

                raise InvalidAction(f"action {action} is not legal now (see info['action_mask'])")
            legal = np.flatnonzero(mask)
            action = int(legal[self.np_random.integers(len(legal))])
        self.index.play(self.game, action, self.seat, float(self.np_random.random()))
        self._advance()
        reward, terminated = 0.0, self.game.over
        if terminated:
            reward = 1.0 if self.game.winner == self.seat else -1.0
        truncated = not terminated and len(self.game.log) >= self.max_actions
        obs, info = self._obs_info(illegal)
        return obs, reward, terminated, truncated, info

    def render(self):
        if self.render_mode != "ansi":
            return None
        return f"turn {self.game.turn}, phase {self.game.phase}, points {[self.game.points(s) for s in range(self.players)]}"
