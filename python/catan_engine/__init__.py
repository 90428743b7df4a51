"""catan-engine from Python: the Rust rules engine (every edition a Lua script), its bots,
a PettingZoo AEC environment and a Gymnasium wrapper (``catan_engine.env``), and sweeps of
``catan sim`` on Ray (``python -m catan_engine.sweep``). See docs/python.md.

Seats are 0-based. A ``Game`` (and a ``Bot``) belongs to the thread that made it; the
engine releases the GIL while it works, so games on different threads run in parallel.
"""

from ._native import (
    MAX_ACTIONS,
    Action,
    ActionIndex,
    Bot,
    CatanError,
    Game,
    InvalidAction,
    RuleError,
    SetupError,
    Snapshot,
    known_variants,
    tune,
)

__all__ = [
    "MAX_ACTIONS",
    "Action",
    "ActionIndex",
    "Bot",
    "CatanError",
    "Game",
    "InvalidAction",
    "RuleError",
    "SetupError",
    "Snapshot",
    "known_variants",
    "tune",
]
