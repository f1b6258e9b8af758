// Package beliefcheck replays referee fixture games (the umpire fixture
// schema) through two beliefs, one per side, each hearing only what that side
// hears, and measures them: soundness (every opponent unit's true square keeps
// a non-zero chance in its class's matrix after every update) and calibration
// (log-loss of the predicted legality, capture and check messages of each
// attempt against the constant predictor fitted on the same data), and prints its
// Report. RunVariants does the same for the variant fixtures of
// kriegspiel.org (engine/umpire/testdata/variants), one variant per file, and
// also checks crazykrieg's pockets. The command "kriegbot belief check" is
// cli/beliefcmd.
package beliefcheck
