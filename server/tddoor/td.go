package tddoor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"kriegbot/server"
	"kriegbot/server/td"
	"kriegbot/tourney"
)

// The tournament Door: a built-in account (Config.Handle, "TD")
// that players tell, running events with the tourney package. td.go holds
// the settings, the state and what is kept on disk; tdcmd.go the tells;
// tdplay.go the rounds, the paired games, forfeits and the end;
// docs/tournaments.md ("The TD of kriegbot serve") the rules.

// Config sets up the TD. Zero fields take the defaults in their comments.
type Config struct {
	// Handle is the TD's name (default "TD"); nobody may log in with it.
	Handle string
	// Managers are the handles (registered, not guests) that may open,
	// start, abort events and forfeit players by tell.
	Managers []string
	// Events are opened when the server starts, unless an event of the
	// same name is already running in Dir (so a restart does not open it
	// twice).
	Events []td.EventSpec
	// Dir keeps each event (tourney-N.json) and writes its PGN, text and
	// HTML crosstable (tourney-N.pgn, .txt, .html); "" keeps events in
	// memory only.
	Dir string
	// Style is the default announcement style of an event: "icc" (DG 63
	// and the tourney-set line, TD messages as tells) or "fics" (mamer's
	// qtell lines). Default "icc".
	Style string
	// AbsentGrace is how long a paired player has, from the pairing (or
	// the TD's restart), to answer before the game is forfeited
	// (default 2 min).
	AbsentGrace time.Duration
	// GameGrace is how long a player who disconnects during a TD game has
	// to come back (default 5 min, as CCT); MaxDisconnects is the
	// disconnection that forfeits the game (default 3: the third, as CCT).
	GameGrace      time.Duration
	MaxDisconnects int
	// LateOdds applies CCT's rule for a late arrival: the time the
	// opponent waited (from its answer to the pairing until the late side
	// came: logged in, free, or answered) is taken off the late side's
	// clock at the start of the game, leaving at least a second. Off by
	// default: the absence grace alone rules a late player.
	LateOdds bool
	// Rate and Burst bound the TD commands one client sends (default 2 a
	// second, bursts of 10); MaxEvents bounds the events not yet over
	// (default 8).
	Rate, Burst float64
	MaxEvents   int
}

func (c *Config) fill() {
	if c.Handle == "" {
		c.Handle = "TD"
	}
	if c.Style == "" {
		c.Style = "icc"
	}
	if c.AbsentGrace == 0 {
		c.AbsentGrace = 2 * time.Minute
	}
	if c.GameGrace == 0 {
		c.GameGrace = 5 * time.Minute
	}
	if c.MaxDisconnects == 0 {
		c.MaxDisconnects = 3
	}
	if c.Rate == 0 {
		c.Rate = 2
	}
	if c.Burst == 0 {
		c.Burst = 10
	}
	if c.MaxEvents == 0 {
		c.MaxEvents = 8
	}
}

// Event statuses.
const (
	tdOpen    = "open"    // taking entries
	tdRunning = "running" // started; late joins for a Swiss
	tdDone    = "done"    // every round played
	tdAborted = "aborted" // stopped by a manager
	// tdAdjourned: paired no further (AdjournTD); the games in progress
	// count, and a server started again on Dir goes on with it.
	tdAdjourned = "adjourned"
)

// Door is the tournament director: its state, guarded by the table's
// lock, and its methods. It reaches the game table through s, by the
// table's API only.
type Door struct {
	s       *server.Server
	cfg     Config
	cmds    map[string]tdCommand
	events  []*tdEvent // by id
	nextID  int
	budgets map[*server.Client]*tellBudget // the tells of each user logged in
}

// tellBudget bounds the TD commands one user sends (Config.Rate, Burst).
type tellBudget struct {
	limit  *rate.Limiter
	warned time.Time // when the user was last told the TD is throttling it
}

// event is one event: the tourney model plus what the TD needs around
// it. The exported fields are what tourney-N.json keeps.
type tdEvent struct {
	ID     int
	Spec   td.EventSpec
	Status string
	Opened time.Time
	Event  *tourney.Event
	// Boards are the current round's games that are not over yet.
	Boards []*tdBoard
	// PGN holds each finished game of the event, tags and moves.
	PGN []string
	// Off lists the players told "TD has set your tourney variable to OFF."
	Off []string

	startTimer *time.Timer // StartAfter
	saveTimer  *time.Timer // a write that is due (Door.save)
	dirty      bool        // changed since the last write
	savedAt    time.Time   // the last write
}

// tdBoard is one pairing of the current round while its game is not over.
type tdBoard struct {
	Round, Board int
	White, Black string
	// Ready marks the sides that answered the pairing.
	Ready [2]bool
	// Deadline is when an absent side is forfeited.
	Deadline time.Time
	// Disconnects counts each side's disconnections in the game.
	Disconnects [2]int

	// arrived is when each side was last seen ready to play (its answer,
	// or its login or free moment after the answer), for LateOdds; zero
	// for a side that has not answered. Not kept: a restart starts over.
	arrived [2]time.Time

	ev    *tdEvent
	game  *server.Game // the server game in progress, nil before it starts
	timer *time.Timer
	gen   int // retires old absence timers
}

func (b *tdBoard) names() [2]string { return [2]string{b.White, b.Black} }

// side is 0 for White, 1 for Black, -1 for someone else.
func (b *tdBoard) side(handle string) int {
	switch {
	case strings.EqualFold(b.White, handle):
		return 0
	case strings.EqualFold(b.Black, handle):
		return 1
	}
	return -1
}

func (te *tdEvent) title() string { return fmt.Sprintf("tourney #%d (%s)", te.ID, te.Spec.Name) }

// heading is title at the start of a sentence.
func (te *tdEvent) heading() string { return "T" + te.title()[1:] }

// plural is "1 round", "2 rounds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (te *tdEvent) over() bool { return te.Status == tdDone || te.Status == tdAborted }

// round is the number of rounds paired so far.
func (te *tdEvent) round() int { return len(te.Event.Played) }

func (te *tdEvent) isOff(handle string) bool {
	for _, h := range te.Off {
		if strings.EqualFold(h, handle) {
			return true
		}
	}
	return false
}

// entrant reports whether handle is in the event and not withdrawn.
func (te *tdEvent) entrant(handle string) bool {
	i, ok := te.Event.Find(handle)
	return ok && !te.Event.Players[i].Withdrawn()
}

// strike takes handle's entry out of an event that has not started.
func (te *tdEvent) strike(handle string) {
	if i, ok := te.Event.Find(handle); ok {
		te.Event.Players = slices.Delete(te.Event.Players, i, i+1)
	}
}

// boardOf is handle's board of the current round, if its game is not over.
func (te *tdEvent) boardOf(handle string) *tdBoard {
	for _, b := range te.Boards {
		if b.side(handle) >= 0 {
			return b
		}
	}
	return nil
}

func (d *Door) handle() string { return d.cfg.Handle }

func (d *Door) event(id int) *tdEvent {
	for _, te := range d.events {
		if te.ID == id {
			return te
		}
	}
	return nil
}

// file names event id's file with extension ext.
func (d *Door) file(id int, ext string) string { return td.EventFile(d.cfg.Dir, id, ext) }

// load reads the events kept in Dir. A file that does not read is an
// error: the TD would otherwise start over and lose an event.
func (d *Door) load() error {
	if d.cfg.Dir == "" {
		return nil
	}
	ents, err := os.ReadDir(d.cfg.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, de := range ents {
		id, ok := td.FileID(de.Name())
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d.cfg.Dir, de.Name()))
		if err != nil {
			return err
		}
		te, err := decodeTDEvent(b)
		if err != nil {
			return fmt.Errorf("%s: %w", de.Name(), err)
		}
		if id != te.ID {
			return fmt.Errorf("%s: holds event %d", de.Name(), te.ID)
		}
		d.events = append(d.events, te)
		d.nextID = max(d.nextID, te.ID+1)
	}
	sort.Slice(d.events, func(i, j int) bool { return d.events[i].ID < d.events[j].ID })
	return nil
}

// decodeTDEvent reads a tourney-N.json and checks that it is whole: a
// TD that trusted a damaged file would index players that do not exist.
func decodeTDEvent(b []byte) (*tdEvent, error) {
	var te tdEvent
	if err := json.Unmarshal(b, &te); err != nil {
		return nil, err
	}
	if te.Event == nil || te.ID < 1 {
		return nil, errors.New("no event")
	}
	switch te.Status {
	case tdOpen, tdRunning, tdDone, tdAborted, tdAdjourned:
	default:
		return nil, fmt.Errorf("bad status %q", te.Status)
	}
	n := len(te.Event.Players)
	for _, rd := range te.Event.Played {
		for _, g := range rd.Games {
			if g.White < 0 || g.White >= n || g.Black < 0 || g.Black >= n {
				return nil, errors.New("a game names a player who does not exist")
			}
		}
		for _, by := range rd.Byes {
			if by.Player < 0 || by.Player >= n {
				return nil, errors.New("a bye names a player who does not exist")
			}
		}
	}
	for _, b := range te.Boards {
		if b == nil || b.Round != len(te.Event.Played) {
			return nil, errors.New("a board of another round")
		}
		if _, err := te.Event.Board(b.Round, b.White, b.Black); err != nil {
			return nil, err
		}
		b.ev = &te
	}
	return &te, nil
}

// marshalTDEvent writes what tourney-N.json keeps.
func marshalTDEvent(te *tdEvent) ([]byte, error) { return json.MarshalIndent(te, "", " ") }

// tdSaveEvery bounds how often one event is written: many entrants
// joining and leaving at once must not turn into as many writes of four
// files.
const tdSaveEvery = 100 * time.Millisecond

// save writes the event's state and its outputs now, or within
// tdSaveEvery of the last write (Close writes what is due at once).
func (d *Door) save(te *tdEvent) {
	s := d.s
	if d.cfg.Dir == "" {
		return
	}
	te.dirty = true
	if te.saveTimer != nil {
		return // a write is due
	}
	if wait := te.savedAt.Add(tdSaveEvery).Sub(s.Now()); wait > 0 && !s.Closed() {
		te.saveTimer = time.AfterFunc(wait, func() {
			s.Lock()
			defer s.Unlock()
			te.saveTimer = nil
			d.write(te)
		})
		return
	}
	d.write(te)
}

// flush writes every event with changes not yet written (at Close).
func (d *Door) flush() {
	for _, te := range d.events {
		if te.saveTimer != nil {
			te.saveTimer.Stop()
			te.saveTimer = nil
		}
		d.write(te)
	}
}

// write writes the event's state and its outputs if they changed.
// Errors are logged: the event goes on in memory.
func (d *Door) write(te *tdEvent) {
	s := d.s
	if !te.dirty || d.cfg.Dir == "" {
		return
	}
	te.dirty, te.savedAt = false, s.Now()
	if err := os.MkdirAll(d.cfg.Dir, 0o755); err != nil {
		s.Warn().Msgf("td: %v", err)
		return
	}
	b, err := marshalTDEvent(te)
	if err == nil {
		err = server.WriteAtomic(d.file(te.ID, "json"), b)
	}
	for _, out := range []struct {
		ext  string
		data func() ([]byte, error)
	}{{"pgn", te.pgn}, {"txt", te.crosstableText}, {"html", te.crosstableHTML}} {
		if err != nil {
			break
		}
		var data []byte
		if data, err = out.data(); err == nil {
			err = server.WriteAtomic(d.file(te.ID, out.ext), data)
		}
	}
	if err != nil {
		s.Warn().Msgf("td: tourney %d: %v", te.ID, err)
	}
}

func (te *tdEvent) pgn() ([]byte, error) {
	return []byte(strings.Join(te.PGN, "\n")), nil
}

func (te *tdEvent) crosstableText() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s, %s, %d+%d, %s\n\n", te.Spec.Name, te.Event.System, te.Status, te.Spec.Minutes, te.Spec.Inc, te.progress())
	if len(te.Event.Players) == 0 {
		b.WriteString("No players.\n")
		return b.Bytes(), nil
	}
	tbs := tourney.DefaultTieBreaks(te.Event.System)
	if err := te.Event.WriteStandings(&b, tbs...); err != nil {
		return nil, err
	}
	b.WriteString("\n")
	err := te.Event.WriteCrosstable(&b, tbs...)
	return b.Bytes(), err
}

func (te *tdEvent) crosstableHTML() ([]byte, error) {
	var b bytes.Buffer
	err := te.Event.WriteHTML(&b, tourney.DefaultTieBreaks(te.Event.System)...)
	return b.Bytes(), err
}

// progress is "round 2 of 5" or "not started".
func (te *tdEvent) progress() string {
	if !te.Event.Started() {
		return "not started, " + plural(len(te.Event.Players), "player")
	}
	return fmt.Sprintf("round %d of %d, %s", te.round(), te.Event.Rounds, plural(len(te.Event.Players), "player"))
}

// Events returns a line for each event open or running (opened by
// Config.Events, or resumed from Config.Dir): what it is, how far it
// got and how a player enters it. kriegbot serve prints them at start.
func (d *Door) Events() []string {
	s := d.s
	s.Lock()
	defer s.Unlock()
	var out []string
	for _, te := range d.events {
		if te.over() {
			continue
		}
		line := fmt.Sprintf("%s, %s: %s", te.heading(), te.Status, te.progress())
		if te.Status == tdOpen || te.lateJoinable() {
			line += fmt.Sprintf("; players enter with \"tell %s join %d\"", d.handle(), te.ID)
		}
		out = append(out, line)
	}
	return out
}

// AdjournTD stops the running events between rounds, for a server about to
// stop (kriegbot tourney's Ctrl-C): no further round is paired and no game
// of the round starts; the games in progress play on and count (or, cut by
// Close, are played again). A server started again on Config.Dir goes on
// with them.
func (d *Door) Adjourn() {
	d.s.Lock()
	defer d.s.Unlock()
	for _, te := range d.events {
		if te.Status == tdRunning {
			te.Status = tdAdjourned
			d.save(te)
		}
	}
}

// runningNamed reports whether an event of that name is open or running.
func (d *Door) runningNamed(name string) bool {
	for _, te := range d.events {
		if !te.over() && name != "" && strings.EqualFold(te.Spec.Name, name) {
			return true
		}
	}
	return false
}

// serveTourney answers the event pages of the HTTP door.
func (d *Door) ServeTourney(w http.ResponseWriter, r *http.Request, allow func() (bool, time.Duration)) {
	s := d.s
	id, ext, ok := td.ParsePagePath(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	s.Lock()
	allowed, retry := allow()
	te := d.event(id)
	var data []byte
	var err error
	if allowed && te != nil {
		switch ext {
		case "txt":
			data, err = te.crosstableText()
		case "pgn":
			data, err = te.pgn()
		default:
			data, err = te.crosstableHTML()
		}
	}
	s.Unlock()
	switch {
	case !allowed:
		w.Header().Set("Retry-After", strconv.Itoa(int(retry/time.Second)+1))
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		return
	case te == nil:
		http.NotFound(w, r)
		return
	case err != nil:
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	ctype := map[string]string{"txt": "text/plain; charset=utf-8", "pgn": "application/x-chess-pgn", "html": "text/html; charset=utf-8"}[ext]
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff") // the text and PGN hold players' names: never read them as HTML
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}

// lateJoinable reports whether a running event takes late joins: a Swiss
// with a round left to pair.
func (te *tdEvent) lateJoinable() bool {
	return te.Status == tdRunning && te.Event.System == tourney.Swiss && te.round() < te.Event.Rounds
}
