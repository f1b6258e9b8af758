#!/bin/sh
# ladder.sh: the scaling ladder of issue 42, load-proof. A player at 1x, 4x
# and 16x the work (nodes, so the games are the same on any machine and
# under any load) against itself at 1x. Each rung is one `kriegbot match`,
# whose summary line (score, W-L-D, Elo with its 95 % interval) is printed
# as the match prints it; the jsonl records stay for `kriegbot match stats`.
#
#   docs/strength/ladder.sh SPEC BASE_NODES [GAMES [SEED]]
#   docs/strength/ladder.sh sampled 300 100 42
#   RUNGS="4 16" KRIEGBOT=./kriegbot OUT=/tmp/ladder docs/strength/ladder.sh mcts 1000 200
#
# SPEC is a player spec without nodes= (options allowed: "mcts:trees=2").
# Environment: RUNGS (default "1 4 16"; 1 is the control, about 50 %),
# KRIEGBOT (the binary, default "kriegbot" on PATH), OUT (directory of the
# jsonl records, default ladder-out), CONCURRENCY (default 1: the machine is
# shared; games are the same whatever it is).
set -eu
if [ $# -lt 2 ]; then
	sed -n '2,16p' "$0" >&2
	exit 2
fi
spec=$1 base=$2 games=${3:-100} seed=${4:-42}
kb=${KRIEGBOT:-kriegbot} out=${OUT:-ladder-out}
case $spec in
*:*) sep=, ;;
*) sep=: ;;
esac
mkdir -p "$out"
tag=$(printf '%s' "$spec" | tr -c 'A-Za-z0-9=.\n' _)
for r in ${RUNGS:-1 4 16}; do
	f="$out/$tag-${r}x-$base-s$seed.jsonl"
	line=$(nice "$kb" match -p1 "$spec${sep}nodes=$((base * r))" -p2 "$spec${sep}nodes=$base" \
		-games "$games" -seed "$seed" -concurrency "${CONCURRENCY:-1}" -jsonl "$f" 2>&1 | tail -n 1)
	printf '%3sx (%d nodes) vs 1x (%d): %s\n' "$r" "$((base * r))" "$base" "$line"
done
