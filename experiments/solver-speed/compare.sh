#!/usr/bin/env bash
# Runs two builds of the solver_speed example interleaved (A B, then B A, ...) and keeps every
# line: compare.sh BEFORE AFTER ROUNDS OUT.jsonl [speed.rs arguments...]
# Then `python3 summary.py OUT.jsonl` prints the table (minimum and median per board and build).
set -euo pipefail
before=$1 after=$2 rounds=$3 out=$4
shift 4
: > "$out"
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then order=("before:$before" "after:$after"); else order=("after:$after" "before:$before"); fi
  for pair in "${order[@]}"; do
    name=${pair%%:*} bin=${pair#*:}
    "$bin" "$@" | sed "s/^{/{\"build\": \"$name\", \"round\": $r, /" >> "$out"
  done
done
