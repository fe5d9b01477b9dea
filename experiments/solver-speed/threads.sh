#!/usr/bin/env bash
# One build of the solver_speed example with one thread and with two, taken in turn:
# threads.sh BINARY ROUNDS OUT.jsonl [speed.rs arguments...]; the lines name the run "1 thread"
# or "2 threads" (python experiments/tables.py solved/speed-threads renders the committed one).
set -euo pipefail
bin=$1 rounds=$2 out=$3
shift 3
: > "$out"
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then order=(1 2); else order=(2 1); fi
  for t in "${order[@]}"; do
    name="$t threads"; [ "$t" = 1 ] && name="1 thread"
    "$bin" --threads "$t" "$@" | sed "s/^{/{\"build\": \"$name\", \"round\": $r, /" >> "$out"
  done
done
