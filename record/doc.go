// Package record is the daemon's per-game record: one JSON Lines file per
// game, written from our side of the board (what we tried, what the referee
// told us, how we searched), and the PGN made from it once the server
// reveals the moves.
//
// The schema is defined once, here: each line type is a Go struct
// (schema.go) that the Writer marshals and Read unmarshals, and
// docs/records.md is checked against these structs by a test. The game line
// carries the schema version (Version); a reader refuses a record of a newer
// version and ignores unknown fields of known line types.
//
// Writers: the game driver (package driver) for every server and for
// kriegbot match. Readers: kriegbot replay, and tests.
//
// The package also holds the one schema of a whole game seen from the
// referee's chair (referee.go: RefereeLine, both sides' attempts with the
// answer as data), the attempt line of a match file and of a server's game
// record.
package record
