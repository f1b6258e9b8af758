// Package alphabeta is a small perfect-information chess search: negamax
// with alpha-beta pruning, a captures-only quiescence, iterative deepening
// to a node budget, and an evaluation of material and piece-square tables.
//
// It exists to score Kriegspiel attempts on full boards sampled from the
// belief (engine/search/sampled): the boards are guesses, so the search
// aims at a sound value in few nodes, not at depth. It allocates nothing
// once a Searcher is made: each ply owns its move list, and positions are
// copied (copy-make), never shared.
package alphabeta
