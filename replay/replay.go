package replay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/turntext"
	"kriegbot/opponent"
	"kriegbot/record"
)

// Options choose the slice of a game a replay shows.
type Options struct {
	// From and To are ply numbers (legal moves played before an attempt):
	// attempts at plies From..To are shown; To 0 means to the end. Attempts
	// before From are still re-run, to rebuild the player's state.
	From, To int
	// Kinds are the player kinds to rebuild the player from; nil means
	// players.Kinds().
	Kinds []players.Kind
	// Top is how many candidates a frame keeps (0: 5).
	Top int
	// Build is this program's build (buildinfo.ID), compared with the
	// record's; "" skips the comparison.
	Build string
	// Progress, when not nil, is called after each re-run attempt with the
	// number done and the number in the record.
	Progress func(done, total int)
}

// Frame is what the player knew and chose at one attempt.
type Frame struct {
	// Attempt counts attempts from 1 over the whole game.
	Attempt int
	// Ply is the number of legal moves played before the attempt.
	Ply int
	// Line is the attempt's line in the record.
	Line int
	Us   chess.Color
	// Own are our men by piece type (index chess.Pawn..chess.King).
	Own [chess.King + 1]chess.Bitboard
	// Heat is the belief's probability per square of the opponent's king,
	// pawns and other pieces (oppmodel.King, Pawn, Piece), when the player
	// shows its belief.
	Heat    [oppmodel.NumClasses][64]float32
	HasHeat bool
	// Heard is how many entries of Result.Heard had been heard.
	Heard int
	// Clocks are the last clocks heard before the attempt.
	Clocks    players.Clocks
	HasClocks bool
	// Recorded is the attempt the live player chose, with its search.
	Recorded       chess.Move
	RecordedSearch *Search
	// Replayed is the re-run's choice and search.
	Replayed chess.Move
	Search   players.SearchReport
	// Differs says the re-run chose another attempt.
	Differs bool
	// Turn says what the turn stood on in a variant game beyond wild 16
	// (turntext.Follower.Lines: the obligation, our pawn news, the
	// opponent's last turn); Pockets, in crazykrieg, the men each side
	// may drop (ours, then theirs), from the revealed game or else from
	// the belief.
	Turn       []string
	Pockets    [2][chess.King]uint8
	HasPockets bool
}

// Heard is one referee answer as we heard it.
type Heard struct {
	Line int
	// Ply is the ply the answer belongs to (1-based for legal moves).
	Ply   int
	Own   bool
	Move  chess.Move
	Words []string
	// Said words the answers only the variants beyond wild 16 give
	// (turntext.Answer: an "Any?" answer, the opponent's refusal); "" for
	// the others.
	Said string
}

// Result is a whole replay.
type Result struct {
	Record *Record
	Frames []Frame
	Heard  []Heard
	// Attempts is the number of attempts re-run; Differing how many chose
	// otherwise than the record; FirstDiffering is the first one's line.
	Attempts, Differing int
	FirstDiffering      int
	// Resized counts the attempts whose re-run chose the recorded attempt
	// with a tree of another size than the record's (when it has the
	// size): the search was not repeated exactly, and a later one, which
	// reuses the tree, may choose otherwise. FirstResized is the first
	// one's line.
	Resized, FirstResized int
	// Truth holds the true position after each ply (Truth[0] is the start)
	// when the record reveals the moves; nil otherwise. In crazykrieg
	// TruthPockets holds the pockets beside each.
	Truth        []chess.Position
	TruthPockets []umpire.Pockets
	// Warnings say why differences may be expected, or what of the record
	// is not replayed.
	Warnings []string
}

// Run re-feeds a record to a fresh player built from the record's spec and
// seed, re-running every attempt's search with the recorded iteration count.
func Run(ctx context.Context, rec *Record, opt Options) (*Result, error) {
	kinds := opt.Kinds
	if kinds == nil {
		kinds = players.Kinds()
	}
	top := opt.Top
	if top <= 0 {
		top = 5
	}
	g := rec.Game
	at := func(line int, err error) error { return &LineError{Name: rec.Name, Line: line, Err: err} }
	spec, err := players.Parse(g.Player, kinds)
	if err != nil {
		return nil, at(g.Line, err)
	}
	if err := checkMen(rec); err != nil {
		return nil, err
	}
	res := &Result{Record: rec}
	if rec.Cut != 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the record ends at line %d (cut mid-line): "+
			"the complete lines before it are replayed (a crash while the line was written leaves a record so)", rec.Cut))
	}
	trees, _ := spec.Option("trees")
	if trees == "" {
		trees, _ = spec.Option("threads")
	}
	if trees != "" && trees != "1" && !treesRecorded(rec) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the player searched %s trees on a clock: "+
			"their shares of the recorded iterations are not recorded (a record older than the trees field), so choices may differ", trees))
	}
	if g.Build != "" {
		if b := opt.Build; b != "" {
			switch same, known := buildinfo.SamePlay(g.Build, b); {
			case !known && !same:
				res.Warnings = append(res.Warnings, fmt.Sprintf("the game was played by build %q, this is %q: "+
					"the record's build id does not name the sources that decide play, so this one may be "+
					"the same code or not", g.Build, b))
			case !same:
				res.Warnings = append(res.Warnings, fmt.Sprintf("the game was played by build %q, this is %q: "+
					"other code (or another toolchain or platform) may choose otherwise", g.Build, b))
			}
		}
	}
	var prepare func(players.Player)
	if g.OpponentModel != "" || g.BaseModel != "" {
		m, err := recordedModel(rec)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the game was played with %s: %v; "+
				"the replay uses the spec's own prior, so choices may differ", modelWords(g), err))
		} else {
			prepare = func(p players.Player) {
				if ps, ok := p.(players.PriorSetter); ok {
					ps.SetPrior(m)
				}
			}
		}
	}
	ctl := g.Control // a record's tc, or its base_min and inc_s
	if ctl == (clock.Control{}) {
		ctl = clock.Control{Base: time.Duration(g.BaseMin) * time.Minute, Increment: time.Duration(g.IncS) * time.Second}
	}
	rules := g.Rules
	if rules.Name == "" {
		rules = umpire.ICC()
	}
	// The same game driver as live play: it builds the player, hands it
	// what it heard, and has it choose (here with each search's recorded
	// size, on this goroutine).
	dg, err := driver.New(driver.Setup{Spec: spec, Game: players.Game{Color: g.Us, Rules: rules, Control: ctl, Seed: g.Seed,
		Start: g.Setup, HiddenKing: g.HiddenKing}, Prepare: prepare}, nil)
	if err != nil {
		return nil, at(g.Line, err)
	}
	p := dg.Player()
	if rec.Moves != nil {
		start := chess.StartPosition()
		if g.Setup != nil {
			start = *g.Setup
		}
		res.Truth, res.TruthPockets = truePositions(start, rules.Variant, rec.Moves)
	}
	var turn turntext.Follower
	turn.Start(players.Game{Color: g.Us, Rules: rules, Start: g.Setup})
	total := 0
	for _, s := range rec.Steps {
		if s.Kind == StepAttempt {
			total++
		}
	}
	in, inspect := p.(players.Inspector)
	var clocks players.Clocks
	hasClocks := false
	plies, attempts := 0, 0
	for _, s := range rec.Steps {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		switch s.Kind {
		case StepClock:
			clocks, hasClocks = s.Clock, true
			dg.Hear([]players.Event{{Kind: players.ClockUpdate, Clock: s.Clock}}, s.T)
		case StepPonder:
			trees := s.Search.Trees
			if len(trees) == 0 {
				trees = []int64{s.Search.Iterations}
			}
			dg.PonderTrees(trees, s.T)
		case StepAnswer:
			if players.Moved(s.View) {
				plies++
			}
			said, _ := turntext.Answer(s.View)
			res.Heard = append(res.Heard, Heard{Line: s.Line, Ply: plies, Own: s.View.Own, Move: s.Move, Words: s.Words, Said: said})
			turn.Hear(s.View)
			dg.Hear([]players.Event{{Kind: players.Answer, View: s.View}}, s.T)
		case StepAttempt:
			if opt.To > 0 && plies > opt.To {
				return res, nil
			}
			attempts++
			f := Frame{Attempt: attempts, Ply: plies, Line: s.Line, Us: g.Us, Heard: len(res.Heard),
				Clocks: clocks, HasClocks: hasClocks, Recorded: s.Move, RecordedSearch: s.Search}
			show := plies >= opt.From
			turn.Asked(s.Move)
			f.Turn = turn.Lines()
			if rules.Variant.Drops && plies < len(res.TruthPockets) {
				p := res.TruthPockets[plies]
				f.Pockets, f.HasPockets = [2][chess.King]uint8{p[g.Us], p[g.Us.Other()]}, true
			}
			if show && inspect {
				if b := in.Belief(); b != nil {
					if rules.Variant.Drops && !f.HasPockets {
						f.Pockets, f.HasPockets = [2][chess.King]uint8{b.OurPocket(), b.TheirPocket()}, true
					}
					for pt := chess.Pawn; pt <= chess.King; pt++ {
						f.Own[pt] = b.Own(pt)
					}
					for c := range oppmodel.NumClasses {
						f.Heat[c] = *b.Matrix(c)
					}
					f.HasHeat = true
				}
			}
			m, err := dg.Decide(s.T, func(p players.Player) (chess.Move, error) { return attempt(ctx, p, s.Search) })
			if err != nil {
				return res, at(s.Line, fmt.Errorf("re-running the attempt: %w", err))
			}
			f.Replayed = m
			if m != s.Move {
				// The recorded attempt is the one the referee answered: the
				// player must hear its answers as answers to it (a refusal
				// of the re-run's choice would strike the wrong attempt).
				dg.Override(s.Move)
			}
			res.Attempts++
			if opt.Progress != nil {
				opt.Progress(res.Attempts, total)
			}
			var rep players.SearchReport
			if inspect {
				rep = in.LastSearch()
			}
			if m != s.Move {
				f.Differs = true
				res.Differing++
				if res.FirstDiffering == 0 {
					res.FirstDiffering = s.Line
				}
			} else if inspect && s.Search != nil && s.Search.Nodes > 0 && rep.Nodes != s.Search.Nodes {
				res.Resized++
				if res.FirstResized == 0 {
					res.FirstResized = s.Line
				}
			}
			if show {
				if inspect {
					f.Search = rep
					if len(f.Search.Candidates) > top {
						f.Search.Candidates = f.Search.Candidates[:top]
					}
				}
				res.Frames = append(res.Frames, f)
			}
		}
	}
	return res, nil
}

// attempt re-runs one search with the recorded work: exactly the recorded
// iterations (a search stopped by its deadline before any iteration gets a
// context that is already done).
func attempt(ctx context.Context, p players.Player, s *Search) (chess.Move, error) {
	switch {
	case s == nil:
		return p.Attempt(ctx, players.Budget{})
	case len(s.Trees) > 1:
		if tr, ok := p.(players.TreeRepeater); ok {
			return tr.AttemptTrees(ctx, s.Trees, s.Boards)
		}
	case s.Iterations == 0:
		done, cancel := context.WithCancel(ctx)
		cancel()
		return p.Attempt(done, players.Budget{Time: time.Nanosecond, Boards: s.Boards})
	}
	return p.Attempt(ctx, players.Budget{Nodes: s.Iterations, Boards: s.Boards})
}

// treesRecorded says whether the record's searches name each tree's
// iterations (the daemon has written them since they were needed).
func treesRecorded(rec *Record) bool {
	for _, s := range rec.Steps {
		if s.Kind == StepAttempt && s.Search != nil && s.Search.Iterations > 0 {
			return s.Search.Trees != nil
		}
	}
	return true
}

// truePositions plays the revealed moves (checked by ReadRecord); in a
// variant with drops through the umpire, with the pockets beside.
func truePositions(start chess.Position, v umpire.Variant, sans []string) ([]chess.Position, []umpire.Pockets) {
	out := make([]chess.Position, 1, len(sans)+1)
	out[0] = start
	if v.Drops {
		pockets := []umpire.Pockets{{}}
		record.PlayDrops(start, v, sans, func(pos chess.Position, p umpire.Pockets) {
			out, pockets = append(out, pos), append(pockets, p)
		})
		return out, pockets
	}
	for _, s := range sans {
		pos := out[len(out)-1]
		m, err := pos.ParseSAN(s)
		if err != nil {
			break
		}
		pos.Make(m)
		out = append(out, pos)
	}
	return out, nil
}

// modelWords says which recorded models a game was played with.
func modelWords(g GameInfo) string {
	switch {
	case g.OpponentModel != "" && g.BaseModel != "":
		return fmt.Sprintf("a per-opponent model (%s) over the variant's model (%s)", g.OpponentModel, g.BaseModel)
	case g.OpponentModel != "":
		return fmt.Sprintf("a per-opponent model (%s)", g.OpponentModel)
	}
	return fmt.Sprintf("the variant's model (%s)", g.BaseModel)
}

// recordedModel rebuilds the model a game was played with from the files
// its record kept beside it, each checked against the SHA-256 the record
// names: the variant's model (else the embedded default), blended with the
// per-opponent counts when there were any.
func recordedModel(rec *Record) (*oppmodel.Model, error) {
	g := rec.Game
	var def *oppmodel.Counts
	var err error
	if g.BaseModel != "" {
		if def, err = keptCounts(g.BaseCounts, g.BaseCountsSHA256, "base_counts"); err != nil {
			return nil, err
		}
	} else if def, err = oppmodel.DefaultCounts(); err != nil {
		return nil, err
	}
	if g.OpponentModel == "" {
		return oppmodel.NewModel(def), nil
	}
	c, err := keptCounts(g.OpponentCounts, g.OpponentCountsSHA256, "opponent_counts")
	if err != nil {
		return nil, err
	}
	return opponent.ModelFrom(def, c), nil
}

// keptCounts reads a counts file a record kept, checked against its hash.
func keptCounts(path, sha, field string) (*oppmodel.Counts, error) {
	if path == "" {
		return nil, fmt.Errorf("the record keeps no counts for it (a record older than %s)", field)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != sha {
		return nil, fmt.Errorf("%s is not the file the game was played with (its SHA-256 differs)", path)
	}
	c, err := oppmodel.DecodeCounts(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}
