// Package httpdoor is the game table's HTTP door: the kriegspiel.org bot
// API (docs/kriegspiel-org-api.md) over the same games, seek ads and lock
// as the telnet door. A bot's lobby game is a seek ad telnet users can
// play, a telnet seek is a lobby game bots can join, and a game may have a
// telnet client in one seat and an HTTP bot in the other.
//
// The door reaches the table (package server) only through its API: it
// takes the table's lock around each use, subscribes to the games it
// follows (their event streams) and to the table's Close, and is the
// table's BotDoor, whose bots telnet users `match`. Its pure parts are
// server/kshttp (routes, tokens, game references, bodies, the referee as
// the site shows it) and protocol/ksapi (the site's JSON).
// docs/kriegspiel-org.md says what it implements and where it differs
// from the site.
package httpdoor
