// Package matchcmd is "kriegbot match" and its merge and stats subcommands:
// the flags, the usage, the files, the progress line and the summary around
// match.Run (the library that plays and measures the games).
package matchcmd
