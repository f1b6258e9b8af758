// Package pgnread reads game records from PGN text for the opponent-model
// builder and for tests that read our own PGN back. It splits the input
// into games itself (bounded per line and per game, with line numbers for
// every message), splits each game's text into tokens with a small movetext
// tokenizer (tag pairs, SAN moves and the result; move numbers, comments,
// NAGs and variations skipped), and finds every move with kriegbot's own
// rules core (engine/chess's SAN reader). Broken games are reported as
// *SkipError, naming the line, and reading goes on.
package pgnread
