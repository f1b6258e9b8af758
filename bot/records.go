package bot

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/internal/pgnout"
	"kriegbot/protocol"
)

// Record files. Every line of a game's JSON Lines record is written with one
// append as soon as it is known, so a crash loses at most the last line. The
// PGN is written once the server reveals the whole move list after the game.

// openTranscript opens logs/transcripts/<name>-<time>.txt for appending.
func openTranscript(dir, name string, now time.Time) (io.Writer, error) {
	d := filepath.Join(dir, "transcripts")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	f := filepath.Join(d, fmt.Sprintf("%s-%s.txt", safeName(name), now.UTC().Format("20060102-150405.000")))
	return os.OpenFile(f, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

// safeName keeps letters, digits, '-' and '_' of a handle for a file name.
func safeName(s string) string {
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

// gameRecord writes one game's records.
type gameRecord struct {
	number int
	base   string // path without extension
	f      *os.File
	err    error
	white  string
	black  string
	us     chess.Color
	start  time.Time
	heard  []umpire.View // our answers and the opponent's moves, in order
	result string
	reason string
	done   bool
	pgn    bool
	// finishedAt is when the game ended and its move list was asked for.
	finishedAt time.Time
}

// extra holds optional fields of the game line ("build", "opponent_model").
func newGameRecord(dir, name string, g protocol.MyGameStartedDG, us chess.Color, seed uint64, spec string, now time.Time, extra map[string]any) *gameRecord {
	d := filepath.Join(dir, "games")
	r := &gameRecord{number: g.Game, white: g.White, black: g.Black, us: us, start: now}
	if r.err = os.MkdirAll(d, 0o755); r.err != nil {
		return r
	}
	opp := g.Black
	if us == chess.Black {
		opp = g.White
	}
	r.base = filepath.Join(d, fmt.Sprintf("%s-%s-g%d-%s", now.UTC().Format("20060102-150405"), safeName(name), g.Game, safeName(opp)))
	r.f, r.err = os.OpenFile(r.base+".jsonl", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	line := map[string]any{"type": "game", "game": g.Game, "white": g.White, "black": g.Black, "us": colorWord(us),
		"base_min": g.WhiteInitial, "inc_s": g.WhiteIncrement, "rated": g.Rated, "wild": g.Wild, "seed": seed,
		"player": spec, "start": now.UTC().Format(time.RFC3339Nano)}
	for k, v := range extra {
		if v != "" {
			line[k] = v
		}
	}
	r.line(line)
	return r
}

func (r *gameRecord) line(v map[string]any) {
	if r.f == nil || r.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.err = err
		return
	}
	if _, err := r.f.Write(append(b, '\n')); err != nil {
		r.err = err
	}
}

func (r *gameRecord) attempt(m chess.Move, now time.Time, p players.Player) {
	v := map[string]any{"type": "attempt", "move": m.String(), "t": now.UTC().Format(time.RFC3339Nano)}
	if in, ok := p.(players.Inspector); ok {
		rep := in.LastSearch()
		s := map[string]any{"iterations": rep.Iterations, "nodes": rep.Nodes, "value": rep.Value, "proven": rep.Proven}
		if len(rep.Trees) > 1 {
			s["trees"] = rep.Trees // each tree's iterations: a replay repeats them
		}
		var top []map[string]any
		for i, c := range rep.Candidates {
			if i == 5 {
				break
			}
			top = append(top, map[string]any{"move": c.Move.String(), "visits": c.Visits, "value": c.Value,
				"p_illegal": c.PIllegal, "p_capture": c.PCapture, "p_check": c.PCheck})
		}
		s["top"] = top
		v["search"] = s
	}
	r.line(v)
}

func (r *gameRecord) event(e players.Event, now time.Time) {
	t := now.UTC().Format(time.RFC3339Nano)
	switch e.Kind {
	case players.ClockUpdate:
		r.line(map[string]any{"type": "clock", "ours_ms": e.Clock.Ours.Milliseconds(), "theirs_ms": e.Clock.Theirs.Milliseconds(), "t": t})
	case players.Answer:
		v := e.View
		if !v.Heard {
			return
		}
		r.heard = append(r.heard, v)
		out := map[string]any{"type": "answer", "own": v.Own, "t": t}
		if v.Own {
			out["move"] = v.Move.String()
			out["legal"] = !v.Illegal
		}
		if w := v.Words(); len(w) > 0 {
			out["referee"] = w
		}
		r.line(out)
	}
}

func (r *gameRecord) finish(t *tracker, now time.Time) {
	r.result, r.reason, r.done, r.finishedAt = t.result, t.reason, true, now
	illegal := 0
	for _, a := range t.log {
		if a.View.Illegal {
			illegal++
		}
	}
	r.line(map[string]any{"type": "result", "result": t.result, "code": t.code, "reason": t.reason,
		"plies": t.plies, "illegal": illegal, "lag_ms": t.lag.Milliseconds(), "t": now.UTC().Format(time.RFC3339Nano)})
}

// fullMoves receives the whole move list the server reveals after the game:
// it goes into the JSON record and makes the PGN. It returns the SAN moves,
// or nil when the list is not (yet) the revealed one.
func (r *gameRecord) fullMoves(v protocol.MoveListDG) []string {
	if r.pgn || !r.done {
		return nil
	}
	sans := make([]string, 0, len(v.Moves))
	for _, m := range v.Moves {
		if m.Hidden || m.SAN == "" {
			return nil // not revealed (yet)
		}
		sans = append(sans, m.SAN)
	}
	r.pgn = true
	r.line(map[string]any{"type": "moves", "san": sans})
	if r.f != nil {
		r.f.Close()
	}
	if r.base != "" {
		tmp := r.base + ".pgn.tmp"
		if err := os.WriteFile(tmp, []byte(r.pgnText(sans)), 0o644); err == nil {
			os.Rename(tmp, r.base+".pgn")
		}
	}
	return sans
}

// pgnText writes the game with our referee messages as comments: what we
// heard of each move, and our refused attempts before the move that followed.
func (r *gameRecord) pgnText(sans []string) string {
	var w pgnout.Writer
	result := r.result
	if result != "1-0" && result != "0-1" && result != "1/2-1/2" {
		result = "*"
	}
	w.Tag("Event", "kriegbot wild 16")
	w.Tag("Site", "kriegbot")
	w.Tag("Date", r.start.UTC().Format("2006.01.02"))
	w.Tag("Round", "-")
	w.Tag("White", r.white)
	w.Tag("Black", r.black)
	w.Tag("Result", result)
	w.Tag("Variant", "kriegspiel")
	w.Tag("Termination", r.reason)
	hi := 0 // index into heard
	for i, san := range sans {
		var illegal []string
		var words []string
		for hi < len(r.heard) {
			v := r.heard[hi]
			hi++
			if v.Illegal {
				illegal = append(illegal, v.Move.String())
				continue
			}
			words = v.Words()
			break
		}
		if len(illegal) > 0 {
			w.Comment("Illegal: " + strings.Join(illegal, " "))
		}
		w.Move(i, san)
		w.Comment(strings.Join(words, "; "))
	}
	w.Comment(r.reason)
	return w.Finish(result)
}

// keepRecord remembers a finished game's record until its move list comes.
func (d *Daemon) keepRecord(r *gameRecord) {
	d.recent = append(d.recent, r)
	if len(d.recent) > 8 {
		old := d.recent[0]
		if old.f != nil && !old.pgn {
			old.f.Close()
		}
		d.recent = d.recent[1:]
	}
}

func (d *Daemon) findRecord(game int) *gameRecord {
	for _, r := range d.recent {
		if r.number == game {
			return r
		}
	}
	return nil
}
