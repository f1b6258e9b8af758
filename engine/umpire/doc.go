// Package umpire is the wild 16 (ICC Kriegspiel) referee. It holds the true
// position, judges each attempt ("Illegal move" to the mover only, or a legal
// move with its capture, check kinds and the pawn tries of the side now to
// move), ends the game by rule, and tells each side what it hears. The loopback
// server, the match runner and the tests all use this one referee.
//
// Rule conventions follow ICC's help text and the ks-game referee behind the
// referee fixtures (docs/fixtures.md): captures are announced by square and pawn/piece (en passant
// on the captured pawn's square); check kinds are rank, file, long or short
// diagonal (relative to the checked king) and knight; pawn tries count legal
// pawn captures, en passant included. Three rule sets: "icc" (no automatic 50-move
// or repetition draw), "olympiad" (both automatic) and "ks" (kriegspiel.org's
// ks-game: neither, but a draw after 2,000 half-moves without capture or pawn move).
package umpire
