// Package cmdflag gives every kriegbot subcommand the same command-line
// behaviour: -h prints the usage and exits 0; a bad flag or argument prints one
// line naming the problem and exits 2.
package cmdflag
