// Package boardtree is issue 42's design 1, a prototype: Monte Carlo tree
// search over our information sets, each iteration on a board drawn from
// the belief (single-observer information-set MCTS, Cowling, Powley and
// Whitehouse 2012).
//
// Approach C's tree (engine/search) values the referee's answers and the
// opponent's replies from the belief alone: its opponent takes our men
// blindly, so a deeper line is no better informed than the first. Here
// every iteration draws one full board from the root's belief and plays
// the line on it: the board decides whether our attempt is legal, what it
// takes and which checks it gives, and the opponent chooses its reply on
// that board by the fitted reply policy (engine/search/replymodel: a
// softmax over what it could know: the man it takes, a recapture, a pawn's
// capture, the exchange, a check). A decision node is what we have heard
// on the way (our answers, the opponent's announced captures and checks,
// the pawn tries), so the boards that agree with it share it, and our
// attempts there are chosen without seeing the board. A new node is valued
// by a small perfect-information alpha-beta on the board reached
// (engine/search/alphabeta), in pawns for us.
//
// With Config.Opponent the opponent also has a tree of its own, keyed by
// what it hears (our move's capture, checks and its pawn tries, then its
// own move): where that tree holds the line, it chooses its reply by the
// values its replies had there, with the policy as their prior (PUCT), so
// that more iterations make the opponent better too, not only us.
//
// More iterations buy more boards and deeper lines, each line with an
// opponent that decides on its board. The prototype plays wild 16's
// announcements (capture square and kind, checks, the pawn-try count); no
// drops, no "Any?"; with Reuse the tree is kept across what was heard
// (the opponent's tree only across our refusals). It allocates
// nothing per iteration.
package boardtree
