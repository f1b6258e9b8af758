package replylosscmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/particles"
	"kriegbot/engine/search/replymodel"
	"kriegbot/engine/umpire"
	"kriegbot/internal/cmdflag"
	"kriegbot/record"
)

// floor mixes every prediction with a uniform share, so that a reply a
// model rules out costs ln(65/floor) and not infinity.
const floor = 0.01

// sample is one prediction: the event heard, approach C's distribution,
// and the boards' moves (offsets into the moves kept).
type sample struct {
	game   int
	event  int
	today  replymodel.Dist
	boards []int // start of each board's moves in kept, then the end
	// sets: the same of boards drawn from the particle set (-particles).
	sets []int
}

type study struct {
	prior  belief.Prior
	boards int
	pred   *replymodel.Boards
	// particles is the size of each side's particle set (0: none), ppred
	// the predictor drawing from it.
	particles int
	shape     float64
	develop   float64
	ppred     *replymodel.Boards
	kept      []replymodel.Move
	out       []sample
	// turns, hangTrue: turns and true boards with a hanging man of the
	// side not to move; drawn, hangDrawn: the same of boards drawn.
	turns, hangTrue, drawn, hangDrawn int
	// occBelief, occSet: the summed log-loss a square of the truth's men
	// under the belief's chances and the particle set's, over occTurns.
	occBelief, occSet float64
	occTurns          int
	// byPly is the width in plies of the drift table's rows (-byply; 0:
	// none), drift its rows.
	byPly int
	drift []driftRow
	// calibration sorts the squares the beliefs gave a class some chance
	// by that chance (-byply).
	calibration [oppmodel.NumClasses][calibrationBins]calibrationBin
}

// calibrationBins is the number of equal spans of chance in the table.
const calibrationBins = 10

// calibrationBin counts the squares whose chance fell in one span: their
// chances summed, and how many held a man of the class. A calibrated belief
// finds a man on as many squares as its chances add up to.
type calibrationBin struct {
	squares, found int
	chance         float64
}

// driftRow sums, over the turns of one span of plies, how surprised the
// belief is by where the opponent's men truly stand: -ln of its chance of
// a man of the class on each square one stands on (at least 0.001).
type driftRow struct {
	turns                 int
	king, pieces, pawns   float64
	pieceCount, pawnCount int
	// the same the belief expects: each man's surprise were it where the
	// belief's chances put it. Calibrated, expected and found agree.
	expKing, expPieces, expPawns float64
	// out counts the men of each class on a square the belief gave less
	// than 0.001: where it is wrong, not unsure.
	out [3]int
}

// Command runs "kriegbot replyloss [-boards N] [-fit] MATCH.jsonl...".
func Command(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replyloss", flag.ContinueOnError)
	boards := fs.Int("boards", 16, "boards drawn per prediction")
	fit := fs.Bool("fit", false, "fit the policy's weights on the even games, measure on the odd")
	sets := fs.Int("particles", 0, "also draw the boards from a particle set of N boards carried through each game (engine/search/particles)")
	shape := fs.Float64("shape", 0, "the particle set's replies weighted by the belief's chance of the square reached, to this power")
	develop := fs.Float64("develop", 0, "the particle set's replies weighted by exp(X × their piece-square gain in pawns)")
	modelFile := fs.String("model", "", "the opponent model file the beliefs use (kriegbot model build; default: the embedded one)")
	movers := fs.String("movers", "paper", "which of the opponent's units the beliefs expect to move: paper (each alike), model (the model's fitted shares) or pawns (the pawns by the model, the rest alike)")
	byPly := fs.Int("byply", 0, "also print, for each span of N plies, how surprised the belief is by where the opponent's men stand (0: not)")
	cmdflag.SetUsage(fs, "replyloss [-boards N] [-fit] [-particles N [-shape X] [-develop X]] [-byply N] [-model FILE] [-movers paper|model|pawns] MATCH.jsonl...",
		`Replays kriegbot match -jsonl files (games from the standard start) through
both sides' beliefs and prints the log-loss per reply, in nats, of approach C's
reply model and of boards drawn from the belief with the reply policy
(engine/search/replymodel), and the share of boards with a hanging man, true
and drawn (docs/strength/replymodel.md). With -particles, the same from boards
drawn from a particle set, and the log-loss a square of where the opponent's
men stand under the belief's chances and the set's. With -byply, the belief's
surprise at where the opponent's men stand, by spans of plies: whether it
drifts from the truth as a game grows long.
`)
	if code, done := cmdflag.Parse(fs, args, stderr); done {
		return code
	}
	if fs.NArg() == 0 || *boards < 1 || *sets < 0 || *byPly < 0 {
		return cmdflag.Fail(stderr, "replyloss", "want MATCH.jsonl files, -boards of 1 or more, -particles and -byply of 0 or more")
	}
	name := "default"
	if *modelFile != "" {
		name = *modelFile
	}
	prior, err := belief.LoadPrior(name)
	if err != nil {
		return cmdflag.Fail(stderr, "replyloss", "%v", err)
	}
	if prior, err = belief.WithMovers(*movers, prior); err != nil {
		return cmdflag.Fail(stderr, "replyloss", "-%v", err)
	}
	s := &study{prior: prior, boards: *boards, pred: replymodel.NewBoards(replymodel.DefaultWeights(), 1),
		particles: *sets, shape: *shape, develop: *develop, byPly: *byPly, ppred: replymodel.NewBoards(replymodel.DefaultWeights(), 2)}
	for _, name := range fs.Args() {
		if err := s.file(name); err != nil {
			return cmdflag.Fail(stderr, "replyloss", "%v", err)
		}
	}
	if len(s.out) == 0 {
		return cmdflag.Fail(stderr, "replyloss", "no replies in %v", fs.Args())
	}
	def := replymodel.DefaultWeights()
	report := func(label string, keep func(*sample) bool, w *replymodel.Weights) {
		lt, lb, lm, lp, n := 0.0, 0.0, 0.0, 0.0, 0
		for i := range s.out {
			x := &s.out[i]
			if !keep(x) {
				continue
			}
			pb := s.boardsProb(x.boards, x.event, w)
			lp -= math.Log(floor/replymodel.Events + (1-floor)*s.boardsProb(x.sets, x.event, w))
			lt -= math.Log(floor/replymodel.Events + (1-floor)*x.today[x.event])
			lb -= math.Log(floor/replymodel.Events + (1-floor)*pb)
			lm -= math.Log(floor/replymodel.Events + (1-floor)*(0.5*pb+0.5*x.today[x.event]))
			n++
		}
		fmt.Fprintf(stdout, "%-28s replies %5d  today %.4f  boards %.4f  half-half %.4f", label, n,
			lt/float64(n), lb/float64(n), lm/float64(n))
		if s.particles > 0 {
			fmt.Fprintf(stdout, "  particles %.4f", lp/float64(n))
		}
		fmt.Fprintln(stdout, " nats/reply")
	}
	fmt.Fprintf(stdout, "boards with a hanging man of the side not to move: true %d of %d turns (%.1f %%), drawn %d of %d (%.1f %%)\n",
		s.hangTrue, s.turns, 100*float64(s.hangTrue)/float64(s.turns), s.hangDrawn, s.drawn, 100*float64(s.hangDrawn)/float64(max(s.drawn, 1)))
	if s.particles > 0 {
		fmt.Fprintf(stdout, "where the opponent's men stand, log-loss a square over %d turns: belief %.4f, particles %.4f\n",
			s.occTurns, s.occBelief/float64(max(s.occTurns, 1)), s.occSet/float64(max(s.occTurns, 1)))
	}
	s.printDrift(stdout)
	all := func(*sample) bool { return true }
	caps := func(x *sample) bool { return x.event != replymodel.NoCapture }
	report("all, default weights", all, &def)
	report("captures only, default", caps, &def)
	if !*fit {
		return cmdflag.OK
	}
	even := func(x *sample) bool { return x.game%2 == 0 }
	odd := func(x *sample) bool { return x.game%2 == 1 }
	w := s.fit(even, def)
	fmt.Fprintf(stdout, "fitted on even games: %+v\n", w)
	report("odd games, default", odd, &def)
	report("odd games, fitted", odd, &w)
	report("odd captures, fitted", func(x *sample) bool { return odd(x) && caps(x) }, &w)
	return cmdflag.OK
}

// boardsProb is the chance of event under weights w over the boards
// whose moves start at offsets boards in kept (0 when no board was drawn).
func (s *study) boardsProb(boards []int, event int, w *replymodel.Weights) float64 {
	nb := len(boards) - 1
	if nb <= 0 {
		return 0
	}
	var d replymodel.Dist
	for b := range nb {
		replymodel.AddPolicy(w, s.kept[boards[b]:boards[b+1]], 1/float64(nb), &d)
	}
	return d[event]
}

// fit improves w by coordinate search on the replies keep selects.
func (s *study) fit(keep func(*sample) bool, w replymodel.Weights) replymodel.Weights {
	loss := func(w *replymodel.Weights) float64 {
		l := 0.0
		for i := range s.out {
			if x := &s.out[i]; keep(x) {
				l -= math.Log(floor/replymodel.Events + (1-floor)*s.boardsProb(x.boards, x.event, w))
			}
		}
		return l
	}
	best := loss(&w)
	for step := 1.0; step > 0.05; step /= 2 {
		for improved := true; improved; {
			improved = false
			for f := range w {
				for _, d := range [2]float64{step, -step} {
					t := w
					t[f] += d
					if l := loss(&t); l < best {
						best, w, improved = l, t, true
					}
				}
			}
		}
	}
	return w
}

// file reads one match file and replays its games.
func (s *study) file(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return s.read(f, name)
}

// read replays the games of the match file r, named name in errors.
func (s *study) read(r io.Reader, name string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	rules := umpire.ICC()
	var g *game
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		var head struct {
			Type      string `json:"type"`
			Rules     string `json:"rules"`
			Positions int    `json:"positions"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		switch head.Type {
		case "match":
			if head.Positions > 0 {
				return fmt.Errorf("%s:%d: games from -positions are not read", name, n)
			}
			var err error
			if rules, err = umpire.ParseRules(head.Rules); err != nil {
				return fmt.Errorf("%s:%d: %w", name, n, err)
			}
			continue
		case record.TypeRefereeAttempt:
		default:
			continue
		}
		l, err := record.ReadRefereeLine(bytes.Clone(line))
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if g == nil || g.num != l.Game {
			g = s.newGame(rules, l.Game)
		}
		if err := g.play(l); err != nil {
			return fmt.Errorf("%s:%d: game %d: %w", name, n, l.Game, err)
		}
	}
	return sc.Err()
}

// game replays one game, both sides' beliefs hearing what they heard.
type game struct {
	s   *study
	num int
	u   *umpire.Umpire
	bel [2]belief.State
	// sets are each side's particle sets (-particles), else nil.
	sets [2]*particles.Filter
	wait [2]*sample // the prediction each side waits to check
	over bool
	ply  int // legal moves played
}

func (s *study) newGame(rules umpire.Rules, num int) *game {
	g := &game{s: s, num: num, u: umpire.New(rules)}
	start := chess.StartPosition()
	g.u.Reset(start)
	for c := range g.bel {
		g.bel[c] = belief.FromPosition(chess.Color(c), start, s.prior)
		g.bel[c].SetVariant(rules.Variant)
		if s.particles > 0 && rules.Variant.IsWild16() {
			cfg := particles.DefaultConfig()
			cfg.N, cfg.Shape, cfg.Develop = s.particles, s.shape, s.develop
			g.sets[c] = particles.New(cfg, &g.bel[c])
			g.sets[c].Reset(&start, uint64(num)<<1|uint64(c))
		}
	}
	return g
}

func (g *game) play(l *record.RefereeLine) error {
	if g.over {
		return fmt.Errorf("an attempt after the game ended")
	}
	m := chess.NullMove
	var a umpire.Answer
	var err error
	if l.Attempt == record.AskAny {
		a, err = g.u.AskAny()
	} else {
		if m, err = umpire.ParseMoveText(l.Attempt); err != nil {
			return err
		}
		a, err = g.u.Attempt(m)
	}
	if err != nil {
		return err
	}
	if a.Legal != l.Legal {
		return fmt.Errorf("attempt %s: the referee says legal=%v, the file %v", l.Attempt, a.Legal, l.Legal)
	}
	mover := a.Mover
	if a.Legal {
		if w := g.wait[mover.Other()]; w != nil {
			w.event = replymodel.NoCapture
			if a.Capture.Kind != umpire.NoCapture {
				w.event = replymodel.Event(a.Capture.Square)
			}
			g.s.out = append(g.s.out, *w)
			g.wait[mover.Other()] = nil
		}
	}
	for _, c := range [2]chess.Color{mover.Other(), mover} {
		v := a.For(c)
		if !v.Heard {
			continue
		}
		if v.Own {
			v.Move = m
			g.bel[c].Ours(m, v)
		} else {
			g.bel[c].Theirs(v)
		}
		if f := g.sets[c]; f != nil && a.Ending == umpire.NotOver {
			f.Hear(m, v)
		}
	}
	if a.Ending != umpire.NotOver {
		g.over = true
		return nil
	}
	if a.Legal {
		g.ply++
		g.s.realism(g.u.Position(), &g.bel[mover.Other()], g.sets[mover.Other()])
		g.s.surprise(g.ply, g.u.Position(), &g.bel[mover.Other()])
		last := chess.NoSquare
		if a.Capture.Kind != umpire.NoCapture {
			last = m.To()
		}
		g.wait[mover] = g.s.predict(g.num, &g.bel[mover], g.sets[mover], last)
	}
	return nil
}

// realism counts, at the start of a turn, the true boards and the boards
// drawn from the mover's belief with one of the opponent's men hanging,
// and with a particle set set, how well it and the belief place the
// opponent's men.
func (s *study) realism(truth chess.Position, bel *belief.State, set *particles.Filter) {
	if set != nil && set.Len() > 0 {
		opp := bel.Color().Other()
		var occ [3][64]float64
		set.Occupancy(opp, &occ)
		s.occBelief += particles.OccupancyLoss(bel.Prob, &truth, opp)
		s.occSet += particles.OccupancyLoss(func(c oppmodel.Class, sq chess.Square) float64 { return occ[c][sq] }, &truth, opp)
		s.occTurns++
	}
	if replymodel.Hanging(&truth) > 0 {
		s.hangTrue++
	}
	s.turns++
	for range 4 {
		if s.pred.Draw(bel) {
			s.drawn++
			if replymodel.Hanging(s.pred.Board()) > 0 {
				s.hangDrawn++
			}
		}
	}
}

// predict records the models' view from bel and, if not nil, the particle
// set, the opponent to move.
func (s *study) predict(num int, bel *belief.State, set *particles.Filter, last chess.Square) *sample {
	x := &sample{game: num, boards: []int{len(s.kept)}}
	if set != nil {
		x.sets = []int{len(s.kept)}
		var d replymodel.Dist
		s.ppred.Predict(set, last, s.boards, &d, func(ms []replymodel.Move) {
			s.kept = append(s.kept, ms...)
			x.sets = append(x.sets, len(s.kept))
		})
		x.boards[0] = len(s.kept)
	}
	replymodel.Today(bel, &x.today)
	var d replymodel.Dist
	s.pred.Predict(bel, last, s.boards, &d, func(ms []replymodel.Move) {
		s.kept = append(s.kept, ms...)
		x.boards = append(x.boards, len(s.kept))
	})
	return x
}

// surprise adds to the drift table's row of ply how surprised bel is by
// where the opponent's men stand on truth, and sorts the squares bel gives
// each class a chance into the calibration table.
func (s *study) surprise(ply int, truth chess.Position, bel *belief.State) {
	if s.byPly == 0 {
		return
	}
	i := (ply - 1) / s.byPly
	for len(s.drift) <= i {
		s.drift = append(s.drift, driftRow{})
	}
	r := &s.drift[i]
	r.turns++
	opp := bel.Color().Other()
	// expect is, for each class, the surprise the belief expects of one of
	// its men: -ln of the chance of a square drawn by those chances.
	var expect [oppmodel.NumClasses]float64
	for cl := oppmodel.King; cl <= oppmodel.Piece; cl++ {
		sum, e := 0.0, 0.0
		for sq := range chess.Square(64) {
			p := bel.Prob(cl, sq)
			if p <= 0 {
				continue
			}
			sum += p
			e -= p * math.Log(max(p, 1e-3))
			b := &s.calibration[cl][min(int(p*calibrationBins), calibrationBins-1)]
			b.squares++
			b.chance += p
			if pc := truth.PieceAt(sq); pc != chess.NoPiece && pc.Color() == opp && oppmodel.ClassOf(pc.Type()) == cl {
				b.found++
			}
		}
		if sum > 0 {
			expect[cl] = e / sum
		}
	}
	for sq := range chess.Square(64) {
		pc := truth.PieceAt(sq)
		if pc == chess.NoPiece || pc.Color() != opp {
			continue
		}
		cl := oppmodel.ClassOf(pc.Type())
		p := bel.Prob(cl, sq)
		loss := -math.Log(max(p, 1e-3))
		if p < 1e-3 {
			r.out[cl]++
		}
		switch cl {
		case oppmodel.King:
			r.king += loss
			r.expKing += expect[cl]
		case oppmodel.Pawn:
			r.pawns += loss
			r.expPawns += expect[cl]
			r.pawnCount++
		default:
			r.pieces += loss
			r.expPieces += expect[cl]
			r.pieceCount++
		}
	}
}

// printDrift prints the drift table (-byply).
func (s *study) printDrift(w io.Writer) {
	if s.byPly == 0 {
		return
	}
	fmt.Fprintln(w, "the belief's surprise at where the opponent's men stand, -ln of its chance of the class on the true square,")
	fmt.Fprintln(w, "found (and expected by the belief), nats a man:")
	fmt.Fprintln(w, "  plies      turns  king          pieces        pawns         pieces/turn  pawns/turn  ruled out: king pieces pawns")
	for i, r := range s.drift {
		if r.turns == 0 {
			continue
		}
		pc, pw := float64(max(r.pieceCount, 1)), float64(max(r.pawnCount, 1))
		fmt.Fprintf(w, "  %4d-%-4d %6d  %5.2f (%4.2f)  %5.2f (%4.2f)  %5.2f (%4.2f)  %11.1f  %10.1f  %15d %6d %5d\n", i*s.byPly+1, (i+1)*s.byPly, r.turns,
			r.king/float64(r.turns), r.expKing/float64(r.turns), r.pieces/pc, r.expPieces/pc, r.pawns/pw, r.expPawns/pw,
			float64(r.pieceCount)/float64(r.turns), float64(r.pawnCount)/float64(r.turns), r.out[oppmodel.King], r.out[oppmodel.Piece], r.out[oppmodel.Pawn])
	}
	fmt.Fprintln(w, "calibration: the squares the belief gave a class a chance in each span, their mean chance, and the share that held one:")
	fmt.Fprintln(w, "  chance     king                     pieces                   pawns")
	for b := range calibrationBins {
		fmt.Fprintf(w, "  %.1f-%.1f", float64(b)/calibrationBins, float64(b+1)/calibrationBins)
		for _, cl := range []oppmodel.Class{oppmodel.King, oppmodel.Piece, oppmodel.Pawn} {
			c := s.calibration[cl][b]
			if c.squares == 0 {
				fmt.Fprintf(w, "  %23s", "-")
				continue
			}
			fmt.Fprintf(w, "  %7d: %.3f -> %.3f", c.squares, c.chance/float64(c.squares), float64(c.found)/float64(c.squares))
		}
		fmt.Fprintln(w)
	}
}
