// Package sampled chooses a Kriegspiel attempt the way the strongest
// reconnaissance-blind-chess programs do (StrangeFish, NeurIPS 2019): draw
// full boards from the belief, score every candidate attempt on every board
// with a perfect-information alpha-beta search (engine/search/alphabeta),
// and combine each attempt's scores between their mean and their worst
// case. More work buys more boards and deeper searches, so unlike approach
// C's tree the choice keeps changing with the budget (issue 42, design 2).
//
// An attempt the board refuses is worth the board's own value (we then play
// our best move there) less a small charge: a refusal costs no move in
// Kriegspiel and teaches us where the opponent's men stand. Config.NextBest
// values it instead as the attempt we would try next on that board, which
// is more honest and measured weaker (docs/strength/sampled.md).
package sampled
