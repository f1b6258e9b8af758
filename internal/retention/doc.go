// Package retention bounds the disk the daemon's records take: the per-game
// records, PGNs and replay pages (logs/games), the connection transcripts
// (logs/transcripts) and the embedded server's records (logs/server).
//
// A Policy is pure: given the files of those folders with their times and
// sizes, it says which to compress and which to remove. An Applier runs it
// over real folders (root, clock and open-file check injectable) and says
// what it did in one Report per pass. Open reads a file whether or not a
// pass has compressed it since, so the readers of records (kriegbot replay,
// the live page's replay pages) follow a record into its .gz.
//
// Nothing outside the folders it is given is ever touched, nor any file in
// them whose name is not one of the record kinds the daemon writes
// (Suffixes): the opponent models in data/ and the rotated JSON log live
// elsewhere and are left alone.
package retention
