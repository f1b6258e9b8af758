// Package replylosscmd is "kriegbot replyloss": it measures reply models on
// match files (issue 42's gate for design 1). For every legal move of
// either side, how well each model, given that side's belief just after the
// move, predicts what it then hears of the opponent's reply (which of its
// men is taken, if any), as the log-loss per reply in nats. The models are
// approach C's tree opponent (replymodel.Today) and boards drawn from the
// belief with a softmax policy over what the opponent could know
// (replymodel.Boards), with the default weights and, with -fit, weights
// fitted on the even games and measured on the odd ones.
package replylosscmd
