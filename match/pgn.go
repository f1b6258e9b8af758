package match

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
	"kriegbot/record"
)

// PGNHeader is what every game of a match shares in its PGN tags.
type PGNHeader struct {
	Event string // ICC style: EventName(control), e.g. "kriegbot w16 1 0"
	Site  string
	Date  string // "2026.11.23"
}

// EventName returns an Event tag in the style of ICC's w16 records
// ("ICC w16 1 0": base in minutes, increment in seconds), so that tools made
// for ICC's archive recognise the variant: "kriegbot w16 1 0", or
// "kriegbot w16" untimed. A match of another variant (by the site's
// identifier; "" and "wild16" are wild 16) is named by it instead:
// "kriegbot berkeley_any 1 0".
func EventName(c clock.Control, variant string) string {
	name := "kriegbot w16"
	if v, err := umpire.ParseVariant(variant); err == nil && !v.IsWild16() {
		name = "kriegbot " + v.Name
	}
	if !c.Timed() {
		return name
	}
	return fmt.Sprintf("%s %s %s", name, strconv.FormatFloat(c.Base.Minutes(), 'f', -1, 64),
		strconv.FormatFloat(c.Increment.Seconds(), 'f', -1, 64))
}

// iccResult words the ending as ICC's ICCResult tag does.
func iccResult(r *Record) string {
	side := sideToMove(r)
	switch r.Termination {
	case TermCheckmate:
		return side + " checkmated"
	case TermStalemate:
		return "Game drawn by stalemate"
	case TermMaterial:
		return "Neither player has mating material"
	case TermFifty:
		return "Game drawn by the 50 move rule"
	case TermRepetition:
		return "Game drawn by repetition"
	case TermReversible:
		return "Game drawn by the reversible move limit"
	case TermTime:
		if r.Result == "1/2-1/2" {
			return side + " ran out of time and " + other(side) + " has no material to mate"
		}
		return side + " forfeits on time"
	case TermError:
		return side + " forfeits by a player error"
	}
	return "Game unfinished at the ply cap"
}

func other(side string) string {
	if side == "White" {
		return "Black"
	}
	return "White"
}

// WritePGN writes the game in PGN export format: the standard seven tags,
// Variant "Kriegspiel" and the match's own tags, SAN movetext of the true
// game, and after each move a comment with what the referee said that turn:
// the refused attempts ("Illegal move"), the capture, checks and pawn tries
// announced, and the mover's clock in timed games ([%clk]).
func (r *Record) WritePGN(w io.Writer, h PGNHeader) error {
	var p pgnout.Writer
	p.Tag("Event", h.Event)
	p.Tag("Site", h.Site)
	p.Tag("Date", h.Date)
	p.Tag("Round", strconv.Itoa(r.Game+1))
	p.Tag("White", r.White)
	p.Tag("Black", r.Black)
	p.Tag("Result", r.Result)
	p.Tag("Variant", pgnout.Variant)
	if v, err := umpire.ParseVariant(r.Variant); err == nil && !v.IsWild16() {
		p.Tag(pgnout.RuleVariantTag, v.Name)
	}
	p.Tag("ICCResult", iccResult(r))
	p.Tag("TimeControl", r.Control.String())
	p.Tag("Termination", pgnTermination(r.Termination))
	p.Tag("Ending", r.Termination)
	p.Tag("PlyCount", strconv.Itoa(r.Plies))
	p.Tag("Seed", strconv.FormatUint(r.Seed, 10))
	if r.Start != nil {
		p.Tag("SetUp", "1")
		p.Tag("FEN", r.Start.FEN())
	}

	var illegal []string
	var variant record.VariantMoves // a variant game's movetext
	for _, a := range r.Attempts {
		var clock []string
		if a.Timed {
			clock = []string{"[%clk " + clk(a.Clock) + "]"}
		}
		switch {
		case r.Variant != "" && !a.Answer.Legal:
			variant.Refused(&a.Answer)
		case r.Variant != "":
			variant.Moved(&p, r.startPly()+a.Ply, a.SAN, &a.Answer, clock...)
		case !a.Answer.Legal:
			illegal = append(illegal, refusedText(&a.Answer))
		default:
			p.Move(r.startPly()+a.Ply, a.SAN)
			p.Comment(strings.Join(append(refereeComment(illegal, &a.Answer), clock...), "; "))
			illegal = illegal[:0]
		}
	}
	if n := variant.End(&p); n != nil {
		illegal = n // the variant's notes of the last turn, already worded
	} else if len(illegal) > 0 {
		illegal = []string{"Illegal: " + strings.Join(illegal, " ")}
	}
	if len(illegal) > 0 || r.Termination == TermTime || r.Termination == TermError {
		why := illegal
		switch r.Termination {
		case TermTime:
			why = append(why, sideToMove(r)+"'s flag fell")
		case TermError:
			why = append(why, "forfeit: "+r.Error)
		}
		p.Comment(strings.Join(why, "; "))
	}
	_, err := io.WriteString(w, p.Finish(r.Result))
	return err
}

// sideToMove names the side that was to move when the game stopped.
func sideToMove(r *Record) string {
	if (r.startPly()+r.Plies)%2 == 0 {
		return "White"
	}
	return "Black"
}

func refereeComment(illegal []string, a *umpire.Answer) []string {
	var c []string
	if len(illegal) > 0 {
		c = append(c, "Illegal: "+strings.Join(illegal, " "))
	}
	if a.Capture.Kind != umpire.NoCapture {
		what := "Piece"
		if a.Capture.Kind == umpire.PawnCaptured {
			what = "Pawn"
		}
		c = append(c, what+" at "+a.Capture.Square.String()+" captured")
	}
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			c = append(c, umpire.CheckWords(k))
		}
	}
	if a.PawnTries > 0 {
		c = append(c, umpire.TriesWords(a.PawnTries))
	}
	if a.Ending != umpire.NotOver {
		c = append(c, a.Ending.String())
	}
	return c
}

// refusedText is a wild 16 attempt that played no move, for the comment's
// "Illegal:" list.
func refusedText(a *umpire.Answer) string { return record.MoveText(a.Attempt) }

// pgnTermination maps ours onto the PGN standard's Termination values.
func pgnTermination(t string) string {
	switch t {
	case TermTime:
		return "time forfeit"
	case TermError:
		return "rules infraction"
	case TermPlyCap:
		return "unterminated"
	}
	return "normal"
}

func clk(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(100 * time.Millisecond)
	h := int(d / time.Hour)
	m := int(d/time.Minute) % 60
	s := float64(d%time.Minute) / float64(time.Second)
	return fmt.Sprintf("%d:%02d:%04.1f", h, m, s)
}
