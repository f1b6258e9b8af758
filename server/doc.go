// Package server is the game table of a loopback ICC-compatible server
// for wild 16 (Kriegspiel), refereed by engine/umpire: its games, seek
// ads, accounts, ratings, clocks and records, under one lock. It speaks
// no protocol: its doors do. The telnet door (server/telnetdoor) seats
// the users who log in as they would to the Internet Chess Club, the
// bot and the tests among them; the tournament director (server/tddoor)
// runs events over it; the kriegspiel.org HTTP door (server/httpdoor)
// seats the site's bots.
//
// The doors reach the table through its API (table.go). The design,
// which keeps the one lock and the order of every byte:
//   - One lock. A door takes the table's lock (Lock/Unlock) around each
//     use, as a telnet command does; the table calls a door back only
//     with the lock held, so a door's state may share it.
//   - One batch per use. What a use tells the telnet door's users is
//     collected in an Events batch (NewEvents: the telnet door's) and
//     sent at Flush, one level-1 unit per user: a door's move or
//     resignation reaches the telnet seat in the same units and order as
//     a telnet player's. The users are Clients: the table knows their
//     names and whether they play, the telnet door the rest.
//   - One door in person. The PlayerDoor (SetPlayerDoor: the telnet
//     door, whose users sit at the games themselves) is told, into the
//     use's batch, each game's start, each attempt refused or judged, its
//     end, a player leaving within its grace and coming back, each seek ad
//     posted and taken down, and renders them for its users; it keeps its
//     users, their challenges and their draw and abort offers. Until one
//     is set, nobody is told (noPlayers).
//   - Subscriptions, in order. A door following games subscribes
//     (Subscribe: a GameWatcher) and is told, in subscription order (the
//     TD, then the HTTP door), when a game starts, changes and ends, the
//     end after the PlayerDoor and after the records are written; a
//     DoorCloser is also told when the table closes (before its games
//     end, and after). The Director (SetDirector: the TD) is asked where
//     it has a say, and flushed after the games end at Close; the BotDoor
//     (SetBots) names the players of another door that telnet users may
//     `match`.
//   - The table imports no door (internal/layering).
//
// `kriegbot serve` is composed in cli/servecmd (the table, the telnet
// door, the TD, the HTTP door, in that order), kriegbot run's embedded
// server in server/loopback.
package server
