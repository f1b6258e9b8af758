// Package enginecmd is the `kriegbot engine` command: KEP (package kep) on
// standard input and output, the log on standard error.
package enginecmd
