#!/usr/bin/env bash
# One sitting of a Faraday order-4 solve with the designer's min_offer_stones=1:
#   run.sh GRID SECONDS [THREADS] [TABLE_MB] [SOLVE FLAGS...]
# Resumes from runs/GRID/ when a sitting saved there (the solver's own checkpoint, refused if
# the board, options or solver version differ); writes runs/GRID/result-N.json, one a sitting,
# and appends a line to log.jsonl (../solve_sitting.sh). See README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
grid=${1:?grid: hex, hex_limping, trisquare, trisquare_omni, hex_omni or square_omni}
seconds=${2:?seconds for this sitting}
exec "$here/../solve_sitting.sh" "$here/runs/$grid" "$here/log.jsonl" \
  "{\"grid\": \"$grid\"}" "$seconds" "${3:-1}" "${4:-6144}" faraday \
  --option order=4 --option min_offer_stones=1 --option "grid=$grid" "${@:5}"
