// Package sampled chooses a Kriegspiel attempt the way the strongest
// reconnaissance-blind-chess programs do (StrangeFish, NeurIPS 2019): draw
// full boards from the belief, score every candidate attempt on every board
// with a perfect-information alpha-beta search (engine/search/alphabeta),
// and combine each attempt's scores between their mean and their worst
// case. More work buys more boards and deeper searches, so unlike approach
// C's tree the choice keeps changing with the budget (issue 42, design 2).
//
// An attempt a board refuses is worth, on that board, the attempt we would
// try next there (Config.NextBest), less a small charge. The alternative,
// the board's own value (what a player seeing the board would get), is
// stronger at small budgets but turns the player into a prober that lets
// captures go as the searches deepen (docs/strength/sampled.md).
package sampled
