// Package particles keeps a set of full boards that explain everything we
// have heard this game: a particle filter over the opponent's men (issue
// 42's "boards weighted by the opponent's heard history").
//
// The belief (engine/belief) keeps a chance per square for each class of
// man, and its boards are drawn from those marginals one man at a time:
// piece types are dealt at random, and nothing ties a board to the path
// that led to it. Here every board is carried from the start through the
// game: our accepted attempts are played on it and must give the answers
// we heard (capture square and kind, checks, the opponent's pawn tries);
// a refused attempt must be illegal on it; and the opponent's reply is
// drawn on it from the fitted reply policy (engine/search/replymodel),
// restricted to the replies that give what we heard. A board is weighted
// by the policy's chance of a reply that does so (its likelihood), and the
// set is resampled in proportion. When too few distinct boards survive a
// surprise, the set is refilled from the belief's draws.
//
// Boards drawn from the set stand in for the belief's in a search
// (boardtree): the search then plays on boards whose piece types, pawn
// structure and history agree with what the opponent did.
package particles
