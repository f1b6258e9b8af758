// Package kep implements KEP, the line protocol by which a Kriegspiel referee,
// GUI or tournament harness drives an engine over stdin/stdout the way UCI
// drives a chess engine (docs/kep.md specifies it, with the
// options and an example session). `kriegbot engine` (cli/enginecmd) calls Run.
//
// The package has three parts:
//
//   - ParseLine turns one input line into a Line. It is a parser of outside
//     bytes: it never panics, bounds its work by the line's length, and reports
//     bad arguments as errors; unknown words are returned, not fatal.
//   - Announcement is what the referee announced after a legal move (capture,
//     checks, pawn news, and the variants' en passant, promotion and drop),
//     both as a KEP line and as the umpire.View a player hears. Its String
//     is the driver's side; DriverLine writes a driver's whole line for an
//     umpire answer (the tests' referee uses it).
//
// A game is wild 16 unless newgame names one of kriegspiel.org's variants
// (umpire.Variant); each of its answers (a refusal in the variant's word,
// "Any?" and its answer, the opponent's public refusals) reaches the player
// as the umpire.View the umpire gives that side, as in kriegbot match.
//   - Run is the engine loop: a reader goroutine reads lines (skipping any
//     longer than MaxLine), the loop keeps the game's phase and drives the
//     player through the daemon's game driver (driver.Game, one per game:
//     the one time policy and the one ponder goroutine, which the daemon and
//     `kriegbot match` use too). Each search is the driver's synchronous
//     Think on a goroutine of its own under a cancelable context, so that
//     stop, isready and quit are answered while it thinks.
//     Lines take effect in order: one that needs the player while a search
//     runs waits (in a bounded queue) for the search to end, so a driver that
//     sends a whole script at once gets the same attempts as one that waits
//     for each; stop and quit never wait. Only the loop writes to the output,
//     one protocol line at a time; every diagnostic goes to the log
//     (zerolog, the project's one logger, in its console form).
//
// Events that do not fit the game's phase (a legal with no attempt pending,
// an opponent move while we are to move, ...) are logged and not passed on:
// the player only ever hears a sequence that a real referee could produce.
// A go is the exception: it is always answered with exactly one attempt
// while a game exists, because a driver that waits for it must not hang.
package kep
