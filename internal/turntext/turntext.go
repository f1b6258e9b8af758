package turntext

import (
	"strconv"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// Words words an answer only the other variants give: "asked Any?: has
// pawn captures", "asked Any?: no pawn captures" (ours or the
// opponent's), "an attempt refused" (the opponent's). ok is false for
// every other answer (a move, our refusal by its move), which each page
// words as it always did.
func Words(v umpire.View) (text string, ok bool) {
	switch {
	case !v.Heard:
		return "", false
	case v.Verdict == umpire.HasAny:
		return "asked Any?: has pawn captures", true
	case v.Verdict == umpire.NoAny:
		return "asked Any?: no pawn captures", true
	case !v.Own && v.Illegal:
		return "an attempt refused", true
	}
	return "", false
}

// Answer is Words with who was answered: "we asked Any?: has pawn
// captures", "they asked Any?: no pawn captures", "they: an attempt
// refused".
func Answer(v umpire.View) (text string, ok bool) {
	w, ok := Words(v)
	switch {
	case !ok:
		return "", false
	case v.Own:
		return "we " + w, true
	case v.Illegal:
		return "they: " + w, true
	}
	return "they " + w, true
}

// Follower follows one game's answers as its player heard them (through
// players.Knowledge, the players' own reading of them) for the page's
// lines about the turn. The zero Follower is a wild 16 game's: it says
// nothing.
type Follower struct {
	k players.Knowledge
}

// Start starts following game g.
func (f *Follower) Start(g players.Game) { f.k.Start(&g) }

// Variant is the game's variant.
func (f *Follower) Variant() umpire.Variant { return f.k.Variant }

// Asked notes our attempt m (chess.NullMove: "Any?"), before its answer.
func (f *Follower) Asked(m chess.Move) { f.k.Asked(m) }

// Hear follows one answer heard.
func (f *Follower) Hear(v umpire.View) {
	if v.Own && v.Move != chess.NullMove {
		f.k.Asked(v.Move)
	}
	f.k.Hear(v)
}

// Lines says what the turn stands on, one line each, as a person reads
// it: the obligation after "has pawn captures", "Any?" spent, our pawn
// news, what the opponent's last turn said; nil in wild 16.
func (f *Follower) Lines() []string {
	k := &f.k
	if k.Variant.IsWild16() {
		return nil
	}
	var out []string
	switch {
	case k.MustPawn && k.Variant.ReleaseAfterFailedTry:
		out = append(out, "obligation: we asked Any? and have pawn captures: we must try a pawn capture (a refused one frees us)")
	case k.MustPawn:
		out = append(out, "obligation: we asked Any? and have pawn captures: we must try pawn captures until one is played")
	case k.NoAny:
		out = append(out, "we asked Any?: no pawn captures, so no pawn try this turn")
	}
	switch k.Variant.PawnNews {
	case umpire.PawnHas:
		if k.Tries > 0 {
			out = append(out, "our pawn news: has a pawn capture")
		} else if k.Tries == 0 {
			out = append(out, "our pawn news: no pawn capture")
		}
	case umpire.PawnSquares:
		if k.TrySquares != 0 {
			out = append(out, "our pawn news: pawn tries from "+squares(k.TrySquares))
		} else if k.Tries == 0 {
			out = append(out, "our pawn news: no pawn tries")
		}
	}
	var theirs []string
	switch k.TheirRefused {
	case 0:
	case 1:
		theirs = append(theirs, "1 attempt refused")
	default:
		theirs = append(theirs, strconv.Itoa(k.TheirRefused)+" attempts refused")
	}
	switch k.TheirAny {
	case umpire.HasAny:
		theirs = append(theirs, "asked Any?: has pawn captures")
	case umpire.NoAny:
		theirs = append(theirs, "asked Any?: no pawn captures")
	}
	if len(theirs) > 0 {
		out = append(out, "their last turn: "+strings.Join(theirs, ", "))
	}
	return out
}

func squares(b chess.Bitboard) string {
	var s []string
	for b != 0 {
		s = append(s, b.PopFirst().String())
	}
	return strings.Join(s, " ")
}

// OurPocket is the men we may drop (crazykrieg), as the player knows them.
func (f *Follower) OurPocket() [chess.King]uint8 { return f.k.Pocket }

// Pocket words a crazykrieg pocket: "knight, 2 pawns", "empty".
func Pocket(p [chess.King]uint8) string {
	var s []string
	for pt := chess.Queen; pt >= chess.Pawn; pt-- {
		switch n := p[pt]; n {
		case 0:
		case 1:
			s = append(s, pt.String())
		default:
			s = append(s, strconv.Itoa(int(n))+" "+pt.String()+"s")
		}
	}
	if len(s) == 0 {
		return "empty"
	}
	return strings.Join(s, ", ")
}

// Rules says in a line what variant v announces that wild 16 does not, for
// a page's header: "berkeley_any: Any? may be asked; refused attempts are
// announced to both sides; a capture names its square only".
func Rules(v umpire.Variant) string {
	var s []string
	if v.AskAny {
		s = append(s, "Any? may be asked")
	}
	if v.PublicIllegal {
		s = append(s, "refused attempts are announced to both sides")
	}
	switch v.Captures {
	case umpire.CaptureUntyped:
		s = append(s, "a capture names its square only")
	case umpire.CaptureTyped:
		s = append(s, "a capture names its square and pawn or piece")
	case umpire.CaptureExact:
		s = append(s, "a capture names its square and the man")
	}
	switch v.PawnNews {
	case umpire.PawnCount:
		s = append(s, "the next mover hears its number of pawn tries")
	case umpire.PawnHas:
		s = append(s, "the next mover hears whether it has a pawn capture")
	case umpire.PawnSquares:
		s = append(s, "the next mover hears the squares of its pawns that can capture")
	}
	if v.AnnouncePromotion {
		s = append(s, "promotions are announced")
	}
	if v.AnnounceEnPassant {
		s = append(s, "en passant is announced")
	}
	if v.StalemateLoses {
		s = append(s, "stalemate loses")
	}
	if v.Drops {
		s = append(s, "captured men go to the captor's pocket and may be dropped")
	}
	return v.Name + ": " + strings.Join(s, "; ")
}
