package tourneycmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"kriegbot/tourney"
)

// state is what the command reads of the TD's saved event (tourney-N.json,
// which the TD writes atomically after every change).
type state struct {
	ID     int
	Status string
	Event  *tourney.Event
	Boards []board  // the round's games not over yet
	PGN    []string // each finished game: tags and moves
}

// endings reads each finished game's Termination tag from the PGN the TD
// keeps, by round and board ("Black checkmated", "mcts-a resigns").
func (s state) endings() map[[2]int]string {
	out := map[[2]int]string{}
	for _, g := range s.PGN {
		tags := map[string]string{}
		for _, l := range strings.Split(g, "\n") {
			if k, v, ok := strings.Cut(strings.TrimPrefix(l, "["), " \""); ok && strings.HasPrefix(l, "[") {
				tags[k] = strings.TrimSuffix(v, "\"]")
			}
		}
		r, err1 := strconv.Atoi(tags["Round"])
		b, err2 := strconv.Atoi(tags["Board"])
		if err1 == nil && err2 == nil && tags["Termination"] != "" {
			out[[2]int{r, b}] = tags["Termination"]
		}
	}
	return out
}

// board is a pairing of the current round whose game is not over.
type board struct {
	Round, Board int
	White, Black string
}

// over reports whether the event has ended.
func (s state) over() bool { return s.Status == "done" || s.Status == "aborted" }

// progress is how far the event got: "round 2 of 3", "not started".
func (s state) progress() string {
	if s.Event == nil || !s.Event.Started() {
		return "not started"
	}
	return fmt.Sprintf("round %d of %d", len(s.Event.Played), s.Event.Rounds)
}

// maxStateFile bounds what is read of the TD's file (64 players and 99
// rounds stay far below it).
const maxStateFile = 16 << 20

// readState reads the TD's saved event; a missing file is not an error
// (the TD has not saved it yet): ok is false.
func readState(path string) (state, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, false, nil
	}
	if err != nil {
		return state{}, false, err
	}
	defer f.Close()
	var st state
	if err := json.NewDecoder(io.LimitReader(f, maxStateFile)).Decode(&st); err != nil {
		return state{}, false, fmt.Errorf("%s: %v", path, err)
	}
	if st.Event == nil {
		return state{}, false, fmt.Errorf("%s: no event", path)
	}
	return st, true, nil
}

// stopper is how watch stops an event on Ctrl-C: adjourn (pair no further
// round), playing (the games in progress) and cut (stop them now).
type stopper struct {
	adjourn func()
	playing func() int
	cut     func()
}

// watch reads the TD's state every interval and shows what changed, until
// the event is over (endDone, with the final state) or, after a Ctrl-C on
// interrupts, adjourned: once the games in progress are over
// (endAdjourned), or at once on a second Ctrl-C (endCut when it cut games
// in progress).
func watch(ctx context.Context, path string, every time.Duration, p *progress, interrupts <-chan os.Signal, stop stopper) (state, ending, error) {
	t := time.NewTicker(every)
	defer t.Stop()
	var st state
	stopping := false
	for {
		cur, ok, err := readState(path)
		if err != nil {
			return state{}, endDone, err
		}
		if ok {
			st = cur
			p.show(st)
			if st.over() {
				return st, endDone, nil
			}
		}
		if stopping && stop.playing() == 0 {
			return st, endAdjourned, nil
		}
		select {
		case <-ctx.Done():
			return state{}, endDone, ctx.Err()
		case <-interrupts:
			if !stopping {
				stopping = true
				stop.adjourn()
				continue
			}
			end := endAdjourned
			if stop.playing() > 0 {
				end = endCut
			}
			stop.cut()
			return st, end, nil
		case <-t.C:
		}
	}
}

// progress prints each entry, pairing, bye and result once, in order, and
// while games go on with nothing to show, every quiet interval a line
// naming them, so that a long round does not look like a hang.
type progress struct {
	w       io.Writer
	joined  map[string]bool
	paired  map[int]bool    // rounds shown
	results map[[2]int]bool // (round, board) results shown
	now     func() time.Time
	quiet   time.Duration // how long without a line before the games in progress are named
	last    time.Time     // the last line
	roundAt time.Time     // when the current round's pairings were shown
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, joined: map[string]bool{}, paired: map[int]bool{}, results: map[[2]int]bool{},
		now: time.Now, quiet: time.Minute}
}

func (p *progress) show(st state) {
	now := p.now()
	if p.last.IsZero() {
		p.last = now
	}
	say := func(line string) {
		fmt.Fprintln(p.w, line)
		p.last = now
	}
	e := st.Event
	for _, pl := range e.Players {
		if !p.joined[pl.Handle] {
			p.joined[pl.Handle] = true
			say("joined: " + pl.Handle)
		}
	}
	name := func(i int) string {
		if i >= 0 && i < len(e.Players) {
			return e.Players[i].Handle
		}
		return "?"
	}
	var ends map[[2]int]string
	for _, r := range e.Played {
		if !p.paired[r.Number] {
			p.paired[r.Number] = true
			p.roundAt = now
			line := fmt.Sprintf("round %d:", r.Number)
			for _, g := range r.Games {
				line += fmt.Sprintf("  %s - %s", name(g.White), name(g.Black))
			}
			for _, b := range r.Byes {
				line += fmt.Sprintf("  %s (%s)", name(b.Player), b.Kind)
			}
			say(line)
		}
		for _, g := range r.Games {
			k := [2]int{r.Number, g.Board}
			if g.Result.Done() && !p.results[k] {
				p.results[k] = true
				if ends == nil {
					ends = st.endings()
				}
				how := ends[k]
				if !g.Result.Played() {
					how = "forfeit: not played"
				}
				if how != "" {
					how = " (" + how + ")"
				}
				say(fmt.Sprintf("  round %d board %d: %s - %s %s%s", r.Number, g.Board, name(g.White), name(g.Black), g.Result, how))
			}
		}
	}
	if len(st.Boards) > 0 && now.Sub(p.last) >= p.quiet {
		line := fmt.Sprintf("  round %d, %s in, not over yet:", st.Boards[0].Round, now.Sub(p.roundAt).Round(time.Second))
		for _, b := range st.Boards {
			line += fmt.Sprintf("  %s - %s", b.White, b.Black)
		}
		say(line)
	}
}
