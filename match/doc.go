// Package match plays Kriegspiel players against each other in-process,
// through the wild 16 referee (engine/umpire), and measures who is stronger:
// "kriegbot match".
//
// Run plays a Config: two player specs (engine/players), a number of games
// with colours alternating, limits per attempt (movetime, nodes) or a real
// clock per side (engine/clock manages it; a flag fall loses), Concurrency
// games at once. Whatever the scheduling, games are written and counted in
// index order, and game g's seed derives from the match seed and g alone, so
// a run is reproducible and a shard (-shard I/N) plays exactly its games of
// the whole match. A game that waits for an earlier one goes at once to the
// held file beside the JSON Lines file (held.go), so that a run killed then
// loses no finished game: -resume takes them from it.
//
// The results: Tally (W-L-D from the first player's side) with the Elo
// difference and its 95 % interval (cutechess-cli's method), an SPRT that
// can stop the match early (the trinomial generalized SPRT, computed exactly),
// the terminations, PGN with the referee's words as comments (WritePGN), and
// JSON Lines with every attempt (WriteJSONL), which ReadShard and Merge
// combine across shards. ParsePlayer reads a side's spec once, with the
// match's own keys in it (ponder, a budget of its own); Game.SideRecord
// turns a game of a match file into its player's record, which kriegbot
// replay reads. The command is cli/matchcmd; docs/match.md describes it and
// the formats.
package match
