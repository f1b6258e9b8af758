// Package pgnout writes PGN export text: tags, then movetext with move
// numbers, comments and the result, wrapped at 79 columns as the PGN standard
// asks. The match runner, the server's and the bot's game records share it.
package pgnout
