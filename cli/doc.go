// Package cli maps kriegbot's subcommands to the functions that run them and
// prints the overall usage. It holds no logic of its own beyond dispatch.
package cli
