#!/usr/bin/env bash
# One sitting of the 27-cell Smallholder solve (board hex343434):
#   run.sh RULESET SECONDS [THREADS] [TABLE_MB] [SOLVE FLAGS...]
# SOLVE FLAGS go to `stonefield solve` as they are (e.g. --value-only).
# Resumes from runs/RULESET/ when a sitting saved there (the checkpoint is the solver's own,
# refused if the board, ruleset or solver version differ); writes runs/RULESET/result-N.json,
# one a sitting, and appends a line to log.jsonl (../solve_sitting.sh). See README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ruleset=${1:?ruleset: nibbler, gaps_original, offshore_gaps, stymie or hull_setbacks}
seconds=${2:?seconds for this sitting}
exec "$here/../solve_sitting.sh" "$here/runs/$ruleset" "$here/log.jsonl" \
  "{\"ruleset\": \"$ruleset\"}" "$seconds" "${3:-1}" "${4:-4096}" smallholder \
  --option board=hex343434 --option "ruleset=$ruleset" "${@:5}"
