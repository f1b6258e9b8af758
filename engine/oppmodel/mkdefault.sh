#!/bin/sh
# Rebuilds engine/oppmodel/default.kbm, the embedded default opponent model
# (docs/opponent-model.md). Run from anywhere in the module:
#   go generate ./engine/oppmodel
# The games are deterministic by seed, and the model's counts do not depend
# on game order, so the same code gives a byte-identical file.
set -eu
cd "$(dirname "$0")"
games=4000
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/kriegbot" kriegbot
"$dir/kriegbot" match -p1 heuristic -p2 heuristic -games $games -rules icc -seed 1 -pgn "$dir/games.pgn" >/dev/null
"$dir/kriegbot" model build -o default.kbm \
  -source "$games wild 16 games heuristic vs heuristic (engine/players, default options) refereed by engine/umpire, from: kriegbot match -p1 heuristic -p2 heuristic -games $games -rules icc -seed 1 -pgn games.pgn. Not human play: a stand-in until MCTS self-play games replace it." \
  "$dir/games.pgn"
