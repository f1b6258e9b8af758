// Package opponent is the opponent model of approaches B and C (paper:
// shared/seeds/000, sections 5 and 5.2): per colour, unit class, square and
// move number, how often the opponent's units stand there (D_w, D_b) and the
// trend from one move to the next that drives the belief's random walks, plus
// the behavioural constants (Params) of the paper's second set of assumptions.
package opponent
