// Package backoff spaces out retries: each failure doubles the delay within
// [Min, Max], each wait is drawn with jitter from the upper half of the
// delay (so a server restart does not see every client come back in the
// same second), and a success, or a session that lasted, starts again from
// Min. The randomness is the caller's, so a seeded source makes the delays
// reproducible.
//
// Both backends of the daemon use it: the ICC reconnections, and the
// kriegspiel.org requests and event streams.
package backoff
