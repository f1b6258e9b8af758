// Package track names what every game tracker offers the daemon's game
// loop, whichever server the game is played on. A tracker follows one game
// on a server's wire and turns what the server says into what the player
// hears (referee answers and clocks, in order), and keeps what the wire
// says about the game: whose turn, the clocks, the lag, the result.
//
// Trackers are pure (no I/O, no goroutines, no clock of their own), so the
// daemon and kriegbot replay feed the same one. One per dialect:
// track/iccgame (ICC's datagrams and referee lines) and track/ksgame (the
// kriegspiel.org API's states and move results). The codecs they read live
// in protocol/; trackers are kept out of it, so that a codec package knows
// no game.
package track
