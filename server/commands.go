package server

import (
	"fmt"
	"strings"
	"time"
)

// Command numbers in level-1 unit headers. ICC's own CN_* values are not in
// our notes; these are ours, documented in docs/iccserver.md. 0 marks
// output the server sends on its own (clocks, disconnections).
const (
	cnServer = 0
	cnMove   = 1
	cnOther  = 2 // an unknown command
)

// argShape is what a command takes after its name. A line that does not
// fit is answered "Usage: <usage>" and the command does not run.
type argShape uint8

const (
	argsNone       argShape = iota // nothing; extra words are ignored
	argsAny                        // any words, read by the command itself
	argsOne                        // exactly one word
	argsTwo                        // exactly two words
	argsSome                       // at least one word
	argsHandleText                 // a handle, then text
	argsText                       // the rest of the line, as text
)

func (a argShape) fits(n int) bool {
	switch a {
	case argsOne:
		return n == 1
	case argsTwo:
		return n == 2
	case argsSome:
		return n >= 1
	case argsHandleText:
		return n >= 2
	}
	return true
}

// cmdInput is one command line, cut up for its handler.
type cmdInput struct {
	cmd  *command
	word string   // the name as typed, lower case (an alias, perhaps)
	rest string   // the line after the name, trimmed
	args []string // rest split into words
}

// command is one command of a logged-in client: the table below is the
// only place a command is named, numbered, described and dispatched.
type command struct {
	name    string
	aliases []string
	cn      int      // command number in level-1 unit headers
	args    argShape // checked before run
	usage   string   // "name <args>", for help and usage errors
	help    string   // what it does, for help; "" leaves it out of help
	inGame  bool     // refused outside a game ("You are not playing a game.")
	fanout  bool     // reaches other players: paid from the sender's budget
	run     func(tel *telnetDoor, ev *Events, c *Client, in cmdInput)
}

// commandTable lists the commands in the order help shows them.
func commandTable() []command {
	return []command{
		{name: "seek", cn: 22, args: argsAny, usage: "seek <min> <inc> [r|u] [white|black] [a|m] [min-max]",
			help: "advertise a game", fanout: true, run: (*telnetDoor).cmdSeek},
		{name: "unseek", cn: 27, args: argsAny, usage: "unseek [n]", help: "remove your seek ads (or ad n)", fanout: true, run: (*telnetDoor).cmdUnseek},
		{name: "sought", cn: 25, usage: "sought", help: "list the seek ads", run: (*telnetDoor).cmdSought},
		{name: "play", cn: 18, args: argsOne, usage: "play <index>", help: "answer a seek ad", fanout: true, run: (*telnetDoor).cmdPlay},
		{name: "match", cn: 16, args: argsAny, usage: "match <handle> <min> <inc> [r|u] [white|black]",
			help: "challenge a player (alone: withdraw your offers)", fanout: true, run: (*telnetDoor).cmdMatch},
		{name: "accept", cn: 11, args: argsAny, usage: "accept [handle]", help: "accept a challenge", run: (*telnetDoor).cmdAccept},
		{name: "decline", cn: 12, args: argsAny, usage: "decline [handle|draw]", help: "decline a challenge or a draw offer", fanout: true, run: (*telnetDoor).cmdDecline},
		{name: "moves", cn: 17, args: argsAny, usage: "moves [game number]",
			help: "the move list as you may see it (all once it is over)", run: (*telnetDoor).cmdMoves},
		{name: "board", aliases: []string{"refresh"}, cn: 29, usage: "board", help: "your men and the clocks", inGame: true, run: (*telnetDoor).cmdBoard},
		{name: "draw", cn: 13, usage: "draw", help: "offer a draw, or accept your opponent's offer", inGame: true, fanout: true, run: (*telnetDoor).cmdDraw},
		{name: "abort", cn: 10, usage: "abort", help: "abort: alone before both have moved, else agreed", inGame: true, fanout: true, run: (*telnetDoor).cmdAbort},
		{name: "resign", cn: 20, usage: "resign", help: "resign the game", inGame: true, run: (*telnetDoor).cmdResign},
		{name: "say", cn: 21, args: argsText, usage: "say <text>", help: "talk to your opponent", inGame: true, fanout: true, run: (*telnetDoor).cmdSay},
		{name: "tell", aliases: []string{"xtell"}, cn: 26, args: argsHandleText, usage: "tell <handle> <text>", help: "talk to a player", fanout: true, run: (*telnetDoor).cmdTell},
		{name: "td", cn: 33, args: argsText, usage: "td <command>", help: "tell the tournament director (td help)", run: (*telnetDoor).cmdTD},
		{name: "who", cn: 28, usage: "who", help: "the players logged in", run: (*telnetDoor).cmdWho},
		{name: "games", cn: 14, usage: "games", help: "the games in progress", run: (*telnetDoor).cmdGames},
		{name: "set", aliases: []string{"set-quietly"}, cn: 23, args: argsSome, usage: "set <variable> <value>",
			help: "set level1, prompt (0 or 1) or style", run: (*telnetDoor).cmdSet},
		{name: "set-2", cn: 24, args: argsTwo, usage: "set-2 <dg> <0|1>", help: "turn a datagram off or on", run: (*telnetDoor).cmdSet2},
		{name: "multi", cn: 30, args: argsText, usage: "multi <command>; <command>...", help: "run several commands", run: (*telnetDoor).cmdMulti},
		{name: "date", cn: 31, usage: "date", help: "the server's time", run: (*telnetDoor).cmdDate},
		{name: "z", cn: 32, usage: "z", run: (*telnetDoor).cmdZ},
		{name: "help", cn: 15, usage: "help", help: "this list", run: (*telnetDoor).cmdHelp},
		{name: "quit", aliases: []string{"exit"}, cn: 19, usage: "quit", help: "log out (in a game, you lose it)", run: (*telnetDoor).cmdQuit},
	}
}

// telnetDoor is the telnet door's commands and logins: its state, guarded
// by the server's lock, and its methods. The connections themselves
// (client.go, accept and dropped) and what the table sends players
// (game.go) are still the server's. Each "s." in its methods is a use of
// the game table.
type telnetDoor struct {
	s         *Server
	cmds      commandSet             // the command table, by name
	nextGuest int                    // the last guest number given
	failures  map[string][]time.Time // failed logins per remote host
}

// commandSet is the table indexed by name and alias, with the help text
// made from it. Each server builds its own.
type commandSet struct {
	byName map[string]*command
	help   []string
}

func newCommandSet() commandSet {
	table := commandTable()
	cs := commandSet{byName: map[string]*command{}}
	cs.help = []string{
		"kriegbot serve plays wild 16 (Kriegspiel): you see only your own men; the referee",
		"answers each attempt. Type moves in coordinate form: e2e4, e1g1 (castling), e7e8q.",
		"Commands:",
	}
	for i := range table {
		cmd := &table[i]
		for _, name := range append([]string{cmd.name}, cmd.aliases...) {
			if cs.byName[name] != nil {
				panic("server: command " + name + " listed twice")
			}
			cs.byName[name] = cmd
		}
		if cmd.help == "" {
			continue
		}
		// "tell|xtell <handle> <text>"
		left := strings.Join(append([]string{cmd.name}, cmd.aliases...), "|") + strings.TrimPrefix(cmd.usage, cmd.name)
		if len(left) > 24 {
			cs.help = append(cs.help, "  "+left)
			left = ""
		}
		cs.help = append(cs.help, fmt.Sprintf("  %-24s %s", left, cmd.help))
	}
	return cs
}

// handleLine runs one input line; false means the client quit.
func (tel *telnetDoor) handleLine(c *Client, raw []byte) bool {
	s := tel.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if c.closed() {
		return false
	}
	line := strings.TrimSpace(string(raw))
	switch c.state {
	case stLogin:
		return tel.loginLine(c, line)
	case stPassword:
		return tel.passwordLine(c, line)
	}
	if line == "" {
		return true
	}
	c.lastActive = s.cfg.Now()
	tag := ""
	if strings.HasPrefix(line, "`") {
		if end := strings.IndexByte(line[1:], '`'); end >= 0 && end <= 99 {
			tag, line = line[1:1+end], strings.TrimSpace(line[2+end:])
		}
	}
	if c.level1&4 == 0 {
		tag = ""
	}
	if strings.HasPrefix(strings.ToLower(line), "multi ") {
		line = strings.TrimSpace(line[len("multi "):])
	}
	for _, part := range strings.Split(line, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !tel.command(c, part, tag) {
			return false
		}
	}
	return true
}

// command runs one command of a logged-in client: a move, or a line of the
// command table. It reports false when the client quit.
func (tel *telnetDoor) command(c *Client, line, tag string) bool {
	s := tel.s
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	word = strings.ToLower(word)
	cmd := tel.cmds.byName[word]
	ev := s.newEvents()
	ev.issuer, ev.tag = c, tag
	ev.cn = cnOther
	if cmd != nil {
		ev.cn = cmd.cn
	}
	ev.touch(c)
	defer ev.flush()

	// A move: coordinate form only, as wild 16 requires (e2e4, e7e8q, e7e8=Q).
	if m, ok := parseMoveWord(line); ok {
		ev.cn = cnMove
		if c.game == nil {
			ev.text(c, "You are not playing a game.")
			return true
		}
		s.attempt(ev, c, m, line)
		return true
	}
	if cmd == nil {
		ev.text(c, fmt.Sprintf("No such command (%s). Type \"help\" for the commands.", word))
		return true
	}
	in := cmdInput{cmd: cmd, word: word, rest: rest, args: strings.Fields(rest)}
	if cmd.inGame && c.game == nil {
		ev.text(c, "You are not playing a game.")
		return true
	}
	if !cmd.args.fits(len(in.args)) {
		ev.usage(c, in)
		return true
	}
	if cmd.fanout {
		if !tel.spend(ev, c) {
			return true
		}
		ev.charge = true
	}
	cmd.run(tel, ev, c, in)
	return !ev.hangup
}

// usage answers a command line that does not fit the command.
func (ev *Events) usage(c *Client, in cmdInput) {
	ev.text(c, "Usage: "+in.cmd.usage)
}

func (tel *telnetDoor) cmdHelp(ev *Events, c *Client, _ cmdInput) {
	for _, l := range tel.cmds.help {
		ev.text(c, l)
	}
}

// cmdMulti is reached only by "multi" with nothing after it: the commands
// of "multi cmd1; cmd2" are split off before dispatch.
func (tel *telnetDoor) cmdMulti(ev *Events, c *Client, in cmdInput) {
	ev.usage(c, in)
}

func (tel *telnetDoor) cmdQuit(ev *Events, c *Client, _ cmdInput) {
	if c.game != nil && c.game.result == "" {
		ev.text(c, "You leave during a game: as on ICC, a Kriegspiel game is not adjourned.")
	}
	ev.text(c, "Thank you for using kriegbot serve.")
	ev.flush()
	c.sendRaw([]byte{0x19, ']'})
	ev.hangup = true
}
