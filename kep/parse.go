package kep

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Kind says which command a line holds.
type Kind uint8

// Command kinds, one per KEP command from the driver. Empty is a blank line.
const (
	Empty Kind = iota
	Hello
	SetOption
	IsReady
	NewGame
	Go
	Illegal
	Legal
	Opponent
	GameOver
	Stop
	Quit
	PonderHit
	// Any answers our "Any?" (any yes|no).
	Any
	// OpponentIllegal is the opponent's refused attempt, made public by the
	// variant (opponent illegal); OpponentAny its "Any?" and the answer
	// (opponent any yes|no). Neither ends its turn.
	OpponentIllegal
	OpponentAny
)

var kindWords = [...]string{
	Empty:     "",
	Hello:     "kep",
	SetOption: "setoption",
	IsReady:   "isready",
	NewGame:   "newgame",
	Go:        "go",
	Illegal:   "illegal",
	Legal:     "legal",
	Opponent:  "opponent",
	GameOver:  "gameover",
	Stop:      "stop",
	Quit:      "quit",
	PonderHit: "ponderhit",
	Any:       "any",

	OpponentIllegal: "opponent illegal",
	OpponentAny:     "opponent any",
}

// String returns the command's word ("go", "legal").
func (k Kind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Line is one parsed line. Only the fields of its Kind are set.
type Line struct {
	Kind Kind
	// Name and Value are a setoption's option name and value (the value's
	// inner spaces kept, so that file names survive).
	Name, Value string
	// Color is the side a newgame gives the engine.
	Color chess.Color
	// Variant is the rule variant a newgame names (variant <name>); its
	// Name is "" when none is named: wild 16 under ICC's rules.
	Variant umpire.Variant
	// Verdict is an illegal line's word (IllegalMove; ImpossibleToAsk for
	// illegal impossible, NonsenseMove for illegal nonsense), and the
	// answer of an any or opponent any line (HasAny, NoAny).
	Verdict umpire.Verdict
	// Go holds a go's limits.
	Go GoLimits
	// Heard is what a legal or opponent line announced.
	Heard Announcement
	// Result and Reason end a game ("1-0", "checkmate").
	Result, Reason string
	// Extra lists the words the command does not know, which are ignored
	// (the engine logs them).
	Extra []string
}

// GoLimits are the limits of one go. Absent values are zero, with HasClock
// false for an absent wtime or btime.
type GoLimits struct {
	// Clock is each side's time left, indexed by chess.Color.
	Clock [2]time.Duration
	// HasClock says which clocks the go gave.
	HasClock [2]bool
	// Inc is each side's increment.
	Inc [2]time.Duration
	// MoveTime is a fixed thinking time.
	MoveTime time.Duration
	// Nodes bounds the search work.
	Nodes int64
	// Ponder is go ponder: think during the opponent's turn, answer
	// nothing (the other limits are kept for a ponderhit).
	Ponder bool
}

// MaxLine is the longest line the engine reads; longer lines are skipped.
// KEP lines are a few dozen bytes; the cap bounds memory against a broken
// or hostile driver.
const MaxLine = 64 << 10

// maxMillis bounds times in milliseconds (about 31 years) so that a
// time.Duration cannot overflow.
const maxMillis = 1 << 40

// maxTries is the most pawn tries a position can have: 8 pawns, 2 captures
// each.
const maxTries = 16

// errWords is the prefix of errors about the arguments.
var errWords = errors.New("kep: bad arguments")

// ParseLine reads one line (without its line end; a trailing "\r" and
// surrounding blanks are ignored). Words are separated by spaces or tabs.
// An unknown command or a known one with bad arguments returns an error that
// says which word is wrong; unknown extra words are returned in
// Line.Extra.
func ParseLine(line string) (Line, error) {
	var c Line
	words := strings.Fields(line)
	if len(words) == 0 {
		return c, nil
	}
	switch words[0] {
	case "kep":
		c.Kind = Hello
	case "isready":
		c.Kind = IsReady
	case "illegal":
		c.Kind = Illegal
		if len(words) > 1 {
			if v, ok := refusalWords[words[1]]; ok {
				c.Verdict = v
				words = words[1:]
			}
		}
	case "any":
		c.Kind = Any
		return c, parseAnyAnswer(&c, words[1:])
	case "stop":
		c.Kind = Stop
	case "quit":
		c.Kind = Quit
	case "ponderhit":
		c.Kind = PonderHit
	case "setoption":
		c.Kind = SetOption
		return c, parseSetOption(&c, line)
	case "newgame":
		c.Kind = NewGame
		if len(words) < 2 {
			return c, fmt.Errorf("%w: newgame needs white or black", errWords)
		}
		switch words[1] {
		case "white":
			c.Color = chess.White
		case "black":
			c.Color = chess.Black
		default:
			return c, fmt.Errorf("%w: newgame colour %q is not white or black", errWords, clip(words[1]))
		}
		return c, parseNewGameVariant(&c, words[2:])
	case "go":
		c.Kind = Go
		return c, parseGo(&c, words[1:])
	case "legal":
		c.Kind = Legal
		return c, parseAnnouncement(&c, words[1:])
	case "opponent":
		c.Kind = Opponent
		if len(words) > 1 {
			switch words[1] {
			case "illegal":
				c.Kind = OpponentIllegal
				c.Extra = extra(words[2:])
				return c, nil
			case "any":
				c.Kind = OpponentAny
				return c, parseAnyAnswer(&c, words[2:])
			}
		}
		return c, parseAnnouncement(&c, words[1:])
	case "gameover":
		c.Kind = GameOver
		if len(words) < 2 {
			return c, fmt.Errorf("%w: gameover needs a result", errWords)
		}
		switch words[1] {
		case "1-0", "0-1", "1/2-1/2", "*":
		default:
			return c, fmt.Errorf("%w: gameover result %q is not 1-0, 0-1 or 1/2-1/2", errWords, clip(words[1]))
		}
		c.Result = words[1]
		c.Reason = strings.Join(words[2:], " ")
		return c, nil
	default:
		return c, fmt.Errorf("kep: unknown command %q", clip(words[0]))
	}
	c.Extra = extra(words[1:])
	return c, nil
}

// refusalWords are the words after illegal that name a refusal of an
// attempt off the askable list, in the variants that word it so.
var refusalWords = map[string]umpire.Verdict{"impossible": umpire.ImpossibleToAsk, "nonsense": umpire.NonsenseMove}

// parseAnyAnswer reads the answer to "Any?": yes (the asker has a pawn
// capture) or no.
func parseAnyAnswer(c *Line, words []string) error {
	if len(words) == 0 {
		return fmt.Errorf("%w: %s needs yes or no", errWords, c.Kind)
	}
	switch words[0] {
	case "yes":
		c.Verdict = umpire.HasAny
	case "no":
		c.Verdict = umpire.NoAny
	default:
		return fmt.Errorf("%w: %s answer %q is not yes or no", errWords, c.Kind, clip(words[0]))
	}
	c.Extra = extra(words[1:])
	return nil
}

// parseNewGameVariant reads the words after a newgame's colour: variant
// <name> names one of kriegspiel.org's variants; other words are extra.
func parseNewGameVariant(c *Line, words []string) error {
	for i := 0; i < len(words); i++ {
		if words[i] != "variant" {
			c.Extra = append(c.Extra, words[i])
			continue
		}
		if c.Variant.Name != "" {
			return fmt.Errorf("%w: newgame variant given twice", errWords)
		}
		if i+1 >= len(words) {
			return fmt.Errorf("%w: newgame variant needs a name (%s)", errWords, strings.Join(umpire.VariantNames(), ", "))
		}
		i++
		v, err := umpire.ParseVariant(words[i])
		if err != nil || words[i] != v.Name {
			return fmt.Errorf("%w: newgame variant %q is not one of %s", errWords, clip(words[i]), strings.Join(umpire.VariantNames(), ", "))
		}
		c.Variant = v
	}
	return nil
}

// extra returns the unknown trailing words, nil for none.
func extra(ws []string) []string {
	if len(ws) == 0 {
		return nil
	}
	return ws
}

// parseSetOption reads "setoption name <id> value <v>". The name may hold
// several words (as in UCI); the value is the rest of the raw line after the
// word "value", so inner spaces of a file name survive.
func parseSetOption(c *Line, line string) error {
	spans := wordSpans(line) // spans[0] is "setoption"
	if len(spans) < 3 || line[spans[1][0]:spans[1][1]] != "name" {
		return fmt.Errorf("%w: setoption needs name <id> value <v>", errWords)
	}
	var name []string
	i := 2
	for ; i < len(spans); i++ {
		w := line[spans[i][0]:spans[i][1]]
		if w == "value" {
			break
		}
		name = append(name, w)
	}
	if len(name) == 0 {
		return fmt.Errorf("%w: setoption has no option name", errWords)
	}
	c.Name = strings.Join(name, " ")
	if i+1 < len(spans) {
		c.Value = strings.TrimSpace(line[spans[i+1][0]:])
	}
	return nil
}

// wordSpans returns the byte ranges of the words of s, split as
// strings.Fields splits them.
func wordSpans(s string) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				spans = append(spans, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(s)})
	}
	return spans
}

// The keywords of go.
var goWords = []string{"wtime", "btime", "winc", "binc", "movetime", "nodes"}

// parseGo reads a go's keyword-value pairs in any order.
func parseGo(c *Line, words []string) error {
	g := &c.Go
	var seen uint8 // one bit per keyword of goWords
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "ponder" { // a flag, without a value
			g.Ponder = true
			continue
		}
		k := slices.Index(goWords, w)
		if k < 0 {
			c.Extra = append(c.Extra, w)
			continue
		}
		if seen&(1<<k) != 0 {
			return fmt.Errorf("%w: go %s given twice", errWords, w)
		}
		seen |= 1 << k
		if i+1 >= len(words) {
			return fmt.Errorf("%w: go %s needs a number", errWords, w)
		}
		i++
		v, err := strconv.ParseInt(words[i], 10, 64)
		if err != nil {
			return fmt.Errorf("%w: go %s %q is not an integer", errWords, w, clip(words[i]))
		}
		if w == "nodes" {
			if v < 0 {
				return fmt.Errorf("%w: go nodes %d is negative", errWords, v)
			}
			g.Nodes = v
			continue
		}
		// A clock below zero (a driver that lets a flag fall) counts as zero.
		if v > maxMillis || v < -maxMillis {
			return fmt.Errorf("%w: go %s %d is out of range", errWords, w, v)
		}
		d := time.Duration(max(v, 0)) * time.Millisecond
		switch w {
		case "wtime":
			g.Clock[chess.White], g.HasClock[chess.White] = d, true
		case "btime":
			g.Clock[chess.Black], g.HasClock[chess.Black] = d, true
		case "winc":
			g.Inc[chess.White] = d
		case "binc":
			g.Inc[chess.Black] = d
		case "movetime":
			g.MoveTime = d
		}
	}
	return nil
}

// parseSquare reads a lower-case square name such as "e4".
func parseSquare(s string) (chess.Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return chess.NoSquare, false
	}
	return chess.NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// checkKinds maps KEP's check words to the referee's kinds.
var checkKinds = map[string]chess.CheckKind{
	"rank":   chess.CheckRank,
	"file":   chess.CheckFile,
	"long":   chess.CheckLongDiagonal,
	"short":  chess.CheckShortDiagonal,
	"knight": chess.CheckKnight,
}

// checkWord is the KEP word of a check kind.
func checkWord(k chess.CheckKind) string {
	switch k {
	case chess.CheckRank:
		return "rank"
	case chess.CheckFile:
		return "file"
	case chess.CheckLongDiagonal:
		return "long"
	case chess.CheckShortDiagonal:
		return "short"
	case chess.CheckKnight:
		return "knight"
	}
	return ""
}

// clip shortens a word quoted in an error, so that a 60 KiB word does not
// become a 60 KiB log line.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
