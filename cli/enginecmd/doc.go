// Package enginecmd is the `kriegbot engine` command: KEP (engine/kep) on
// standard input and output, the log on standard error.
package enginecmd
