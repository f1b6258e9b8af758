// Package registercmd is "kriegbot register": it registers the bot on
// kriegspiel.org (POST /auth/bots/register) and stores the token it is
// given, once, in a file only its owner can read. The token is never
// printed.
package registercmd
