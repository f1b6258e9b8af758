// Package benchcmd is "kriegbot bench": the flags and the one line per
// figure around package bench, which measures them.
package benchcmd
