// Package iccgame follows games on an ICC-protocol session (ICC, or
// kriegbot serve): it turns the session's messages for one game into the
// referee answers and clocks the game driver hears, in order, and keeps what
// the wire says about the game (whose turn, the clocks, the lag, the result).
//
// It is pure: no I/O, no goroutines, no clock of its own; callers pass each
// message with its arrival time. The daemon (package bot) and kriegbot
// replay (re-feeding a transcript) use the same Tracker and the same
// dispatch (Tracker.Datagram, Route), so a replay sees exactly what the live
// game saw.
package iccgame
