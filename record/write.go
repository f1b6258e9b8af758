package record

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
)

// Writer writes one game's record under DIR/games as the game goes: every
// line with one append the moment it is known, so a crash loses at most the
// last line; the PGN once the moves are revealed, to a temporary name and
// then renamed. Errors are kept (Err), never fatal to the game.
type Writer struct {
	game  GameLine
	us    chess.Color
	start time.Time
	base  string // path without extension; "" when the file could not be made
	f     *os.File
	err   error
	heard []umpire.View // our answers and the opponent's moves, in order
	// sent is our last attempt: a variant game's PGN names our refused
	// attempts by it where the answer did not (a match's umpire).
	sent chess.Move
	// own are our moves the referee accepted, in order; plies counts the
	// moves of both sides heard (a resync sets it to the server's count).
	// A move list must agree with both to complete this record (Agrees).
	own   []chess.Move
	plies int
	// Set by Result.
	result, reason string
	done           bool
	finishedAt     time.Time
	pgn            bool // the moves line and PGN are written; the file is closed
}

// Create starts the record of game g (its Type, V and Start are filled in)
// under dir/games; name is our account's, for the file name.
func Create(dir, name string, g GameLine, us chess.Color, now time.Time) *Writer {
	return CreateWith(dir, name, g, us, now, Models{})
}

// Models are the opponent-model files a player was given, which its record
// keeps beside it so that a replay gives the player the same model.
type Models struct {
	// Opponent is the per-opponent counts its model was blended from (nil:
	// none), kept as NAME.kbm and named by opponent_counts.
	Opponent []byte
	// Base is the variant's model file it started from (nil: the embedded
	// default), kept as NAME.base.kbm and named by base_counts.
	Base []byte
}

// maxNames bounds the names CreateWith tries for one game.
const maxNames = 100

// CreateWith is Create for a player given opponent models (Models): each
// file is written beside the record and named on the game line with its
// SHA-256.
func CreateWith(dir, name string, g GameLine, us chess.Color, now time.Time, m Models) *Writer {
	g.Type, g.V = TypeGame, Version
	g.Start = stamp(now)
	g.Us = us.String()
	w := &Writer{game: g, us: us, start: now}
	d := filepath.Join(dir, "games")
	if w.err = os.MkdirAll(d, 0o755); w.err != nil {
		return w
	}
	opp := g.Black
	if us == chess.Black {
		opp = g.White
	}
	// A name is never taken twice: two games of the same second, number
	// and opponent (a server restarted within a second) get -2, -3, ...
	stem := filepath.Join(d, fmt.Sprintf("%s-%s-g%d-%s", now.UTC().Format("20060102-150405"), SafeName(name), g.Game, SafeName(opp)))
	for k := 1; ; k++ {
		w.base = stem
		if k > 1 {
			w.base = fmt.Sprintf("%s-%d", stem, k)
		}
		w.f, w.err = os.OpenFile(w.base+".jsonl", os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
		if !errors.Is(w.err, fs.ErrExist) || k == maxNames {
			break
		}
	}
	if w.err != nil {
		w.base = ""
		return w
	}
	keep := func(data []byte, suffix string) (file, sum string) {
		if len(data) == 0 || w.err != nil {
			return "", ""
		}
		if w.err = os.WriteFile(w.base+suffix, data, 0o644); w.err != nil {
			return "", ""
		}
		h := sha256.Sum256(data)
		return filepath.Base(w.base) + suffix, hex.EncodeToString(h[:])
	}
	g.OpponentCounts, g.OpponentCountsSHA256 = keep(m.Opponent, ".kbm")
	g.BaseCounts, g.BaseCountsSHA256 = keep(m.Base, ".base.kbm")
	if w.err != nil { // no record without the models it names
		w.f.Close()
		os.Remove(w.base + ".jsonl")
		w.f, w.base = nil, ""
		return w
	}
	w.game = g
	w.line(g)
	return w
}

// Number is the server's game number.
func (w *Writer) Number() int { return w.game.Game }

// Path is the JSON Lines record's file name ("" if it could not be made).
func (w *Writer) Path() string {
	if w.base == "" {
		return ""
	}
	return w.base + ".jsonl"
}

// Err is the first error writing the record.
func (w *Writer) Err() error { return w.err }

// Opponent returns the opponent's handle and colour.
func (w *Writer) Opponent() (string, chess.Color) {
	if w.us == chess.White {
		return w.game.Black, chess.Black
	}
	return w.game.White, chess.White
}

func (w *Writer) line(v any) {
	if w.f == nil || w.err != nil || w.pgn {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		w.err = err
		return
	}
	if _, err := w.f.Write(append(b, '\n')); err != nil {
		w.err = err
	}
}

// Attempt records an attempt we sent at now, with the search behind it
// (nil for players without one).
func (w *Writer) Attempt(m chess.Move, now time.Time, rep *players.SearchReport) {
	w.sent = m
	l := AttemptLine{Type: TypeAttempt, Move: MoveText(m), T: stamp(now)}
	if rep != nil {
		s := &SearchLine{Iterations: rep.Iterations, Nodes: rep.Nodes, Score: round3(players.Score(rep.Value)), Value: rep.Value, Proven: rep.Proven,
			Critical: rep.Critical, Boards: rep.Boards}
		if len(rep.Trees) > 1 {
			s.Trees = rep.Trees
		}
		for i, c := range rep.Candidates {
			if i == 5 {
				break
			}
			s.Top = append(s.Top, CandidateLine{Move: MoveText(c.Move), Visits: c.Visits, Score: round3(players.Score(c.Value)), Value: c.Value,
				PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck,
				PMate: c.PMate, PMated: c.PMated, PRepeat: c.PRepeat})
		}
		l.Search = s
	}
	w.line(l)
}

// Event records what the player was told: a referee answer or the clocks.
func (w *Writer) Event(e players.Event, now time.Time) {
	t := stamp(now)
	switch e.Kind {
	case players.ClockUpdate:
		ours, theirs := e.Clock.Ours.Milliseconds(), e.Clock.Theirs.Milliseconds()
		w.line(ClockLine{Type: TypeClock, OursMs: &ours, TheirsMs: &theirs, T: t})
	case players.Answer:
		v := e.View
		if !v.Heard {
			return
		}
		w.heard = append(w.heard, v)
		moved := players.Moved(v)
		if moved {
			w.plies++
			if v.Own {
				w.own = append(w.own, v.Move)
			}
		}
		own := v.Own
		l := AnswerLine{Type: TypeAnswer, Own: &own, T: t}
		if v.Own {
			l.Move, l.Legal = v.Move.String(), &moved
			if umpire.IsDrop(v.Move) || v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny {
				l.Move = MoveText(v.Move)
			}
		} else if !moved {
			l.Legal = &moved // the opponent's public refusal, or its "Any?"
		}
		l.setView(v)
		w.line(l)
		if v.Own && !moved && v.Move == chess.NullMove && v.Verdict != umpire.HasAny && v.Verdict != umpire.NoAny && w.variant() {
			w.heard[len(w.heard)-1].Move = w.sent
		}
	}
}

// variant reports a game of another variant than wild 16.
func (w *Writer) variant() bool {
	return w.game.Variant != "" && w.game.Variant != umpire.Wild16().Name
}

// Ponder records what the player thought during the opponent's turn, at
// the end of that ponder (rep.Iterations > 0).
func (w *Writer) Ponder(rep players.PonderReport, now time.Time) {
	l := PonderLine{Type: TypePonder, Iterations: rep.Iterations, T: stamp(now)}
	if len(rep.Trees) > 1 {
		l.Trees = rep.Trees
	}
	w.line(l)
}

// Resync records that the player was rebuilt from the server's move list of
// plies moves: what follows is not replayable.
func (w *Writer) Resync(plies int, why string, now time.Time) {
	w.plies = plies
	w.line(ResyncLine{Type: TypeResync, Plies: plies, Why: why, T: stamp(now)})
}

// Result records how the game ended; Illegal is counted from what was heard.
func (w *Writer) Result(l ResultLine, now time.Time) {
	w.result, w.reason, w.done, w.finishedAt = l.Result, l.Reason, true, now
	l.Type, l.T = TypeResult, stamp(now)
	l.Illegal = 0
	for _, v := range w.heard {
		if v.Own && v.Illegal {
			l.Illegal++
		}
	}
	w.line(l)
}

// Agrees reports whether sans, a whole game in SAN from the start
// position, can be this record's game: at least as many moves as were
// heard, and our accepted moves among our side's moves, in order (some may
// have been missed, never invented). After a server restart the game
// numbers start again, so a number alone does not name a game.
func (w *Writer) Agrees(sans []string) bool {
	if len(sans) < w.plies {
		return false
	}
	pos := chess.StartPosition()
	next := 0 // index into w.own
	for i, san := range sans {
		m, err := pos.ParseSAN(san)
		if err != nil {
			return false
		}
		if chess.Color(i%2) == w.us && next < len(w.own) && m.String() == w.own[next].String() {
			next++
		}
		pos.Make(m)
	}
	return next == len(w.own)
}

// Done reports whether the result is recorded, and when.
func (w *Writer) Done() (bool, time.Time) { return w.done, w.finishedAt }

// Complete reports whether the moves are recorded (the record is closed).
func (w *Writer) Complete() bool { return w.pgn }

// Moves records the whole game, revealed by the server after its end, as
// the last line, writes the PGN, and closes the record. It reports false
// (and writes nothing) before the result or after the moves.
func (w *Writer) Moves(sans []string) bool {
	if w.pgn || !w.done {
		return false
	}
	w.line(MovesLine{Type: TypeMoves, SAN: sans})
	w.pgn = true
	w.Close()
	if w.base != "" {
		tmp := w.base + ".pgn.tmp"
		if err := os.WriteFile(tmp, []byte(w.pgnText(sans)), 0o644); err == nil {
			if err := os.Rename(tmp, w.base+".pgn"); err != nil && w.err == nil {
				w.err = err
			}
		} else if w.err == nil {
			w.err = err
		}
	}
	return true
}

// Close closes the file (a record given up on before its moves came).
func (w *Writer) Close() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}

// pgnText writes the game with our referee messages as comments: what we
// heard of each move, and our refused attempts before the move that followed.
// A variant game's PGN names its variant (Event, RuleVariant) and adds the
// turns' notes (TurnNotes: our "Any?" and refusals, the opponent's public
// ones); from its first drop on the moves are in a comment (pgnout.Divert).
func (w *Writer) pgnText(sans []string) string {
	var p pgnout.Writer
	result := w.result
	if result != "1-0" && result != "0-1" && result != "1/2-1/2" {
		result = "*"
	}
	event := "kriegbot wild 16"
	if w.variant() {
		event = "kriegbot " + w.game.Variant
	}
	p.Tag("Event", event)
	p.Tag("Site", "kriegbot")
	p.Tag("Date", w.start.UTC().Format("2006.01.02"))
	p.Tag("Round", "-")
	p.Tag("White", w.game.White)
	p.Tag("Black", w.game.Black)
	p.Tag("Result", result)
	p.Tag("Variant", pgnout.Variant)
	if w.variant() {
		p.Tag(pgnout.RuleVariantTag, w.game.Variant)
	}
	tc := clock.Control{Base: time.Duration(w.game.BaseMin) * time.Minute, Increment: time.Duration(w.game.IncS) * time.Second}.String()
	if w.game.TC != "" {
		tc = w.game.TC
	}
	p.Tag("TimeControl", tc)
	p.Tag("Termination", w.reason)
	startPly := 0 // of the set-up position's side to move, for move numbers
	if w.game.FEN != "" {
		p.Tag("SetUp", "1")
		p.Tag("FEN", w.game.FEN)
		if pos, err := chess.ParseFEN(w.game.FEN); err == nil {
			startPly = 2*(pos.FullmoveNumber()-1) + int(pos.Side())
		}
	}
	if w.variant() {
		w.variantMoves(&p, sans, startPly)
	} else {
		w.wild16Moves(&p, sans, startPly)
	}
	p.Undivert()
	p.Comment(w.reason)
	return p.Finish(result)
}

// wild16Moves writes the movetext of a wild 16 game.
func (w *Writer) wild16Moves(p *pgnout.Writer, sans []string, startPly int) {
	hi := 0 // index into heard
	for i, san := range sans {
		var illegal []string
		var words []string
		for hi < len(w.heard) {
			v := w.heard[hi]
			hi++
			if v.Own && v.Illegal {
				illegal = append(illegal, v.Move.String())
				continue
			}
			words = v.Words()
			break
		}
		if len(illegal) > 0 {
			p.Comment("Illegal: " + strings.Join(illegal, " "))
		}
		p.Move(startPly+i, san)
		p.Comment(strings.Join(words, "; "))
	}
}

// variantMoves writes the movetext of another variant's game: before each
// move what its turn said (ours named, the opponent's "Opponent: ..."), and
// from the first drop on, the rest in one comment.
func (w *Writer) variantMoves(p *pgnout.Writer, sans []string, startPly int) {
	hi := 0 // index into heard
	var ours, theirs TurnNotes
	for i, san := range sans {
		var words []string
		for hi < len(w.heard) {
			v := w.heard[hi]
			hi++
			if players.Moved(v) {
				words = v.Words()
				break
			}
			if v.Own {
				ours.Add(v, MoveText(v.Move))
			} else {
				theirs.Add(v, "")
			}
		}
		if n := ours.Take(); n != nil {
			p.Comment(strings.Join(n, "; "))
		}
		if n := theirs.Take(); n != nil {
			p.Comment("Opponent: " + strings.Join(n, "; "))
		}
		if strings.Contains(san, "@") {
			p.Divert(DropsNote)
		}
		p.Move(startPly+i, san)
		p.Comment(strings.Join(words, "; "))
	}
}

// DropsNote opens the comment that holds a crazykrieg game from its first
// drop on (pgnout.Divert): PGN readers know no drops, so the movetext they
// play stops before it.
const DropsNote = "Drops follow (PGN has none; the game goes on, a drop written N@e4):"

// round3 keeps three decimals of a score: enough to read, short to write.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// SafeName keeps letters, digits, '-' and '_' of a handle for a file name.
func SafeName(s string) string {
	b := []byte(s)
	out := b[:0]
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return "x"
	}
	return string(out)
}
