#!/bin/sh
# Same games, same logs: plays a fixed set of seeded random-bot games of every edition with
# the binary BIN and writes their rows (with each game's save) and every game's log to OUT.
# An engine change that should change no rule is checked by running this with the binary
# before and after it and comparing the two folders: `diff -r OUT1 OUT2` must print nothing.
#
#   bench/same_games.sh target/release/catan /tmp/before   # on the old build
#   bench/same_games.sh target/release/catan /tmp/after    # on the new one
#   diff -r /tmp/before /tmp/after && echo same games
#
# Run it from the repository's root (the binary reads ./variants first). About a minute.
set -eu
BIN=$(realpath "$1")
mkdir -p "$2"
OUT=$(realpath "$2")
# Games are loaded from a scratch folder by a relative name, so that a log's header (which
# names the file) is the same wherever OUT is; the variants are the repository's.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ln -s "$(pwd)/variants" "$WORK/variants"
run() { # NAME GAMES ARGS...
    name=$1 games=$2
    shift 2
    "$BIN" sim --seed 7 --jobs 1 --games "$games" --out "$OUT/$name.jsonl" "$@" > /dev/null
    cp "$OUT/$name.jsonl" "$WORK/"
    i=0
    while [ "$i" -lt "$games" ]; do
        (cd "$WORK" && printf 'show log\nquit\n' | "$BIN" play --load "$name.jsonl" --game "$i" --no-color) \
            > "$OUT/$name.$i.log" 2>&1 || true
        i=$((i + 1))
    done
}
run base 10
run base_random 10 --option board=random --option starting_pieces=false
run family 6 --variant family
run classic 6 --variant classic
run six_special 4 --variant base --players 6
run six_paired 4 --variant base --players 6 --option turn_structure=paired
run helpers 6 --variant base+helpers
run rivals 6 --variant rivals --players 2
run rivals_gold 4 --variant rivals_gold --players 2
run rivals_progress 4 --variant rivals_progress --players 2
run rivals_turmoil 4 --variant rivals_turmoil --players 2
run rivals_duel 2 --variant rivals_duel --players 2
run base_greedy 2 --bots greedy
