#!/usr/bin/env bash
# Trains (or resumes) the network shipped for one game's default board.
#
#   bash experiments/experts/train.sh GAME [MINUTES] [FOLDER [INIT [FLAGS...]]]
#
# The first sitting starts the run in experiments/experts/runs/FOLDER (default: GAME); every
# later one resumes it (`stonefield train --resume`: network, optimiser, replay window, random
# state and round), so a run of many hours is many sittings of MINUTES (default 45). The
# settings are those of the README's table; the curriculum starts on a small board and ends on
# the default one, where the run stays. With INIT (a checkpoint, e.g. runs/GAME/latest.npz), a
# new run in FOLDER starts from that network on the default board alone (`--init`): the way
# on from a run whose resume state is not on this machine. FLAGS (after INIT; "" for none) go
# to `stonefield train` after the table's settings and override them, e.g. --window 16
# --gate-games 12 (a resume keeps the run's settings). Needs the jax extra:
# pip install -e ".[jax]".
set -euo pipefail
cd "$(dirname "$0")"
game=${1:?"give a game: smallholder, windflowers, faraday or subsume"}
minutes=${2:-45}
folder=${3:-$game}
init=${4:-}
flags=("${@:5}")
case $game in
  subsume) curriculum="size=4:6,size=6:1" ;;
  smallholder) curriculum="board=hex3:6,board=hex4:1" ;;
  windflowers) curriculum="size=3:6,size=4:1" ;;
  faraday) curriculum="order=4:6,order=6:1" ;;
  *) echo "unknown game '$game'; the games: smallholder, windflowers, faraday, subsume"; exit 2 ;;
esac
out=runs/$folder
if [ -f "$out/resume/state.npz" ]; then
  exec stonefield train --resume "$out" --minutes "$minutes"
fi
if [ -n "$init" ]; then
  # The default board alone: the last span of the curriculum.
  start=(--curriculum "${curriculum##*,}" --init "$init")
else
  start=(--curriculum "$curriculum")
fi
exec stonefield train "$game" --out "$out" --iterations 1000 --minutes "$minutes" \
  --architecture graph --hidden 32 --layers 3 --games 24 --simulations 32 \
  --full-search-share 0.25 --fast-simulations 8 --value-mix 0.5 --batch-size 8 --epochs 2 \
  --window 4 --eval-games 0 "${start[@]}" "${flags[@]}"
