// Package ksapi is the kriegspiel.org bot API as bytes on the wire
// (docs/kriegspiel-org-api.md): the JSON types of its requests and
// replies, the referee's announcement words, and the framing of its
// event streams. The client (protocol/ksclient), the server's HTTP door
// and the tests' fake site all speak it through this package, so each
// shape is declared once.
//
// It is pure: no I/O, no goroutines, nothing of ours but engine/chess (the
// check kinds). Each formatter sits beside its parser, and
// parse(format(x)) == x is fuzzed.
//
// Field order is wire order. Types the server used to write as Go maps
// keep their fields in alphabetical order, since that is the order
// encoding/json gave those maps, and the server's replies stay
// byte-identical.
package ksapi
