// Package ksgame follows games on the kriegspiel.org bot API (the site, or
// kriegbot serve's HTTP door): Tracker turns a game's states (their
// scoresheet) and our move and ask-any results, as package ksclient parses
// them, into the referee answers and clocks the game driver hears, in the
// game's rule variant (NewVariantTracker: the "Any?" answers, the
// opponent's public refusals, each variant's captures and pawn news); it
// decides whether an attempt may be sent (in wild 16: allowed_moves, never
// one refused this turn) and notices the game's end.
//
// It is pure: no I/O, no goroutines, no clock of its own; callers pass
// each state with the time it was fetched.
package ksgame
