// Package telnet is the telnet door's pure part: what it reads of what a
// client types, and what it draws.
//
// LineReader assembles bounded lines from the bytes of a connection,
// stripping telnet negotiation (IAC sequences) and NUL bytes, and taking
// CR, LF, CRLF and LFCR each as one line end: the server's connection loop
// feeds it what it reads and gets whole lines back. ParseTerms reads the
// terms of a seek or a match, ParseMove a move in coordinate form. Board,
// Clock and MoveFields draw a player's men, a clock and a move as a
// player may see it.
package telnet
