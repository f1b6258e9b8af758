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

// Announcement is what the referee announces after a legal move, as KEP's
// legal and opponent lines carry it.
type Announcement struct {
	Capture umpire.Capture
	// Checks holds the check kinds in the order given, NoCheck-padded.
	Checks [2]chess.CheckKind
	// Tries is the pawn-try count announced to the side now to move.
	Tries int
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
		c.Extra = extra(words[2:])
		return c, nil
	case "go":
		c.Kind = Go
		return c, parseGo(&c, words[1:])
	case "legal", "opponent":
		c.Kind = Legal
		if words[0] == "opponent" {
			c.Kind = Opponent
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

// The keywords of go and of an announcement.
var (
	goWords           = []string{"wtime", "btime", "winc", "binc", "movetime", "nodes"}
	announcementWords = []string{"capture", "check", "tries"}
)

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

// parseAnnouncement reads "[capture <sq> pawn|piece] [check <kinds>]
// [tries <n>]" in any order.
func parseAnnouncement(c *Line, words []string) error {
	a := &c.Heard
	var seen uint8 // one bit per keyword of announcementWords
	for i := 0; i < len(words); i++ {
		w := words[i]
		k := slices.Index(announcementWords, w)
		if k < 0 {
			c.Extra = append(c.Extra, w)
			continue
		}
		if seen&(1<<k) != 0 {
			return fmt.Errorf("%w: %s given twice", errWords, w)
		}
		seen |= 1 << k
		switch w {
		case "capture":
			if i+2 >= len(words) {
				return fmt.Errorf("%w: capture needs a square and pawn or piece", errWords)
			}
			sq, ok := parseSquare(words[i+1])
			if !ok {
				return fmt.Errorf("%w: capture square %q is not a square", errWords, clip(words[i+1]))
			}
			a.Capture.Square = sq
			switch words[i+2] {
			case "pawn":
				a.Capture.Kind = umpire.PawnCaptured
			case "piece":
				a.Capture.Kind = umpire.PieceCaptured
			default:
				return fmt.Errorf("%w: capture kind %q is not pawn or piece", errWords, clip(words[i+2]))
			}
			i += 2
		case "check":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: check needs its kinds", errWords)
			}
			i++
			kinds := strings.Split(words[i], ",")
			if len(kinds) > 2 {
				return fmt.Errorf("%w: check %q names more than two kinds", errWords, clip(words[i]))
			}
			for j, k := range kinds {
				ck, ok := checkKinds[k]
				if !ok {
					return fmt.Errorf("%w: check kind %q is not rank, file, long, short or knight", errWords, clip(k))
				}
				a.Checks[j] = ck
			}
		case "tries":
			if i+1 >= len(words) {
				return fmt.Errorf("%w: tries needs a number", errWords)
			}
			i++
			n, err := strconv.Atoi(words[i])
			if err != nil || n < 0 || n > maxTries {
				return fmt.Errorf("%w: tries %q is not a number from 0 to %d", errWords, clip(words[i]), maxTries)
			}
			a.Tries = n
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

// AnnouncementOf returns what a referee's answer, as one side hears it,
// announced after a legal move. A game-ending answer announces no tries
// (View.PawnTries is -1): the count is zero.
func AnnouncementOf(v umpire.View) Announcement {
	return Announcement{Capture: v.Capture, Checks: v.Checks, Tries: max(v.PawnTries, 0)}
}

// View returns the view a player hears for the announcement: of its own
// accepted move m when own, else of the opponent's hidden move.
func (a Announcement) View(own bool, m chess.Move) umpire.View {
	v := umpire.View{Heard: true, Own: own, Capture: a.Capture, Checks: a.Checks, PawnTries: a.Tries}
	if own {
		v.Move = m
	} else {
		v.Move = chess.NullMove
	}
	return v
}

// String returns the announcement's words as a legal or opponent line
// carries them: "capture e4 pawn check file,knight tries 1", or "" when the
// referee announced nothing.
func (a Announcement) String() string {
	var sb strings.Builder
	sep := func() {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
	}
	if a.Capture.Kind != umpire.NoCapture {
		sb.WriteString("capture ")
		sb.WriteString(a.Capture.Square.String())
		sb.WriteByte(' ')
		sb.WriteString(a.Capture.Kind.String())
	}
	if a.Checks[0] != chess.NoCheck {
		sep()
		sb.WriteString("check ")
		sb.WriteString(checkWord(a.Checks[0]))
		if a.Checks[1] != chess.NoCheck {
			sb.WriteByte(',')
			sb.WriteString(checkWord(a.Checks[1]))
		}
	}
	if a.Tries > 0 {
		sep()
		sb.WriteString("tries ")
		sb.WriteString(strconv.Itoa(a.Tries))
	}
	return sb.String()
}
