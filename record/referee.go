package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

// TypeRefereeAttempt is a referee line's "type" in a match file (a server's
// game record writes none: all its lines but the last are referee lines).
const TypeRefereeAttempt = "attempt"

// RefereeLine is one attempt of either side as the referee saw it, with the
// answer its mover heard as data (Announced, spelled as in an answer line).
// It is the one schema of the two files that hold whole games from the
// referee's chair: a match file's attempt lines (kriegbot match -jsonl,
// Type "attempt", with MatchSearch) and a server's game record (kriegbot
// serve -records, with ServerClock). WriteRefereeLine writes it and
// ReadRefereeLine reads it back.
type RefereeLine struct {
	Type string `json:"type,omitempty"`
	Game int    `json:"game"`
	// Ply counts the legal moves before the attempt.
	Ply     int    `json:"ply"`
	Side    string `json:"side"`    // the mover: "white" or "black"
	Attempt string `json:"attempt"` // UCI
	Legal   bool   `json:"legal"`
	SAN     string `json:"san,omitempty"`
	Announced
	// One of these says who wrote the line, and is always set by
	// ReadRefereeLine when the line holds its fields.
	*MatchSearch
	*ServerClock
}

// MatchSearch is what a match knows of an attempt besides the referee: the
// mover's thinking time, its clock and the search behind it.
type MatchSearch struct {
	ThinkUs int64  `json:"think_us"`
	ClockMs *int64 `json:"clock_ms,omitempty"`
	// Iterations is the search behind the attempt, in a match on a clock
	// (-tc, -movetime) by a player that reports its searches; Trees is
	// each tree's share when it searched several. A match held to -nodes
	// has neither: the budget is in the match line. kriegbot replay
	// repeats the search with them.
	Iterations *int64  `json:"iterations,omitempty"`
	Trees      []int64 `json:"trees,omitempty"`
	// TreeNodes is the nodes the player's trees held after the search,
	// with Iterations: a replay that repeats the search holds as many.
	TreeNodes int64 `json:"tree_nodes,omitempty"`
	// Boards is the number of boards the root counted its mate chances
	// on, sized to the budget: a replay counts on as many.
	Boards int `json:"boards,omitempty"`
	// Critical says the search planned to its clock's maximum (a critical
	// choice: in check, mate chances, a likely capture).
	Critical bool `json:"critical,omitempty"`
	// Ponder is, on a legal attempt of a pondering player, the iterations
	// it then ran during the opponent's turn (PonderTrees each tree's, with
	// several): kriegbot replay repeats the ponder before the reply.
	Ponder      *int64  `json:"ponder,omitempty"`
	PonderTrees []int64 `json:"ponder_trees,omitempty"`
}

// ServerClock is what a server knows of an attempt besides the referee:
// when it came, both clocks after it, and after a legal move the position
// and, on the last move, the result.
type ServerClock struct {
	AtMs     int64  `json:"at_ms"` // since the game started
	WhiteMs  int64  `json:"white_ms"`
	BlackMs  int64  `json:"black_ms"`
	Result   string `json:"result,omitempty"`
	FENAfter string `json:"fen_after,omitempty"`
}

// NewRefereeLine is the referee's view of attempt a: its mover, the move,
// and what the mover heard.
func NewRefereeLine(game, ply int, a umpire.Answer) RefereeLine {
	l := RefereeLine{Game: game, Ply: ply, Side: a.Mover.String(), Attempt: a.Attempt.String(), Legal: a.Legal}
	if a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny || umpire.IsDrop(a.Attempt) {
		l.Attempt = MoveText(a.Attempt)
	}
	l.setView(a.For(a.Mover))
	return l
}

// AppendRefereeLine appends l as one JSON line to b.
func AppendRefereeLine(b []byte, l RefereeLine) []byte {
	j, err := json.Marshal(l)
	if err != nil {
		panic(err) // strings, numbers and slices of them always marshal
	}
	return append(append(b, j...), '\n')
}

// ReadRefereeLine reads one referee line, strictly: a field the schema
// lacks is refused (these files are written by us alone), and so are
// announcements that are not the referee's, and searches no search
// records (kriegbot replay hands them back to a search as its budget).
func ReadRefereeLine(line []byte) (*RefereeLine, error) {
	var l RefereeLine
	d := json.NewDecoder(bytes.NewReader(line))
	d.DisallowUnknownFields()
	if err := d.Decode(&l); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("text after the JSON object")
	}
	if l.Type != "" && l.Type != TypeRefereeAttempt {
		return nil, fmt.Errorf("type %q is not a referee line's", l.Type)
	}
	var v umpire.View
	if l.Legal {
		if err := l.announced(&v, umpire.Wild16()); err != nil {
			return nil, err
		}
	} else if err := l.refused(&v); err != nil {
		return nil, errors.New("a refused attempt (legal: false) announces nothing but has_any or refusal")
	}
	if (l.Attempt == AskAny) != (l.HasAny != nil) {
		return nil, errors.New(`has_any answers the attempt "any", and only it`)
	}
	if l.MatchSearch != nil {
		if err := l.MatchSearch.check(); err != nil {
			return nil, err
		}
	}
	return &l, nil
}

// CheckAnswer says whether the line's answer is the referee's answer a to
// the same attempt (a referee's own, replaying the game): the same
// legality and announcements. A line without tries agrees with none or
// with 0 (match files before version 2's spellings left 0 out), and a line
// without any announcement is checked for its legality only (hand-written
// files).
func (l *RefereeLine) CheckAnswer(a umpire.Answer) error {
	if l.Legal != a.Legal {
		return fmt.Errorf("the referee says legal=%v, the line %v", a.Legal, l.Legal)
	}
	if !l.hasAnnouncements() {
		return nil
	}
	var want Announced
	want.setView(a.For(a.Mover))
	got := l.Announced
	if got.Tries == nil && want.Tries != nil && *want.Tries == 0 {
		got.Tries = want.Tries
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("the referee announces %s, the line %s", want.spelled(), got.spelled())
	}
	return nil
}

// spelled is the announcements as they are written, for messages.
func (l Announced) spelled() string {
	j, _ := json.Marshal(l)
	return string(j)
}

func (s *MatchSearch) check() error {
	if s.ThinkUs < 0 {
		return fmt.Errorf("think_us %d is negative", s.ThinkUs)
	}
	if s.Iterations == nil {
		if s.Trees != nil || s.TreeNodes != 0 || s.Boards != 0 {
			return errors.New("trees, tree_nodes or boards without iterations")
		}
	} else if err := search.CheckRecorded(*s.Iterations, s.Trees, s.Boards); err != nil {
		return fmt.Errorf("search: %v", err)
	}
	if s.TreeNodes < 0 {
		return fmt.Errorf("tree_nodes %d is negative", s.TreeNodes)
	}
	if s.Ponder == nil {
		if s.PonderTrees != nil {
			return errors.New("ponder_trees without ponder")
		}
	} else if err := search.CheckRecorded(*s.Ponder, s.PonderTrees, 0); err != nil {
		return fmt.Errorf("ponder: %v", err)
	}
	return nil
}
