package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"kriegbot/cli/beliefcmd"
	"kriegbot/cli/benchcmd"
	"kriegbot/cli/enginecmd"
	"kriegbot/cli/matchcmd"
	"kriegbot/cli/modelcmd"
	"kriegbot/cli/registercmd"
	"kriegbot/cli/replaycmd"
	"kriegbot/cli/replylosscmd"
	"kriegbot/cli/runcmd"
	"kriegbot/cli/servecmd"
	"kriegbot/cli/tourneycmd"
	"kriegbot/cli/umpirecmd"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/cmdflag"
)

// command is one subcommand: its name, a one-line summary and its entry point,
// which returns the exit code (0 success, 1 failure, 2 bad usage).
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"run", "the bot: plays wild 16 on a server (by default its own embedded one, against a sparring partner)", runcmd.Command},
		{"umpire", "referee tools: `umpire verify FILE` checks the umpire against fixture files", umpirecmd.Command},
		{"serve", "an ICC-compatible wild 16 server on loopback, for bots and telnet users", servecmd.Command},
		{"bench", "speed figures, one line each: perft, umpire, protocol, belief, search", benchcmd.Command},
		{"model", "opponent models: `model build -o FILE PGN...` from game records; show, eval, merge", modelcmd.Command},
		{"match", "engine-vs-engine matches in-process: W-L-D, Elo ± 95 %, SPRT, PGN, JSON Lines, shards", matchcmd.Command},
		{"belief", "belief tools: `belief check FILE...` measures soundness and calibration on fixture files", beliefcmd.Command},
		{"engine", "KEP, the Kriegspiel engine protocol, on standard input and output (for referees, GUIs, harnesses)", enginecmd.Command},
		{"tourney", "a local computer olympiad: the server's TD runs a Swiss or round robin between daemons; crosstable, PGN, HTML", tourneycmd.Command},
		{"register", "registers the bot on kriegspiel.org and stores its token (mode 0600, never printed)", registercmd.Command},
		{"replyloss", "reply models' log-loss on match files: approach C's against a policy on sampled boards (issue 42)", replylosscmd.Command},
		{"replay", "re-runs a logged game: belief heat maps, candidates, clocks per attempt; reports differing choices", replaycmd.Command},
		{"version", "the build: module version, VCS revision, toolchain, and the hash of the sources that decide play", versionCommand},
	}
}

// versionCommand runs "kriegbot version [-id]".
func versionCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	idOnly := fs.Bool("id", false, "print only the build id that game records carry")
	cmdflag.SetUsage(fs, "version [-id]",
		`Prints the build: module version, VCS revision, toolchain and platform, and the
hash of the sources that decide play (engine/, opponent/, go.mod). Game records
carry the build id; kriegbot replay warns when the play hash, toolchain or
platform differ. go run and go build of the same source have the same play hash.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return cmdflag.Fail(stderr, "version", "unexpected argument %q", fs.Arg(0))
	}
	in := buildinfo.Read()
	if *idOnly {
		fmt.Fprintln(stdout, in.ID())
		return cmdflag.OK
	}
	rev := in.Revision
	switch {
	case rev == "":
		rev = "not recorded (go run, or built without VCS information)"
	case in.Modified:
		rev += " (modified tree)"
	}
	fmt.Fprintf(stdout, "kriegbot %s\nrevision: %s\ngo:       %s %s\nplay:     %s (%d files: engine/, opponent/, go.mod)\nbuild id: %s\n",
		in.Version, rev, in.Go, in.Platform, in.Play, in.Files, in.ID())
	return cmdflag.OK
}

// Main runs kriegbot with the given arguments (without the program name) and
// returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		fmt.Fprintln(stderr, "kriegbot: missing command (kriegbot -h lists the commands)")
		return cmdflag.Usage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout, cmds)
		return 0
	}
	for _, c := range cmds {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "kriegbot: unknown command %q (kriegbot -h lists the commands)\n", args[0])
	return cmdflag.Usage
}

func usage(w io.Writer, cmds []command) {
	var sb strings.Builder
	sb.WriteString("kriegbot plays Kriegspiel (ICC wild 16) and hosts the tools around it.\n\n")
	sb.WriteString("usage: kriegbot COMMAND [flags] [args]\n\nCommands:\n")
	for _, c := range cmds {
		fmt.Fprintf(&sb, "  %-8s %s\n", c.name, c.summary)
	}
	sb.WriteString("\nRun kriegbot COMMAND -h for a command's flags.\n")
	io.WriteString(w, sb.String())
}
