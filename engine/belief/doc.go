// Package belief is one side's knowledge of a Kriegspiel game (approaches B
// and C of the paper in docs/references.md, section 5.2): its own men exactly,
// and for the opponent three 8×8 matrices (king, pawns, other pieces) holding
// the chance that a unit of that class stands on each square, plus what is
// known for certain: the opponent's number of men from the captures, and for
// each class the set of squares where a unit of that class may stand (the
// support). A square leaves a support only on proof; the matrices are zero
// outside their support and at least a small floor inside it, so the true board
// always keeps non-zero probability.
//
// A State is a fixed-size value without slices or maps: copying it keeps a
// belief, and the updates (Ours after our own attempt, Theirs after the
// opponent's unseen move) allocate nothing. The queries (ProbControl,
// ProbLegal, Outcomes, ReplyCaptureRisk) give the search the distribution of the
// referee's messages; Sample draws concrete boards for approach A.
//
// Every variant of kriegspiel.org is heard through the same two updates:
// answers to "Any?", untyped and exact captures, announced en passant and
// promotion, has-pawn-capture, pawn-try squares and crazykrieg's drops and
// pockets (news.go, docs/belief.md).
//
// The opponent's movement between our turns follows a Prior (the opponent model
// of package opponent, or UniformPrior without data): the king walks at random
// over the squares it may reach, pawns advance as one-way Markov chains, and
// the other pieces spread along ranks, files, diagonals and knight jumps.
package belief
