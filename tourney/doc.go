// Package tourney is the tournament model of kriegbot: what a tournament
// director (TD) inside "kriegbot serve" and the "kriegbot tourney" command
// need to run an event, with no I/O but rendering to an io.Writer, no
// randomness and no package-level state.
//
// The model: an Event has Players (handle, rating, pairing number, the
// round they joined, the round after which they withdrew) and Played
// rounds; a Round has Games (board, white, black, Result) and Byes
// (PairingBye one point, HalfBye half a point for a late join or a
// requested bye, ZeroBye for an absence, RestBye for the free round of an
// odd round robin). New, AddPlayer, Start, then PairNext and SetResult (or
// Record by handles, or Apply a parsed results line) round after round;
// LateJoin, Withdraw, RequestBye and Absent between rounds; Done when it
// is over. An Event marshals to JSON and back (MarshalJSON), so a TD can
// stop and resume it.
//
// Pairing systems: RoundRobin and DoubleRoundRobin follow FIDE's Berger
// tables (BergerRound); Swiss follows the FIDE Dutch system (C.04.3) for
// small fields, with the simplifications listed in docs/tournaments.md,
// and a lookahead that keeps later rounds free of repeated pairings.
//
// Standings ranks by points then tie-breaks (Buchholz, BuchholzCut1,
// SonnebornBerger, DirectEncounter, Wins; DefaultTieBreaks per system),
// with FIDE's virtual opponent for unplayed games. WriteStandings,
// WriteCrosstable and WriteHTML render them; PGNTags and FormatTags give
// a game's PGN header; ParseResult, ParseGameLine and ParseResults read
// results files ("ROUND WHITE BLACK RESULT" lines).
package tourney
