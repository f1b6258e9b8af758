// Package server is a loopback ICC-compatible server for wild 16
// (Kriegspiel), refereed by engine/umpire. The bot and the tests log in to it
// exactly as they would to the Internet Chess Club: the same login prompt,
// level-1 units, level-2 datagrams (only those the client enabled), the same
// hidden-move form ("?" or "?x<sq>" in DG 24) and the referee announcements as
// text. A person can use it too: `telnet 127.0.0.1 5000`, log in as "g", and
// type "help".
//
// One mutex guards the whole server state (users, seeks, challenges, games);
// commands are short, so this keeps the referee's order of events simple and
// obviously right. Each connection has a reader goroutine that assembles
// bounded lines and a writer goroutine that drains an output queue bounded
// in bytes: a client that stops reading is dropped once its own output
// fills it, as ICC drops overflowing output, and never slows the others
// down. Every client is treated as possibly hostile: what its commands send
// to others is paid from a budget, others' chat to a congested client is
// held back, and logins are limited per address (limits.go,
// docs/robustness.md).
//
// The exact wire format, and where it follows or guesses ICC, is in
// docs/iccserver.md.
//
// ServeAPI adds a second door, the kriegspiel.org bot API over HTTP
// (http*.go; docs/kriegspiel-org.md), on the same games, seek ads and
// mutex: a bot's lobby game is a seek ad telnet users can play, a telnet
// seek is a lobby game bots can join, and a game may have a telnet client
// in one seat and an HTTP bot in the other.
//
// The game table (Server: games, seeks, challenges, accounts, clocks, and
// the connections) is this package's core. Each door is a type of its own
// under the same lock: the telnet door's commands and logins (telnetDoor,
// commands.go, login.go, ...), the HTTP door (httpDoor, http*.go) and the
// tournament director (director, td*.go). The table publishes each game's
// start, changes and end to the doors that follow games (GameWatcher: the
// TD, then the HTTP door's event streams), asks the TD where it has a say
// (logins, offers, disconnections: s.td.login, s.td.refuse, ...), and the
// doors use the table through their s. Their pure parts are packages already:
// telnet (the line reader), kshttp (routes, tokens, game references, the
// referee as the site shows it), td (event specs, numbers, files and
// pages) and timecontrol; the site's JSON is protocol/ksapi. `kriegbot
// serve` is composed in cli/servecmd.
package server
