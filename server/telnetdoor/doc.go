// Package telnetdoor is the game table's telnet door: the ICC-compatible
// server the bot and the tests log in to exactly as they would to the
// Internet Chess Club, with the same login prompt, level-1 units, level-2
// datagrams (only those the client enabled), the same hidden-move form
// ("?" or "?x<sq>" in DG 24) and the referee announcements as text. A
// person can use it too: `telnet 127.0.0.1 5000`, log in as "g", and type
// "help".
//
// New opens the door on a server.Server and makes it the table's
// PlayerDoor: the table tells it the events of its games and seek ads and
// it renders them for its users (view.go). Its state (connections, users,
// challenges, offers) shares the table's one lock; commands are short, so
// this keeps the referee's order of events simple and obviously right.
// Each connection has a reader goroutine that assembles bounded lines
// (server/telnet, the door's pure part) and a writer goroutine that
// drains an output queue bounded in bytes: a client that stops reading is
// dropped once its own output fills it, as ICC drops overflowing output,
// and never slows the others down. Every client is treated as possibly
// hostile: what its commands send to others is paid from a budget,
// others' chat to a congested client is held back, and logins are
// limited per address (limits.go, docs/robustness.md). Its limits are
// its Config; the connections' (MaxConns, MaxConnsPerHost), the accounts
// and guests are the table's server.Config.
//
// The exact wire format, and where it follows or guesses ICC, is in
// docs/iccserver.md.
package telnetdoor
