// Package replay re-runs a logged game offline and shows what the bot
// believed and why it chose each attempt.
//
// A per-game record (the daemon's logs/games/*.jsonl, docs/records.md) names
// the player spec and the game's seed. Run rebuilds that player, feeds it
// exactly the answers and clocks the daemon fed it, and at every recorded
// attempt runs the search again with the recorded number of iterations. A
// single-tree search is deterministic for a seed and an iteration count, so
// the re-run must choose the recorded attempt: every attempt where it does
// not is reported (a determinism check that turns a field report into a
// reproducible case). Raw session transcripts (logs/transcripts/*.txt) are
// replayed through the protocol reader and the daemon's own game tracking.
// Load reads either. Replay reads no other format: a game of a match's JSON
// Lines file is turned into its player's record by package match
// (Game.SideRecord), and kriegbot replay (cli/replaycmd) hands it on.
//
// Each attempt becomes a Frame: our men, the belief's heat maps of the
// opponent's king, pawns and other pieces, the referee's answers so far, the
// candidates with visits, values and predicted answers, and the clocks. The
// frames are written as text (WriteText), stepped through on a terminal
// (Browse) or written as one self-contained HTML page (WriteHTML).
package replay
