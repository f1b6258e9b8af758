package beliefcheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/engine/umpire/fixture"
)

// IsVariantFile reports whether the fixture file read by r (plain or gzip)
// is a variant fixture file (engine/umpire/testdata/variants: its games name
// their variant), and returns a reader that still yields every byte.
func IsVariantFile(r io.Reader) (io.Reader, bool, error) {
	in, err := Open(r)
	if err != nil {
		return nil, false, err
	}
	br := bufio.NewReaderSize(in, 1<<16)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, false, err
	}
	first, _, _ := bytes.Cut(head, []byte("\n"))
	return br, bytes.Contains(first, []byte(`"variant":`)), nil
}

// RunVariants replays every game of a variant fixture file (plain or gzip)
// under the site's rules for its variant (umpire.Site) and adds its figures
// to rep, setting rep.Variant ("mixed" when the games' variants differ).
// Every answer is fed to both beliefs as its side hears it; the legality
// figures count the attempts refused as ILLEGAL_MOVE or played (not the
// "Any?" questions and the refusals off the askable list, which a player
// knows before asking).
func RunVariants(r io.Reader, opt Options, rep *Report) error {
	in, err := Open(r)
	if err != nil {
		return err
	}
	if opt.Prior == nil {
		opt.Prior = belief.UniformPrior{}
	}
	vr := fixture.NewVariantReader(in)
	var u *umpire.Umpire
	lastBad := -1
	for {
		g, err := vr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var le *fixture.LineError
		if errors.As(err, &le) {
			if le.Line == lastBad {
				return err
			}
			lastBad = le.Line
			rep.bad(err, opt.Keep)
			continue
		}
		if err != nil {
			return err
		}
		v, err := umpire.ParseVariant(g.Variant)
		if err != nil {
			rep.bad(fmt.Errorf("line %d: %v", g.Line, err), opt.Keep)
			continue
		}
		switch rep.Variant {
		case "", v.Name:
			rep.Variant = v.Name
		default:
			rep.Variant = "mixed"
		}
		if u == nil || u.Rules().Variant != v {
			u = umpire.New(umpire.Site(v))
		}
		if err := replayVariant(g, u, opt, rep); err != nil {
			rep.bad(err, opt.Keep)
		}
		rep.Games++
		if opt.Progress != nil {
			opt.Progress(rep.Games)
		}
	}
}

func (rep *Report) bad(err error, keep int) {
	rep.BadLines++
	if len(rep.FirstBad) < keep {
		rep.FirstBad = append(rep.FirstBad, err)
	}
}

// replayVariant runs one variant game through the umpire and both beliefs.
func replayVariant(g *fixture.VariantGame, u *umpire.Umpire, opt Options, rep *Report) error {
	start, err := chess.ParseFEN(g.StartFEN)
	if board, pockets, ok := strings.Cut(g.StartFEN, "[]"); ok && err != nil {
		start, err = chess.ParseFEN(board + pockets) // crazykrieg's empty pockets
	}
	if err != nil {
		return fmt.Errorf("line %d: start_fen: %v", g.Line, err)
	}
	u.Reset(start)
	bel := [2]belief.State{belief.FromPosition(chess.White, start, opt.Prior), belief.FromPosition(chess.Black, start, opt.Prior)}
	for c := range bel {
		bel[c].SetVariant(u.Rules().Variant)
	}
	for i := range g.Attempts {
		va := &g.Attempts[i]
		side := u.Side()
		me := &bel[side]
		var a umpire.Answer
		if va.Move == "any" {
			a, err = u.AskAny()
		} else {
			m, perr := umpire.ParseMoveText(va.Move)
			if perr != nil {
				return fmt.Errorf("line %d: attempts[%d].move: %v", g.Line, i, perr)
			}
			o := me.Outcomes(m)
			kind := attemptKind(me, m)
			inCheck := b2i(me.Checks()[0] != chess.NoCheck)
			a, err = u.Attempt(m)
			if err == nil && (a.Legal || a.Verdict == umpire.IllegalMove) {
				rep.Attempts++
				score(&o, &a, rep)
				legal := o.Legal()
				rep.LegalBy[inCheck][kind].add([]float64{1 - legal, legal}, b2i(a.Legal))
			}
		}
		if err != nil {
			return fmt.Errorf("line %d: attempts[%d]: %v", g.Line, i, err)
		}
		if a.Legal != va.Moved() {
			return fmt.Errorf("line %d: attempts[%d] %s: the umpire says legal=%v, the file %s; game skipped", g.Line, i, va.Move, a.Legal, va.Answer)
		}
		me.Ours(a.Attempt, a.For(side))
		pos := u.Position()
		check(g.Line, g.ID, va.Move, i, "after its own attempt", me, &pos, opt, rep)
		checkPockets(g, i, me, u, opt, rep)
		if v := a.For(side.Other()); v.Heard {
			them := &bel[side.Other()]
			them.Theirs(v)
			check(g.Line, g.ID, va.Move, i, "after the opponent's answer", them, &pos, opt, rep)
			checkPockets(g, i, them, u, opt, rep)
		}
		if a.Ending != umpire.NotOver {
			break
		}
	}
	rep.Surprises += bel[0].Surprises() + bel[1].Surprises()
	return nil
}

// checkPockets compares, in a variant with drops, the pockets st keeps with
// the umpire's: a difference counts as a violation.
func checkPockets(g *fixture.VariantGame, i int, st *belief.State, u *umpire.Umpire, opt Options, rep *Report) {
	if !u.Rules().Variant.Drops {
		return
	}
	p := u.Pockets()
	me := st.Color()
	if st.OurPocket() == p[me] && st.TheirPocket() == p[me.Other()] {
		return
	}
	rep.Violations++
	if len(rep.First) < opt.Keep {
		rep.First = append(rep.First, fmt.Sprintf("line %d game %s attempt %d (%s, %s): pockets ours %v theirs %v, the umpire's %v",
			g.Line, g.ID, i, g.Attempts[i].Move, me, st.OurPocket(), st.TheirPocket(), p))
	}
}
