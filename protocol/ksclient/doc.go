// Package ksclient is kriegbot's client of the kriegspiel.org bot API
// (shared/kriegspiel-org/API.md; docs/kriegspiel-org.md says what we follow
// and what we guess): plain net/http and encoding/json, no SDK.
//
// It has three layers, each testable alone:
//
//   - checks of what the site sends (JSON replies, error envelopes, the
//     server-sent event stream, all declared in protocol/ksapi): pure
//     functions over bounded bytes that tolerate unknown fields and refuse
//     malformed values with an error;
//   - Client: one HTTP exchange per call, with the bearer token, a time
//     limit, a classification of failures (Retryable, Unauthorized,
//     RetryAfter) and a transcript of every request and reply in which the
//     token is masked;
//   - Tracker: one game's referee view, which turns the state's scoresheet
//     and our move results into the player's events (umpire.View answers
//     and clocks), decides whether an attempt may be sent (allowed_moves,
//     never one refused this turn) and notices the game's end.
//
// The daemon loop that uses them (lobby, polling, event streams, backoff)
// lives in package bot, as the ICC backend does.
package ksclient
