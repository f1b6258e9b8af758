// Package bot is the daemon behind `kriegbot run`: one bot account on a chess
// server (ICC, or kriegbot's own embedded server), playing wild 16 unattended.
//
// A Daemon keeps an iccclient.Session alive (reconnecting with exponential
// backoff and jitter; a refused password is final), answers challenges by its
// policy (wild 16 only, time controls, rated or not, ratings, allow and block
// lists, a concurrency cap that a burst of challenges cannot exceed, rematch
// limits; policy.go), seeks or challenges when idle, and plays each game
// through the server-neutral game driver (package driver), translating the
// wire to it and back. One game loop (gameloop.go) starts, drives and
// finishes the games of both backends, each game's tracker (package track)
// behind it: ICC's (games.go) and the kriegspiel.org API's (kriegspiel.go,
// ks*.go). On ICC:
//
//   - an iccgame.Tracker turns the wire (DG 24 with "?"/"?x<sq>" hidden
//     moves, DG 42, DG 56, DG 139, DG 16 and the referee's text lines) into
//     the referee answers the player hears, closing an answer only when a
//     later message (or a quiet period) shows it is complete; referee text
//     without a game number goes to the one game waiting for an answer;
//   - the driver searches each attempt in its own goroutine under a budget
//     from the game's clock.Turn (clock, increment, retries expected,
//     measured lag, move overhead), while the session goes on being read; a
//     search that ends after its game ended, or after the turn moved on,
//     sends nothing;
//   - a desync (a move we did not send, a hidden move on our turn, a silent
//     game while our clock runs) asks for the move list and rebuilds the
//     player from it;
//   - after a reconnection, a game the server does not give back is asked
//     about ("moves N", movelists.go): the server's result and moves are
//     recorded, or "*" if it knows no such game (restarted), never a loss
//     made up; a finished game's move list lost with a connection is asked
//     for again, a bounded number of times; a game given back under a held
//     game's number goes on in its record only if it is that game (same
//     players, colours and control, and a move list that continues it;
//     resume.go), else the held game ends with "*" and the new one gets a
//     record of its own (a restarted server numbers games from 1 again);
//   - seek ads seen while busy are kept (until DG 51 removes them) and
//     answered once the bot is free;
//   - value-based resignation and draw acceptance (players that report a
//     value), aborting when the opponent never moves, a greeting that says it
//     is a computer, and never a word of search output to the opponent.
//
// In computer tournaments the entrant (entrant.go), a state machine with no
// I/O, takes the TD's lines and the games' starts and ends and says what to
// send; tourney.go carries it out.
//
// The owner commands it by tell (one table, owner.go: status, pause, resume,
// softquit, hardquit, seek on|off, set KEY VALUE for whitelisted keys);
// anyone else gets one polite refusal an hour. Every game leaves a JSON
// Lines record (package record: each attempt, answer, announcement and
// clock, the seed, search statistics) written line by line, a PGN with the
// referee's words once the server reveals the moves, and a line on the
// console; the connection's raw transcript has the password masked. After
// each game its opponent's model (package opponent) learns the game's moves.
package bot
