package beliefcheck

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
	"kriegbot/engine/umpire/fixture"
)

// eps bounds predicted chances away from 0 and 1 in the log-loss, so one
// overconfident miss costs at most -ln(eps).
const eps = 1e-6

// Metric is the log-loss of a categorical prediction over n events, next to
// that of the constant predictor (the events' own frequencies).
type Metric struct {
	N      int
	Loss   float64 // summed -ln p(outcome)
	counts [3]float64
}

func (m *Metric) add(p []float64, outcome int) {
	q := min(max(p[outcome], eps), 1-eps)
	m.Loss -= math.Log(q)
	m.counts[outcome]++
	m.N++
}

// Merge adds o's events to m.
func (m *Metric) Merge(o Metric) {
	m.N += o.N
	m.Loss += o.Loss
	for i, c := range o.counts {
		m.counts[i] += c
	}
}

// LogLoss is the mean log-loss per event in nats.
func (m *Metric) LogLoss() float64 {
	if m.N == 0 {
		return 0
	}
	return m.Loss / float64(m.N)
}

// Constant is the mean log-loss of always predicting the observed frequencies.
func (m *Metric) Constant() float64 {
	if m.N == 0 {
		return 0
	}
	h := 0.0
	for _, c := range m.counts {
		if c > 0 {
			p := c / float64(m.N)
			h -= p * math.Log(p)
		}
	}
	return h
}

// Report sums up a check run.
type Report struct {
	Variant    string // the variant of a variant fixture file, else ""
	Games      int
	Attempts   int
	States     int // belief states checked for soundness
	Violations int // true units on squares the belief gave no chance
	Surprises  int // events the beliefs' supports had ruled out
	First      []string
	// FirstSurprises lists where beliefs first met a surprise.
	FirstSurprises []string
	BadLines       int
	FirstBad       []error
	Legal          Metric // legal (1) or illegal (0), every attempt
	Capture        Metric // none / pawn / piece, legal attempts
	Check          Metric // no check (0) / check (1), legal attempts not ending the game
	// LegalBy splits Legal by whether the mover was in check and by the kind
	// of attempt (see KindNames).
	LegalBy [2][NumKinds]Metric
}

// Kinds of attempt, for the breakdown of the legality figures.
const (
	KindPawnPush = iota
	KindPawnCapture
	KindKnight
	KindBishop
	KindRook
	KindQueen
	KindKing
	KindCastling
	KindDrop
	NumKinds
)

// KindNames names the kinds of attempt.
var KindNames = [NumKinds]string{"pawn push", "pawn capture", "knight", "bishop", "rook", "queen", "king step", "castling", "drop"}

// attemptKind classifies our attempt m by the man st has on its square.
func attemptKind(st *belief.State, m chess.Move) int {
	if umpire.IsDrop(m) {
		return KindDrop
	}
	from, to := m.From(), m.To()
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		if !st.Own(pt).Has(from) {
			continue
		}
		switch pt {
		case chess.Pawn:
			if from.File() != to.File() {
				return KindPawnCapture
			}
			return KindPawnPush
		case chess.King:
			if chess.Castles(from, to) {
				return KindCastling
			}
			return KindKing
		}
		return KindKnight + int(pt-chess.Knight)
	}
	return KindKing
}

// Options tunes Run.
type Options struct {
	Prior belief.Prior // nil: belief.UniformPrior{}
	Keep  int          // how many violations and bad lines to keep for display
	// Unscored names the movers whose attempts are replayed but not
	// scored: the prior models one side, and only the other side's
	// predictions test it.
	Unscored [2]bool
	// Progress, when set, is called after each game.
	Progress func(games int)
}

// Open wraps r so that gzip-compressed input is read transparently.
func Open(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(2)
	if err == nil && head[0] == 0x1f && head[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// Run replays every game of a fixture file (plain or gzip) and adds its
// figures to rep. Malformed lines are counted and skipped; only a read error
// of the underlying input stops the run.
func Run(r io.Reader, opt Options, rep *Report) error {
	in, err := Open(r)
	if err != nil {
		return err
	}
	if opt.Prior == nil {
		opt.Prior = belief.UniformPrior{}
	}
	fr := fixture.NewReader(in)
	u := umpire.New(umpire.ICC())
	lastBad := -1
	for {
		g, err := fr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		var le *fixture.LineError
		if errors.As(err, &le) {
			// Errors of the underlying reader are sticky: the same line again.
			if le.Line == lastBad {
				return err
			}
			lastBad = le.Line
			rep.BadLines++
			if len(rep.FirstBad) < opt.Keep {
				rep.FirstBad = append(rep.FirstBad, err)
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := replay(g, u, opt, rep); err != nil {
			rep.BadLines++
			if len(rep.FirstBad) < opt.Keep {
				rep.FirstBad = append(rep.FirstBad, err)
			}
		}
		rep.Games++
		if opt.Progress != nil {
			opt.Progress(rep.Games)
		}
	}
}

// replay runs one game through the umpire and both beliefs.
func replay(g *fixture.Game, u *umpire.Umpire, opt Options, rep *Report) error {
	start, err := chess.ParseFEN(g.StartFEN)
	if err != nil {
		return fmt.Errorf("line %d: start_fen: %v", g.Line, err)
	}
	u.Reset(start)
	bel := [2]belief.State{belief.FromPosition(chess.White, start, opt.Prior), belief.FromPosition(chess.Black, start, opt.Prior)}
	for i := range g.Attempts {
		at := &g.Attempts[i]
		m, err := chess.ParseUCI(at.Move)
		if err != nil {
			return fmt.Errorf("line %d: attempts[%d].move: %v", g.Line, i, err)
		}
		side := u.Side()
		me := &bel[side]
		o := me.Outcomes(m)
		kind := attemptKind(me, m)
		inCheck := b2i(me.Checks()[0] != chess.NoCheck)
		a, err := u.Attempt(m)
		if err != nil {
			return fmt.Errorf("line %d: attempts[%d]: %v", g.Line, i, err)
		}
		if a.Legal != at.Legal {
			return fmt.Errorf("line %d: attempts[%d] %s: the umpire says legal=%v, the file %v; game skipped", g.Line, i, at.Move, a.Legal, at.Legal)
		}
		rep.Attempts++
		score(&o, &a, rep)
		legal := o.Legal()
		rep.LegalBy[inCheck][kind].add([]float64{1 - legal, legal}, b2i(a.Legal))
		me.Ours(m, a.For(side))
		pos := u.Position()
		check(g.Line, g.ID, at.Move, i, "after its own attempt", me, &pos, opt, rep)
		if a.Legal {
			them := &bel[side.Other()]
			them.Theirs(a.For(side.Other()))
			check(g.Line, g.ID, at.Move, i, "after the opponent's move", them, &pos, opt, rep)
		}
		if a.Ending != umpire.NotOver {
			break
		}
	}
	rep.Surprises += bel[0].Surprises() + bel[1].Surprises()
	return nil
}

// score adds one attempt's predictions to the calibration figures.
func score(o *belief.Outcome, a *umpire.Answer, rep *Report) {
	legal := o.Legal()
	rep.Legal.add([]float64{1 - legal, legal}, b2i(a.Legal))
	captured := captureClass(a.Capture.Kind)
	if !a.Legal || legal <= 0 {
		if a.Legal {
			// Predicted impossible: score the conditional parts as uniform.
			rep.Capture.add([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, captured)
		}
		return
	}
	p := []float64{o.Quiet / legal, o.CapturePawn / legal, o.CapturePiece / legal}
	if a.Capture.Kind == umpire.ManCaptured {
		// Untyped: scored as none / some capture.
		p = []float64{p[0], p[1] + p[2], 0}
	}
	rep.Capture.add(p, captured)
	if a.Ending == umpire.NotOver {
		pc := 1 - o.Check[chess.NoCheck]/legal
		rep.Check.add([]float64{1 - pc, pc}, b2i(a.Checks[0] != chess.NoCheck))
	}
}

// captureClass maps a capture announcement to none (0), pawn (1) or piece
// (2); an untyped capture counts as 1, scored against the chance of any.
func captureClass(k umpire.CaptureKind) int {
	switch k {
	case umpire.NoCapture:
		return 0
	case umpire.PawnCaptured, umpire.ManCaptured:
		return 1
	}
	return 2
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Violations returns the opponent units of the true position pos that st
// gives no chance, and whether st's own men differ from pos; it writes a
// description of the first problem into first.
func Violations(st *belief.State, pos *chess.Position) (n int, first string) {
	me := st.Color()
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		if st.Own(pt) != pos.Pieces(me, pt) {
			n++
			if first == "" {
				first = fmt.Sprintf("own %ss differ", pt)
			}
		}
	}
	opp := me.Other()
	for b := pos.ByColor(opp); b != 0; {
		sq := b.PopFirst()
		c := oppmodel.ClassOf(pos.PieceAt(sq).Type())
		if !st.Support(c).Has(sq) || st.Prob(c, sq) <= 0 {
			n++
			if first == "" {
				first = fmt.Sprintf("opponent %s on %s has chance %g", c, sq, st.Prob(c, sq))
			}
		}
	}
	jumpers, diagonals, straights := st.PieceMoves()
	for _, k := range []struct {
		pt    chess.PieceType
		where chess.Bitboard
		name  string
	}{
		{chess.Knight, jumpers, "jumping"}, {chess.Bishop, diagonals, "diagonal"}, {chess.Queen, diagonals, "diagonal"},
		{chess.Rook, straights, "straight"}, {chess.Queen, straights, "straight"},
	} {
		if miss := pos.Pieces(opp, k.pt) &^ k.where; miss != 0 {
			n++
			if first == "" {
				first = fmt.Sprintf("opponent %s on %s is outside the %s pieces' support", k.pt, miss.First(), k.name)
			}
		}
	}
	if units := pos.ByColor(opp).Count() - 1; units != st.Units() {
		n++
		if first == "" {
			first = fmt.Sprintf("opponent has %d men besides its king, belief says %d", units, st.Units())
		}
	}
	if _, max := st.Pawns(); pos.Pieces(opp, chess.Pawn).Count() > max {
		n++
		if first == "" {
			first = fmt.Sprintf("opponent has %d pawns, belief bounds them by %d", pos.Pieces(opp, chess.Pawn).Count(), max)
		}
	}
	return n, first
}

// check checks st against the true position pos after attempt i (move) of
// game id on line.
func check(line int, id, move string, i int, when string, st *belief.State, pos *chess.Position, opt Options, rep *Report) {
	rep.States++
	n, first := Violations(st, pos)
	if st.Surprises() > 0 && len(rep.FirstSurprises) < opt.Keep {
		rep.FirstSurprises = append(rep.FirstSurprises, fmt.Sprintf("line %d game %s attempt %d (%s, %s %s) [%s]",
			line, id, i, move, st.Color(), when, pos.FEN()))
	}
	if n == 0 {
		return
	}
	rep.Violations += n
	if len(rep.First) < opt.Keep {
		rep.First = append(rep.First, fmt.Sprintf("line %d game %s attempt %d (%s, %s %s): %s [%s]",
			line, id, i, move, st.Color(), when, first, pos.FEN()))
	}
}
