#!/usr/bin/env bash
# Every test: the Rust suite (`cargo test`), then the Python package's (python/test.sh:
# it makes a venv under target/, installs maturin, pytest, pettingzoo, gymnasium, numpy
# and ray, builds the wheel and runs pytest), then the browser tests (tests/browser/run.sh:
# the release `catan web` in headless Chromium, docs/web.md; skipped loudly without
# Chromium, except under CI). Exits non-zero if any fails.
set -uo pipefail
cd "$(dirname "$0")"
# No incremental caches: a fresh clone builds once, and the caches were a quarter of
# target/ after this script (1889 MiB with them, 1407 MiB without, 2026-11-26) for the
# same build time. `cargo test` alone keeps them, for the edit loop.
export CARGO_INCREMENTAL=0
cargo test
rust=$?
python/test.sh
python=$?
tests/browser/run.sh
browser=$?
if [ "$rust" -ne 0 ] || [ "$python" -ne 0 ] || [ "$browser" -ne 0 ]; then
  echo "failed: cargo test (status $rust), python/test.sh (status $python), tests/browser/run.sh (status $browser)" >&2
  exit 1
fi
