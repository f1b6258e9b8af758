// Package search is kriegbot's Monte Carlo tree search for Kriegspiel, after
// Ciancarini and Favini, "Monte Carlo tree search in Kriegspiel" (the paper in
// docs/references.md, sections 5 and 6).
//
// # Approach C (the player)
//
// The tree has three tiers for each pair of plies: our attempt, the referee's
// answer to it, and what we hear of the opponent's reply. The referee's
// answers (illegal, silent, pawn or piece captured, each check kind, and, when
// the opponent is a bare king, mate and stalemate) are explicit chance nodes
// whose probabilities come from the belief (belief.State.Outcomes; Jouandeau and Cazenave's
// chance nodes); the opponent's reply is a chance node over "nothing heard" and
// the capture of each of our most exposed men (belief.State.ReplyCaptureRisk).
// An "Illegal move" leads to a decision node of the same turn with that attempt
// refused and the belief updated, so the tree also values what a refusal
// teaches.
//
// Selection is UCT with a small exploration constant at our decision nodes and
// sampling by probability at chance nodes. Each iteration evaluates one new
// attempt with k = 1: the probability-weighted value of the referee's answers,
// each valued by material after a short quiescence on the capture square (the
// opponent recaptures where it can, we take back where we defend), less the
// expected loss of our men the opponent may take blindly. Values are backed up
// with the maximum at our nodes and the expectation at chance nodes (the
// paper's max backup), each of our turns below the root charged a tempo so
// that a line's value does not rise with its depth (lessTempo), and proven wins and draws are backed up as exact
// (Jouandeau's MCTS-Solver, docs/references.md): with the opponent reduced to a bare king, mate and
// stalemate are computed exactly over every square its king may stand on, so
// the search mates instead of wandering.
//
// Approach B (k-move simulations of referee messages from the belief, mean
// backup) and approach A (boards sampled from the belief, pseudo-random
// playouts on them, mean backup) share the tree and exist for ablation.
//
// # Engineering
//
// Each tree lives in fixed-size arrays allocated once: nodes refer to their
// children by index (a child block is contiguous), decision nodes to their
// belief by index into a state pool. The memory cap (Config.MemoryMB per tree)
// bounds both. When a pool is nearly full in the middle of a search the tree
// is pruned (prune.go): the least visited subtrees are collapsed into their
// top node, which keeps its value and visit count, until each pool is at most
// half full, and the search goes on until its time or node budget is spent;
// it stops early only when nothing can be freed. Iterations allocate nothing. Root parallelism runs Config.Threads independent trees, each with
// its own seed (and, under a node budget, its share of the budget), and sums
// their root visit counts. The tree is reused across our refused attempts (the
// refused attempt's subtree is dropped, the root's belief replaced) and across
// moves (the subtree below what we actually heard becomes the root; the pools
// are compacted in place). With a node budget the result depends on the seed
// only, whatever the number of threads or the machine's load.
//
// # Pondering
//
// During the opponent's turn, Searcher.Ponder searches below our accepted
// attempt and the answer we heard: the tree's reply tier already holds our
// next decision under each reply we may hear, weighted by its chance, and
// the reply actually heard becomes the next root (ponder.go).
package search
