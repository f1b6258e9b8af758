// Package selfplay generates Kriegspiel-like games for building the default
// opponent model while no database of real wild 16 games is at hand: two
// copies of a Kriegspiel-plausible Policy (recapture, exploit pawn tries,
// answer checks, develop and castle, protect, promote) play through the
// umpire, each seeing only its own men and the referee's announcements. The
// games are written as PGN, so the model is built from them by the same
// `kriegbot model build` that reads real game records.
package selfplay
