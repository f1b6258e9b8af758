// Package opponent is the opponent model of approaches B and C (paper:
// shared/seeds/000, sections 5 and 5.2): per colour, unit class, square and
// move number, how often the opponent's units stand there (D_w, D_b) and the
// trend from one move to the next that drives the belief's random walks, plus
// the pawns' one-way Markov chains, which class the opponent moves, and the
// behavioural constants (Params) of the paper's second set of assumptions.
//
// Counts are the model's data: exact integer tallies from game records that
// add up game by game, written in a versioned, checksummed file format
// (file.go; docs/opponent-model.md). A Model is derived from Counts (smoothed
// where data is thin) and serves the belief without allocating. The default
// model is embedded (Default); a Store keeps one Counts file per opponent
// handle and blends it with the default (Blend). Evaluate scores a model on
// held-out games.
package opponent
