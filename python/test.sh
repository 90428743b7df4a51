#!/usr/bin/env bash
# The Python package's tests: a venv (target/pyvenv, reused; CATAN_PY_VENV to choose),
# the wheel built once by maturin in release into the root's target/, the catan binary
# the sweep test compares against, then pytest on the installed wheel.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd .. && pwd)
venv=${CATAN_PY_VENV:-$root/target/pyvenv}
if ! command -v python3 >/dev/null 2>&1; then
  echo "python3 is missing: the Python tests need Python 3.9+ with its venv module" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check maturin pytest pettingzoo gymnasium numpy ray
export CARGO_TARGET_DIR="$root/target"
rm -f "$root"/target/wheels/catan_engine-*.whl
"$venv/bin/maturin" build --release --quiet --out "$root/target/wheels"
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps "$root"/target/wheels/catan_engine-*.whl
cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin catan
export CATAN_BIN="$root/target/release/catan"
# The pytest script, not `python -m pytest`, run from outside python/: the tests, and the
# Ray workers the sweep tests start (which put the driver's working folder first on their
# path), must import the installed wheel, not the sources here (which lack the compiled
# module).
tests=$(pwd)/tests
cd "$root/target"
"$venv/bin/pytest" -p no:cacheprovider -c "$root/python/pyproject.toml" --rootdir "$root/python" "$tests" "$@"
