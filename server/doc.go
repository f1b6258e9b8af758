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
// The game table (Server: games, seeks, challenges, accounts, clocks, and
// the telnet connections) is this package's core; the doors reach it
// through its API (table.go). The design, which keeps the one lock and
// the order of every byte:
//   - One lock. A door takes the table's lock (Lock/Unlock) around each
//     use, as a telnet command does; the table calls a door back only
//     with the lock held, so a door's state may share it.
//   - One batch per use. What a use sends to telnet clients is collected
//     in an Events batch (NewEvents) and sent at Flush, one level-1 unit
//     per client: a door's move or resignation reaches the telnet seat in
//     the same units and order as a telnet player's.
//   - Subscriptions, in order. A door following games subscribes
//     (Subscribe: a GameWatcher) and is told, in subscription order (the
//     TD, then the HTTP door), when a game starts, changes and ends, the
//     end after the records are written; a DoorCloser is also told when
//     the table closes (before its games end, and after). The Director
//     (SetDirector: the TD) is asked where it has a say, and flushed after
//     the games end at Close; the BotDoor (SetBots) names the players of
//     another door that telnet users may `match`.
//   - The table imports no door (internal/layering).
//
// The doors: the telnet door's commands and logins are here (telnetDoor,
// commands.go, login.go, ...); the tournament director is
// server/tddoor, the table's Director, which it consults where the TD has
// a say (logins, tells to it, offers, seeks, disconnections); the
// kriegspiel.org HTTP door is server/httpdoor. Their pure parts are
// packages: telnet (the line reader), kshttp (routes, tokens, game
// references, the referee as the site shows it), td (event specs,
// numbers, files and pages), timecontrol and ratelimit; the site's JSON is
// protocol/ksapi. `kriegbot serve` is composed in cli/servecmd (the table,
// the TD, the HTTP door, in that order), kriegbot run's embedded server in
// server/loopback.
package server
