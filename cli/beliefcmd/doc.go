// Package beliefcmd is the `kriegbot belief` command: `belief check` replays
// referee fixture files through engine/belief/beliefcheck and prints its
// report.
package beliefcmd
