// Package pgnread reads game records from PGN text for the opponent-model
// builder: it splits the input into games itself (bounded per line and per
// game, with line numbers for every message), hands each game to the PGN
// library github.com/corentings/chess/v2 under a guard (a panic, an error or
// a stall skips that game only), and checks every move against kriegbot's
// own rules core. Broken games are reported as *SkipError and reading goes on.
package pgnread
