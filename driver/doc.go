// Package driver is the game driver: one value per game, the same for every
// server backend (ICC's session, kriegspiel.org's HTTP API), for kriegbot
// match, for KEP (`kriegbot engine`) and for replay.
//
// A Game owns the player, the game's clock.Turn, the record writer, the
// resignation and draw decisions, and the search goroutine. A backend turns
// its wire into referee events (players.Event: umpire.View answers and
// clocks) and game facts, hands them to Hear, asks Act when the wire says an
// attempt of ours is due, and sends what the returned Actions say (an
// attempt, a resignation, a draw acceptance) in its own protocol. Finished
// searches come back on the channel the backend gave New, as Thoughts,
// which Done turns into the attempt to send. A harness that waits for the
// search (kriegbot match, each side its own Game; KEP, on a goroutine it
// can cancel) calls Think instead of Act: the same plan, ponder and
// record, the search on its goroutine. KEP's go lines bring each
// attempt's own limits (Situation.Ask, Situation.Nodes) and say when to
// ponder (Ponder, StopPonder).
//
// Nothing here knows a wire format, a socket or a server's game numbers
// beyond the record's.
package driver
