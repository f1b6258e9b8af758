// Package loopback composes the server a program starts for its own use
// (kriegbot run's embedded server): the game table
// with its telnet door on one address, throw-away registered accounts,
// and the HTTP door, which the daemon opens when it plays the
// kriegspiel.org protocol against itself. cli/runcmd hands it (through
// servecmd.StartEmbedded) to the daemon (bot.Setup), so that the daemon
// imports no server.
package loopback
