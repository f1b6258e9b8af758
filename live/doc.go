// Package live is the operator's page: what the bot is doing now, served
// read-only over HTTP on loopback (`kriegbot run -http 127.0.0.1:8080`).
//
// The daemon publishes a Snapshot after each referee answer and each search
// (Server.Publish); the page shows the games in progress with their clocks,
// our men, the belief's heat maps and the last search's top candidates, the
// finished games with links to their replay pages, and the score. The page
// re-reads /state.json every second and redraws what changed. Nothing on it
// can change the bot, and no secret (password, token) is ever in a snapshot.
// Requests whose Host header does not name the address it listens on (or a
// name given with run -http-host) get 421, so that a web page the operator
// visits cannot read it through DNS rebinding.
package live
