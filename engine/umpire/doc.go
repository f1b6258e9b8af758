// Package umpire is the Kriegspiel referee. It holds the true position,
// judges each attempt and the "Any?" question, ends the game by rule, and
// tells each side what it hears. The loopback server, the match runner and
// the tests all use this one referee.
//
// Rules carries the ending rules and the variant. Three ending rule sets:
// "icc" (no automatic 50-move or repetition draw), "olympiad" (both
// automatic) and "ks" (kriegspiel.org's ks-game: neither, but a draw after
// 2,000 half-moves without capture or pawn move). The variant (Variant) is
// data, one description per variant of kriegspiel.org (docs/rulesets.md);
// its zero value is wild 16, ICC's Kriegspiel: captures are announced by
// square and pawn/piece (en passant on the captured pawn's square); check
// kinds are rank, file, long or short diagonal (relative to the checked
// king) and knight; pawn tries count legal pawn captures, en passant
// included; "Illegal move" is told to the mover only (docs/fixtures.md).
// The other variants differ in what they announce and refuse: ask-any and
// its obligation, public refusals, untyped or exact captures, the next
// mover's pawn news, promotion and en passant announcements, stalemate,
// and crazykrieg's pockets and drops.
package umpire
