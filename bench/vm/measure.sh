#!/usr/bin/env bash
# Instructions (valgrind --tool=callgrind: repeatable whatever the machine's load) of the same
# rule-shaped Lua on each VM mlua offers, metered as an engine of untrusted scripts must be,
# then the hostile scripts of hostile.txt with a 15 s cap. Usage: bench/vm/measure.sh
set -euo pipefail
cd "$(dirname "$0")"
T=${CARGO_TARGET_DIR:-../../target/vm-bench}
VMS="lua54 lua54-patched luau luau-jit"
for f in $VMS; do CARGO_TARGET_DIR=$T/$f cargo build -q --release --features "$f"; done
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
printf '%-14s %16s %16s %14s %14s\n' VM "rules (metered)" "rules (no meter)" "calls (each)" "tables (each)"
for f in $VMS; do
  B=$T/$f/release/vm-bench
  base=$(count "$B" readonly)
  m=$(count "$B" rules 2000); u=$(count "$B" rules 2000 --no-meter)
  c=$(count "$B" calls 20000); t=$(count "$B" tables 20000)
  # rules: 5 runs of 2000 turns; calls/tables: 5 runs of 20000, so per call /100000.
  printf '%-14s %16d %16d %14d %14d\n' "$f" $(( (m - base) / 10000 )) $(( (u - base) / 10000 )) \
    $(( (c - base) / 100000 )) $(( (t - base) / 100000 ))
done
echo
while IFS= read -r line; do
  for f in $VMS; do
    out=$(timeout 15 "$T/$f/release/vm-bench" hostile "$line" 2>&1 | cut -f4,5) || out="not stopped in 15 s"
    printf '%-14s %s\n' "$f" "${out:-not stopped in 15 s}"
  done
  echo "   ^ $line"
done < hostile.txt
