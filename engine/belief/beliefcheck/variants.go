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

// replayVariant runs one variant game of a fixture file through the umpire
// and both beliefs.
func replayVariant(g *fixture.VariantGame, u *umpire.Umpire, opt Options, rep *Report) error {
	start, err := chess.ParseFEN(g.StartFEN)
	if board, pockets, ok := strings.Cut(g.StartFEN, "[]"); ok && err != nil {
		start, err = chess.ParseFEN(board + pockets) // crazykrieg's empty pockets
	}
	if err != nil {
		return fmt.Errorf("line %d: start_fen: %v", g.Line, err)
	}
	attempts := make([]Attempt, len(g.Attempts))
	for i := range g.Attempts {
		va := &g.Attempts[i]
		m := chess.NullMove // "any"
		if va.Move != "any" {
			if m, err = umpire.ParseMoveText(va.Move); err != nil {
				return fmt.Errorf("line %d: attempts[%d].move: %v", g.Line, i, err)
			}
		}
		attempts[i] = Attempt{Move: m, Text: va.Move, Moved: va.Moved(), Answer: va.Answer}
	}
	return ReplayGame(u, start, g.ID, g.Line, attempts, opt, rep)
}

// Attempt is one attempt of a game to replay, as its referee answered it.
type Attempt struct {
	Move   chess.Move // chess.NullMove: the "Any?" question
	Text   string     // as the game's file spells it, for messages
	Moved  bool       // whether the referee played it
	Answer string     // the referee's word, for messages
}

// ReplayGame runs one game from start through umpire u (whose rules are
// the game's) and both beliefs, adding its figures to rep; line and id name
// it in messages (line 0: no line). It stops at the game's end, and fails, naming the
// attempt, where the umpire and the game's referee disagree on whether an
// attempt was played: the beliefs would follow another game from there.
// The caller counts the game (rep.Games).
func ReplayGame(u *umpire.Umpire, start chess.Position, id string, line int, attempts []Attempt, opt Options, rep *Report) error {
	if opt.Prior == nil {
		opt.Prior = belief.UniformPrior{}
	}
	where := ""
	if line > 0 {
		where = fmt.Sprintf("line %d: ", line)
	}
	bel := startBeliefs(u, start, opt)
	for i := range attempts {
		at := &attempts[i]
		a, err := step(u, &bel, at.Move, place{line, id, at.Text, i}, opt, rep)
		if err != nil {
			return fmt.Errorf("%sattempts[%d]: %v", where, i, err)
		}
		if a.Legal != at.Moved {
			return fmt.Errorf("%sattempts[%d] %s: the umpire says legal=%v, the game %s; game skipped", where, i, at.Text, a.Legal, at.Answer)
		}
		if a.Ending != umpire.NotOver {
			break
		}
	}
	rep.Surprises += bel[0].Surprises() + bel[1].Surprises()
	return nil
}

// RunRandom replays games of random askable attempts under rules
// (umpire.RandomStreamFor with seed, games and maxPlies: "Any?" at the start
// of a turn with p = 0.3 where the variant has it, drops among the
// attempts) through both beliefs and adds the figures to rep, as
// RunVariants does for a file.
func RunRandom(rules umpire.Rules, seed uint64, games, maxPlies int, opt Options, rep *Report) {
	if opt.Prior == nil {
		opt.Prior = belief.UniformPrior{}
	}
	rep.Variant = rules.Variant.Name
	stream := umpire.RandomStreamFor(rules, seed, games, maxPlies)
	rules.MaxPlies = maxPlies
	u := umpire.New(rules)
	for n, game := range stream.Games {
		bel := startBeliefs(u, stream.Start, opt)
		id := fmt.Sprintf("random-%d", n)
		for i, m := range game {
			text := "any"
			if m != chess.NullMove {
				text = umpire.MoveText(m)
			}
			a, err := step(u, &bel, m, place{0, id, text, i}, opt, rep)
			if err != nil || a.Ending != umpire.NotOver {
				break
			}
		}
		rep.Surprises += bel[0].Surprises() + bel[1].Surprises()
		rep.Games++
		if opt.Progress != nil {
			opt.Progress(rep.Games)
		}
	}
}

// startBeliefs resets u to start and returns both sides' beliefs there.
func startBeliefs(u *umpire.Umpire, start chess.Position, opt Options) [2]belief.State {
	u.Reset(start)
	bel := [2]belief.State{belief.FromPosition(chess.White, start, opt.Prior), belief.FromPosition(chess.Black, start, opt.Prior)}
	for c := range bel {
		bel[c].SetVariant(u.Rules().Variant)
	}
	return bel
}

// place names an attempt in the reports.
type place struct {
	line int
	id   string
	move string
	i    int
}

// step puts attempt m (chess.NullMove: the "Any?" question) to the umpire,
// scores the mover's prediction where the answer is a verdict of the board
// (refused "Illegal move" or played), feeds each belief what its side hears
// and checks both.
func step(u *umpire.Umpire, bel *[2]belief.State, m chess.Move, at place, opt Options, rep *Report) (umpire.Answer, error) {
	side := u.Side()
	me := &bel[side]
	var a umpire.Answer
	var err error
	if m == chess.NullMove {
		a, err = u.AskAny()
	} else {
		o := me.Outcomes(m)
		kind := attemptKind(me, m)
		inCheck := b2i(me.Checks()[0] != chess.NoCheck)
		a, err = u.Attempt(m)
		if err == nil && (a.Legal || a.Verdict == umpire.IllegalMove) && !opt.Unscored[side] {
			rep.Attempts++
			score(&o, &a, rep)
			legal := o.Legal()
			rep.LegalBy[inCheck][kind].add([]float64{1 - legal, legal}, b2i(a.Legal))
		}
	}
	if err != nil {
		return a, err
	}
	me.Ours(a.Attempt, a.For(side))
	pos := u.Position()
	check(at.line, at.id, at.move, at.i, "after its own attempt", me, &pos, opt, rep)
	checkPockets(at, me, u, opt, rep)
	if v := a.For(side.Other()); v.Heard {
		them := &bel[side.Other()]
		them.Theirs(v)
		check(at.line, at.id, at.move, at.i, "after the opponent's answer", them, &pos, opt, rep)
		checkPockets(at, them, u, opt, rep)
	}
	return a, nil
}

// checkPockets compares, in a variant with drops, the pockets st keeps with
// the umpire's: a difference counts as a violation.
func checkPockets(at place, st *belief.State, u *umpire.Umpire, opt Options, rep *Report) {
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
			at.line, at.id, at.i, at.move, me, st.OurPocket(), st.TheirPocket(), p))
	}
}
