package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/protocol/handle"
)

// Command lines sent to the server. Each function returns one line without its
// line end; iccclient.Session.Send adds it. Arguments that come from outside (handles,
// chat text) are checked or cleaned here, so that no value can smuggle a
// second command onto the line or past the server's line limit.

// MaxTellText bounds the text of a tell or say; longer text is cut. ICC's own
// limit is about 400 characters.
const MaxTellText = 400

// CommandError reports an argument that cannot be encoded.
type CommandError struct {
	Command string
	Arg     string
	Reason  string
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("protocol: %s: bad argument %q: %s", e.Command, e.Arg, e.Reason)
}

func handleArg(cmd, name string) error {
	if !handle.Valid(name) {
		return &CommandError{cmd, name, "a handle is " + handle.Syntax}
	}
	return nil
}

// CleanText makes chat text safe for one command line: control bytes
// (newlines included) become blanks, a ';' (which ends a command on ICC's
// line, and on our server's) becomes a ',', runs of blanks collapse, and the
// text is cut to MaxTellText bytes.
func CleanText(s string) string {
	var sb strings.Builder
	space := false
	for i := 0; i < len(s) && sb.Len() < MaxTellText; i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c == 0xff {
			c = ' '
		}
		if c == ';' {
			c = ','
		}
		if c == ' ' {
			if space || sb.Len() == 0 {
				continue
			}
			space = true
		} else {
			space = false
		}
		sb.WriteByte(c)
	}
	return strings.TrimRight(sb.String(), " ")
}

// Level1Line is the login-prompt line that sets level 1 (docs/icc-protocol.md d.1).
func Level1Line(bits int) string { return "level1=" + strconv.Itoa(bits) }

// Level2Line is the login-prompt line that enables exactly the given DGs.
func Level2Line(dgs []int) string { return "level2settings=" + Level2Settings(dgs...) }

// LoginLine is the name line at the login prompt: the handle alone, or
// "handle password" for the one-line flow. A guest logs in as "g".
func LoginLine(handle, password string) (string, error) {
	if err := handleArg("login", handle); err != nil {
		return "", err
	}
	if password == "" {
		return handle, nil
	}
	if strings.ContainsAny(password, " \t\r\n") {
		return "", &CommandError{"login", "(password)", "a password on the login line cannot hold blanks or line ends"}
	}
	return handle + " " + password, nil
}

// PromotionStyle says how a promotion is written in a move command; which one
// ICC's wild 16 accepts is an open question (docs/icc-protocol.md f.6).
type PromotionStyle uint8

const (
	// PromoteUCI writes e7e8q (what Wohl's bot sends).
	PromoteUCI PromotionStyle = iota
	// PromoteEquals writes e7e8=Q (what Jin sends).
	PromoteEquals
)

// MoveLine writes an attempt in coordinate ("dumb computer") form, as
// Kriegspiel requires: e2e4, castling e1g1, promotion per style.
func MoveLine(m chess.Move, style PromotionStyle) (string, error) {
	if m == chess.NullMove || m.From() == m.To() {
		return "", &CommandError{"move", m.String(), "not a move"}
	}
	s := m.String()
	if m.Promotion() != chess.NoPieceType && style == PromoteEquals {
		s = s[:4] + "=" + strings.ToUpper(s[4:])
	}
	return s, nil
}

// SeekParams describe a seek ad: `seek <time> <inc> [r|u] [w<n>] [white|black]
// [a|m] [f] [min-max]`.
type SeekParams struct {
	Minutes, Increment int
	Rated              bool
	Wild               int    // 16 for Kriegspiel; 0 leaves it out
	Color              string // "", "white" or "black"
	Manual             bool   // m: we accept or decline each answer ourselves
	Formula            bool   // f: screen answers with our formula
	MinRating          int    // with MaxRating; both 0 leaves the range out
	MaxRating          int
}

// SeekLine writes a seek command.
func SeekLine(p SeekParams) (string, error) {
	if p.Minutes < 0 || p.Minutes > 999 || p.Increment < 0 || p.Increment > 999 {
		return "", &CommandError{"seek", fmt.Sprintf("%d %d", p.Minutes, p.Increment), "time and increment must be 0-999"}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "seek %d %d %s", p.Minutes, p.Increment, ratedWord(p.Rated))
	if p.Wild != 0 {
		fmt.Fprintf(&sb, " w%d", p.Wild)
	}
	switch p.Color {
	case "":
	case "white", "black":
		sb.WriteString(" " + p.Color)
	default:
		return "", &CommandError{"seek", p.Color, "colour must be white, black or empty"}
	}
	if p.Manual {
		sb.WriteString(" m")
	} else {
		sb.WriteString(" a")
	}
	if p.Formula {
		sb.WriteString(" f")
	}
	if p.MinRating != 0 || p.MaxRating != 0 {
		if p.MinRating < 0 || p.MaxRating < p.MinRating || p.MaxRating > 9999 {
			return "", &CommandError{"seek", fmt.Sprintf("%d-%d", p.MinRating, p.MaxRating), "rating range must be 0 <= min <= max <= 9999"}
		}
		fmt.Fprintf(&sb, " %d-%d", p.MinRating, p.MaxRating)
	}
	return sb.String(), nil
}

func ratedWord(rated bool) string {
	if rated {
		return "r"
	}
	return "u"
}

// UnseekLine removes seek ad index, or all our ads when index is 0.
func UnseekLine(index int) string {
	if index <= 0 {
		return "unseek"
	}
	return "unseek " + strconv.Itoa(index)
}

// PlayLine answers seek ad index (DG 50): `play <index>`.
func PlayLine(index int) string { return "play " + strconv.Itoa(index) }

// MatchParams describe a challenge: `match <name> <time> <inc> [r|u] [w<n>]
// [white|black]`.
type MatchParams struct {
	Opponent           string
	Minutes, Increment int
	Rated              bool
	Wild               int
	Color              string
}

// MatchLine writes a match command; repeating a received challenge's
// parameters accepts it on ICC.
func MatchLine(p MatchParams) (string, error) {
	if err := handleArg("match", p.Opponent); err != nil {
		return "", err
	}
	if p.Minutes < 0 || p.Minutes > 999 || p.Increment < 0 || p.Increment > 999 {
		return "", &CommandError{"match", fmt.Sprintf("%d %d", p.Minutes, p.Increment), "time and increment must be 0-999"}
	}
	s := fmt.Sprintf("match %s %d %d %s", p.Opponent, p.Minutes, p.Increment, ratedWord(p.Rated))
	if p.Wild != 0 {
		s += " w" + strconv.Itoa(p.Wild)
	}
	switch p.Color {
	case "":
	case "white", "black":
		s += " " + p.Color
	default:
		return "", &CommandError{"match", p.Color, "colour must be white, black or empty"}
	}
	return s, nil
}

// AcceptLine accepts name's challenge.
func AcceptLine(name string) (string, error) {
	if err := handleArg("accept", name); err != nil {
		return "", err
	}
	return "accept " + name, nil
}

// DeclineLine declines name's challenge.
func DeclineLine(name string) (string, error) {
	if err := handleArg("decline", name); err != nil {
		return "", err
	}
	return "decline " + name, nil
}

// TellLine sends a private tell; the text is cleaned with CleanText.
func TellLine(name, text string) (string, error) {
	if err := handleArg("tell", name); err != nil {
		return "", err
	}
	t := CleanText(text)
	if t == "" {
		return "", &CommandError{"tell", text, "empty text"}
	}
	return "tell " + name + " " + t, nil
}

// SayLine speaks to the opponent of our game; the text is cleaned.
func SayLine(text string) (string, error) {
	t := CleanText(text)
	if t == "" {
		return "", &CommandError{"say", text, "empty text"}
	}
	return "say " + t, nil
}

// Game-action lines.
const (
	ResignLine      = "resign"
	DrawLine        = "draw" // offers a draw, or accepts one offered
	DeclineDrawLine = "decline draw"
	AbortLine       = "abort"
	QuitLine        = "quit"
	// WithdrawLine withdraws all our challenges and seeks: a bare match
	// (docs/icc-protocol.md d.4).
	WithdrawLine = "match"
)
