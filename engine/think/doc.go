// Package think is the one harness of a player's thinking: it turns the one
// time policy's plan (engine/clock.Policy) into the player's budget and hard
// limit, runs a search (an attempt) on its own goroutine or the caller's,
// and runs a ponder on its own goroutine until it is stopped. The daemon's
// game driver, `kriegbot match` and KEP all think through it, so they share
// one time policy and one ponder goroutine.
//
// A player that panics while searching or pondering is recovered from and
// reported as an error: a harness decides what a failed player costs.
package think
