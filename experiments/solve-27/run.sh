#!/usr/bin/env bash
# One sitting of the 27-cell Smallholder solve (board hex343434):
#   run.sh RULESET SECONDS [THREADS] [TABLE_MB] [SOLVE FLAGS...]
# SOLVE FLAGS go to `stonefield solve` as they are (e.g. --guide expert --value-only).
# Resumes from runs/RULESET/ when a sitting saved there (the checkpoint is the solver's own,
# refused if the board, ruleset or solver version differ); writes runs/RULESET/result-N.json,
# one a sitting, and appends a line to log.jsonl. See README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ruleset=${1:?ruleset: nibbler, gaps_original, offshore_gaps, stymie or hull_setbacks}
seconds=${2:?seconds for this sitting}
threads=${3:-1}
table_mb=${4:-4096}
extra=("${@:5}")
dir="$here/runs/$ruleset"
mkdir -p "$dir"
n=$(find "$dir" -maxdepth 1 -name 'result-*.json' | wc -l)
out="$dir/result-$((n + 1)).json"
stonefield solve smallholder --option board=hex343434 --option "ruleset=$ruleset" \
  --threads "$threads" --table-mb "$table_mb" --time "$seconds" \
  --checkpoint "$dir/checkpoint" --save-every 600 --json "${extra[@]}" > "$out" || rc=$?
# Ctrl-C (exit 130) still saved the run and printed what it had.
if [ "${rc:-0}" -ne 0 ] && [ "${rc:-0}" -ne 130 ]; then exit "$rc"; fi
python - "$out" "$ruleset" "$seconds" "$threads" "$table_mb" "${extra[*]}" >> "$here/log.jsonl" <<'PY'
import json, sys
path, ruleset, seconds, threads, table_mb, flags = sys.argv[1:]
r = json.load(open(path))
keep = {k: r.get(k) for k in ("value", "best", "nodes", "seconds", "stopped_by")}
outcomes = r.get("outcomes") or []
keep["proven_first_moves"] = sum(o is not None for o in outcomes)
keep["first_moves"] = len(outcomes)
print(json.dumps({"ruleset": ruleset, "sitting_seconds": float(seconds), "threads": int(threads),
                  "table_mb": int(table_mb), "flags": flags, **keep}))
PY
