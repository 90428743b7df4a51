#!/usr/bin/env bash
# The browser tests (docs/web.md, "Browser tests"): Debian's Chromium (/usr/bin/chromium,
# package `chromium`) driven by playwright-core (pinned in package-lock.json; never a
# browser download) against the release `catan web`. Each test starts its own server on a
# free port of 127.0.0.1, reads the printed links, and stops it. Screenshots go to
# target/browser-artifacts/. `./test.sh` runs this after `cargo test`.
#
# Without Chromium or Node.js the tests FAIL under CI (CI=true) and are skipped, loudly,
# elsewhere. `.ci/run` installs both.
set -uo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

missing() {
  if [ "${CI:-}" = true ]; then
    echo "browser tests: FAILED: $1 (.ci/run installs it; see docs/web.md)" >&2
    exit 1
  fi
  echo "##################################################################" >&2
  echo "## browser tests SKIPPED: $1" >&2
  echo "## (apt-get install chromium nodejs npm; they fail in CI without)" >&2
  echo "##################################################################" >&2
  exit 0
}

chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in /usr/bin/chromium "$(command -v chromium 2>/dev/null)" "$(command -v chromium-browser 2>/dev/null)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then chromium=$c; break; fi
  done
fi
[ -n "$chromium" ] || missing "no Chromium found (/usr/bin/chromium, or set CHROMIUM)"
command -v node >/dev/null 2>&1 || missing "no Node.js (node)"

# playwright-core as locked; installed again when the lock file is newer than the install.
if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || { echo "browser tests: npm ci failed" >&2; exit 1; }
fi

(cd "$root" && cargo build --release --bin catan) || { echo "browser tests: cargo build --release failed" >&2; exit 1; }

export CATAN_BIN="$root/target/release/catan" CHROMIUM="$chromium" ARTIFACTS="$root/target/browser-artifacts"
mkdir -p "$ARTIFACTS"
echo "browser tests: $("$chromium" --version 2>/dev/null | head -1), playwright-core $(node -p "require('./node_modules/playwright-core/package.json').version"), artifacts in target/browser-artifacts/"
exec node --test --test-concurrency=1 --test-reporter=spec "$@" tests/
