// Package umpirecmd is the `kriegbot umpire` command: `umpire verify` replays
// referee fixture files (plain or gzip, or standard input) through
// engine/umpire/fixture and prints the mismatches.
package umpirecmd
