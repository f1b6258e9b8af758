// Package tddoor is the game table's tournament director: a built-in
// account (Config.Handle, "TD") that players tell, running events with
// the tourney package, ICC's way (DG 63, the tourney-set line, TD
// messages as tells) or FICS's (mamer's qtell lines); the rules are in
// docs/tournaments.md ("The TD of kriegbot serve").
//
// The TD reaches the table (package server) only through its API: it is
// the table's Director, which the table asks where the TD has a say
// (logins, tells to it, offers and seek ads during a pairing,
// disconnections from a TD game), and a GameWatcher that follows every
// game (the first one subscribed: New before the HTTP door). It speaks to
// users in the table's Events batches, starts the paired games with
// StartTourneyGame and keeps its events in Config.Dir; its event pages
// are served by the HTTP door (httpdoor.Config.Pages = ServeTourney).
// Its pure parts are server/td (event specs, numbers, files and pages)
// and the tourney package.
package tddoor
