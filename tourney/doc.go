// Package tourney is the tournament model for kriegbot: players, rounds,
// pairings, results, byes, withdrawals and late joins; the pairing systems
// (round robin by Berger tables, single and double, and the FIDE Dutch
// Swiss for small fields); standings with tie-breaks; and the output
// (text and HTML standings and crosstables, PGN tags). It is pure: no I/O
// but rendering to an io.Writer, no randomness, no package-level state.
// docs/tournaments.md describes the rules it implements.
package tourney
