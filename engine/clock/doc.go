// Package clock is the time manager: it turns a chess clock (time left,
// increment, move number) into a budget for one Kriegspiel attempt.
//
// Kriegspiel differs from chess in one way that matters here: a turn may take
// several attempts, because the referee answers "Illegal move" and the clock
// keeps running while the player tries again (ICC wild 16). The manager
// therefore splits a move's share of the clock over the attempts still
// expected this turn, and keeps a reserve so that a run of refusals cannot
// flag the player:
//
//   - a move's share is the time left over an estimated number of moves to go
//     (long Kriegspiel games: at least MinMovesToGo) plus most of the increment;
//   - the share is spread over 1 + the illegal retries still expected this turn
//     (a running average of refusals per turn, which Tracker keeps);
//   - the move overhead (network lag, process wake-up) is paid out of every
//     attempt, and the reserve holds the overheads of a long turn (four
//     average turns' attempts): berkeley, which says nothing of pawn tries,
//     has turns of forty refusals;
//   - once a turn has had more refusals than expected, each further one
//     shrinks the next attempt's floor (a quarter of the move's share) by a
//     fifth, so a turn's thought is bounded however many attempts the referee
//     refuses;
//   - no attempt's hard limit exceeds a fixed fraction of what is left after the
//     reserve, so the remaining time shrinks geometrically;
//   - below the emergency line the plan asks for an instant answer, with a
//     sliver of thought out of a quarter of the increment per turn.
//
// Control is a time control. People write it as servers show it, a bare
// 1+1 being a minute and a second, or with units (1m+1s, 10s+0.1s): ParseTC
// reads that and Text writes it. Records and match files keep PGN's
// TimeControl form in seconds ("60+1"): String writes it, ParseControl
// reads it.
//
// Policy is the one time policy every harness plays (the daemon's game
// driver, kriegbot match, KEP): the manager's constants from one place, and
// Plan, which budgets an attempt on a clock, at a fixed move time or to a
// deadline. engine/think runs the search and the ponder under it.
package clock
