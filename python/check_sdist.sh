#!/usr/bin/env bash
# The source distribution builds on its own: `maturin sdist` (which packs the engine crate
# this one depends on, `path = ".."`, beside it), then `pip install` of that archive in a
# fresh venv, away from this checkout, and a game played with the installed package.
# Slow (a release build of everything from the archive: minutes); not part of test.sh.
# CARGO_TARGET_DIR, if set, is reused by the build (faster, less fresh).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd .. && pwd)
venv=${CATAN_PY_VENV:-$root/target/pyvenv}
"$venv/bin/pip" install -q --disable-pip-version-check maturin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$venv/bin/maturin" sdist --out "$out"
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q --disable-pip-version-check "$out"/catan_engine-*.tar.gz
cd "$out"
"$out/venv/bin/python" - <<'PY'
import catan_engine as ce

g = ce.Game("base", seed=1)
g.play_random()
f = g.fork(seat=0)
print(f"sdist build works: {g!r} won by seat {g.winner}; features {g.features().shape}")
PY
