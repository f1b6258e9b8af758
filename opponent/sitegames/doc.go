// Package sitegames fetches finished games from kriegspiel.org (or a
// server of ours speaking its API) and keeps them, one JSON Lines file per
// rule variant, for building opponent models from the people the bot meets.
//
// The fetcher is a polite guest: one request at a time with a pause between
// requests, Retry-After and 429/503 honoured with a growing back-off, and a
// clean stop when its context ends. Each transcript is fetched once: the
// store knows every game id it holds, so a run cut short (Ctrl-C, kill -9)
// resumes where it stopped.
package sitegames
