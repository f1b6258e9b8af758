// Command kriegbot plays Kriegspiel (ICC wild 16) as a bot and hosts the tools
// around it. This file only dispatches subcommands; each lives in its package.
package main

import (
	"os"

	"kriegbot/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
