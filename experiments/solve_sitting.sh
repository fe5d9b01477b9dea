#!/usr/bin/env bash
# One sitting of a long solve that resumes from its checkpoint (used by solve-27/run.sh and
# solve-faraday4/run.sh):
#
#   solve_sitting.sh DIR LOG LABEL SECONDS THREADS TABLE_MB GAME [SOLVE ARGUMENTS...]
#
# Runs `stonefield solve GAME SOLVE ARGUMENTS` with the threads, table and time budget given,
# checkpointing to DIR/checkpoint (every 600 s and when it stops; the same DIR resumes it), its
# JSON output to DIR/result-N.json (one a sitting), and appends one line to LOG: the fields of
# LABEL (a JSON object naming the board), the sitting's settings and what it proved.
set -euo pipefail
dir=$1 log=$2 label=$3 seconds=$4 threads=$5 table_mb=$6 game=$7
shift 7
mkdir -p "$dir"
n=$(find "$dir" -maxdepth 1 -name 'result-*.json' | wc -l)
out="$dir/result-$((n + 1)).json"
stonefield solve "$game" "$@" --threads "$threads" --table-mb "$table_mb" --time "$seconds" \
  --checkpoint "$dir/checkpoint" --save-every 600 --json > "$out" || rc=$?
# Ctrl-C or SIGTERM (exit 130) still saved the run and printed what it had.
if [ "${rc:-0}" -ne 0 ] && [ "${rc:-0}" -ne 130 ]; then exit "$rc"; fi
python - "$out" "$label" "$seconds" "$threads" "$table_mb" "$*" >> "$log" <<'PY'
import json, sys
path, label, seconds, threads, table_mb, args = sys.argv[1:]
r = json.load(open(path))
keep = {k: r.get(k) for k in ("value", "best", "nodes", "seconds", "stopped_by")}
outcomes = r.get("outcomes") or []
keep["proven_first_moves"] = sum(o is not None for o in outcomes)
keep["first_moves"] = len(outcomes)
print(json.dumps({**json.loads(label), "sitting_seconds": float(seconds), "threads": int(threads),
                  "table_mb": int(table_mb), "arguments": args, **keep}))
PY
