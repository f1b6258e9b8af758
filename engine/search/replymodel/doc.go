// Package replymodel predicts what we hear of the opponent's next reply:
// which of our men it takes, if any (issue 42's gate for design 1: a reply
// model that chooses on sampled boards must predict the reply actually
// heard better than approach C's).
//
// Two models fill the same distribution over 65 events (a capture on each
// square, or none):
//   - Today: approach C's tree opponent, belief.State.ReplyCaptureRisk (a
//     blind capture of each of our men in proportion to its control, the
//     recapture first);
//   - Boards: boards drawn from the belief, on each the opponent choosing
//     among its legal moves by a softmax policy over what it could know
//     (Features: the value of the man it takes, a recapture on our last
//     capture square, a pawn capture, the exchange's balance, a check).
//
// Both allocate nothing once made; kriegbot replyloss (cli/replylosscmd) measures them on match
// files.
package replymodel
