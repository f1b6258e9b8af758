package tourney

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// System is a pairing system.
type System int

const (
	// RoundRobin: everyone meets everyone once (Berger tables).
	RoundRobin System = iota + 1
	// DoubleRoundRobin: everyone meets everyone twice, colours reversed in
	// the second cycle.
	DoubleRoundRobin
	// Swiss: the FIDE Dutch system, as far as doc.go says.
	Swiss
)

func (s System) String() string {
	switch s {
	case RoundRobin:
		return "round robin"
	case DoubleRoundRobin:
		return "double round robin"
	case Swiss:
		return "Swiss"
	}
	return fmt.Sprintf("System(%d)", int(s))
}

// Colour is a side; the zero value is no colour.
type Colour int

const (
	NoColour Colour = iota
	White
	Black
)

// Opposite returns the other colour (NoColour stays NoColour).
func (c Colour) Opposite() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

func (c Colour) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Result is the outcome of one pairing.
type Result int

const (
	// Pending: not played yet ("*").
	Pending Result = iota
	// WhiteWins: 1-0 on the board.
	WhiteWins
	// BlackWins: 0-1 on the board.
	BlackWins
	// Draw: 1/2-1/2 on the board.
	Draw
	// WhiteForfeitWin: Black did not play; White scores a point ("+:-").
	WhiteForfeitWin
	// BlackForfeitWin: White did not play ("-:+").
	BlackForfeitWin
	// DoubleForfeit: neither played; both score zero ("-:-").
	DoubleForfeit
)

// String is the result as written in pairing lists and results files.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	case WhiteForfeitWin:
		return "+:-"
	case BlackForfeitWin:
		return "-:+"
	case DoubleForfeit:
		return "-:-"
	}
	return "*"
}

// PGN is the result as a PGN Result tag ("*" for a pending or doubly
// forfeited game, which has no PGN result).
func (r Result) PGN() string {
	switch r {
	case WhiteWins, WhiteForfeitWin:
		return "1-0"
	case BlackWins, BlackForfeitWin:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Points2 returns the points of White and Black in half-points (2 = a win).
func (r Result) Points2() (white, black int) {
	switch r {
	case WhiteWins, WhiteForfeitWin:
		return 2, 0
	case BlackWins, BlackForfeitWin:
		return 0, 2
	case Draw:
		return 1, 1
	}
	return 0, 0
}

// Played reports whether the game was played on the board (forfeits and
// pending games were not).
func (r Result) Played() bool { return r == WhiteWins || r == BlackWins || r == Draw }

// Done reports whether the result is final.
func (r Result) Done() bool { return r != Pending }

// ByeKind is why a player has no opponent in a round.
type ByeKind int

const (
	// PairingBye: allocated by the Swiss pairing to the odd player out;
	// a full point (C.04.1.c).
	PairingBye ByeKind = iota + 1
	// HalfBye: half a point, for a late join (each round missed) or a bye
	// the player asked for in advance.
	HalfBye
	// ZeroBye: no points; the player was absent at pairing time.
	ZeroBye
	// RestBye: the free round of an odd round robin (the player drawn
	// against the dummy of the Berger table); no points, ignored by the
	// tie-breaks.
	RestBye
)

func (k ByeKind) String() string {
	switch k {
	case PairingBye:
		return "bye"
	case HalfBye:
		return "half-point bye"
	case ZeroBye:
		return "zero-point bye"
	case RestBye:
		return "rest"
	}
	return fmt.Sprintf("ByeKind(%d)", int(k))
}

// Points2 is the bye's value in half-points.
func (k ByeKind) Points2() int {
	switch k {
	case PairingBye:
		return 2
	case HalfBye:
		return 1
	}
	return 0
}

// Player is one entrant. Players are identified by their index in
// Event.Players, which after Start is their pairing number minus one.
type Player struct {
	Handle string
	Rating int
	// Seed is the pairing number (1 = top seed), set by Start from the
	// rating (then the handle); late joiners get the next free numbers.
	Seed int
	// Joined is the first round the player can be paired in (1, or the
	// next round for a late join).
	Joined int
	// WithdrawnAfter is 0 while the player is in the event; n means the
	// player withdrew after round n and is not paired in later rounds.
	WithdrawnAfter int
}

// Active reports whether the player can be paired in round r.
func (p Player) Active(r int) bool {
	return r >= p.Joined && (p.WithdrawnAfter == 0 || r <= p.WithdrawnAfter)
}

// Game is one pairing of a round. White and Black index Event.Players.
type Game struct {
	Board  int
	White  int
	Black  int
	Result Result
}

// Bye is a round without an opponent for one player.
type Bye struct {
	Player int
	Kind   ByeKind
}

// Round is one round's pairings and byes.
type Round struct {
	Number int
	Games  []Game
	Byes   []Bye
	// Note says which pairing criteria a Swiss round had to relax
	// (empty when none).
	Note string
}

// Complete reports whether every game of the round has a result.
func (r Round) Complete() bool {
	for _, g := range r.Games {
		if !g.Result.Done() {
			return false
		}
	}
	return true
}

// request is a bye asked for a future round: a half-point bye (requested)
// or a zero-point bye (absence announced by the TD).
type request struct {
	Round  int
	Player int
	Kind   ByeKind
}

// Event is one tournament: its players and the rounds paired so far. The
// zero value is not ready; use New. All its methods are deterministic.
type Event struct {
	Name    string
	Site    string
	Date    string // for PGN, "2026.11.25" (the caller's clock; empty: unknown)
	System  System
	Rounds  int // planned rounds (a round robin computes them at Start)
	Players []Player
	Played  []Round // rounds paired so far, Played[i].Number == i+1
	// InitialColour is the colour of the top seed in round 1 (White unless set).
	InitialColour Colour
	// NoLookahead turns off the Swiss lookahead (which keeps later rounds
	// pairable without repeats, beyond FIDE's completion criterion) and
	// pairs each round as the Dutch rules alone would.
	NoLookahead bool
	started     bool
	requests    []request
}

// Errors returned by Event methods.
var (
	ErrStarted       = errors.New("tourney: event already started")
	ErrNotStarted    = errors.New("tourney: event not started")
	ErrUnknownPlayer = errors.New("tourney: unknown player")
	ErrRoundOpen     = errors.New("tourney: the current round has games without a result")
	ErrFinished      = errors.New("tourney: all rounds are paired")
	ErrNothingToPair = errors.New("tourney: fewer than two players left to pair")
)

// New returns an event. For a Swiss, rounds is the number of rounds; for a
// round robin it is ignored (Start computes it).
func New(name string, system System, rounds int) *Event {
	return &Event{Name: name, System: system, Rounds: rounds, InitialColour: White}
}

// AddPlayer enters a player before the start. Handles are unique,
// case-insensitively, and must be non-empty without spaces.
func (e *Event) AddPlayer(handle string, rating int) error {
	if e.started {
		return ErrStarted
	}
	return e.add(handle, rating, 1)
}

func (e *Event) add(handle string, rating, joined int) error {
	if handle == "" || strings.ContainsAny(handle, " \t\r\n") {
		return fmt.Errorf("tourney: bad handle %q", handle)
	}
	if _, ok := e.Find(handle); ok {
		return fmt.Errorf("tourney: %s already entered", handle)
	}
	e.Players = append(e.Players, Player{Handle: handle, Rating: rating, Seed: len(e.Players) + 1, Joined: joined})
	return nil
}

// Find returns the index of the player with this handle (case-insensitive).
func (e *Event) Find(handle string) (int, bool) {
	for i, p := range e.Players {
		if strings.EqualFold(p.Handle, handle) {
			return i, true
		}
	}
	return -1, false
}

// Start fixes the pairing numbers (rating descending, then handle) and,
// for a round robin, the number of rounds.
func (e *Event) Start() error {
	if e.started {
		return ErrStarted
	}
	if len(e.Players) < 2 {
		return ErrNothingToPair
	}
	if e.InitialColour == NoColour {
		e.InitialColour = White
	}
	sort.SliceStable(e.Players, func(i, j int) bool {
		a, b := e.Players[i], e.Players[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		return strings.ToLower(a.Handle) < strings.ToLower(b.Handle)
	})
	for i := range e.Players {
		e.Players[i].Seed = i + 1
	}
	switch e.System {
	case RoundRobin, DoubleRoundRobin:
		n := len(e.Players)
		if n%2 == 1 {
			n++
		}
		e.Rounds = n - 1
		if e.System == DoubleRoundRobin {
			e.Rounds *= 2
		}
	case Swiss:
		if e.Rounds < 1 {
			return fmt.Errorf("tourney: a Swiss needs at least one round")
		}
	default:
		return fmt.Errorf("tourney: unknown system %v", e.System)
	}
	e.started = true
	return nil
}

// Started reports whether Start was called.
func (e *Event) Started() bool { return e.started }

// LateJoin enters a player after the start (Swiss only). The player is
// paired from the next round on and gets a half-point bye for every round
// already paired (the ICC Tomato custom for late joiners is a half point
// for round 1).
func (e *Event) LateJoin(handle string, rating int) error {
	if !e.started {
		return e.AddPlayer(handle, rating)
	}
	if e.System != Swiss {
		return fmt.Errorf("tourney: late joins are for Swiss events only")
	}
	next := len(e.Played) + 1
	if next > e.Rounds {
		return ErrFinished
	}
	if err := e.add(handle, rating, next); err != nil {
		return err
	}
	id := len(e.Players) - 1
	for i := range e.Played {
		e.Played[i].Byes = append(e.Played[i].Byes, Bye{Player: id, Kind: HalfBye})
	}
	return nil
}

// Withdraw takes a player out of all rounds not yet paired. A game of the
// current round stays for the TD to decide (usually a forfeit).
func (e *Event) Withdraw(handle string) error {
	id, ok := e.Find(handle)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownPlayer, handle)
	}
	if e.Players[id].WithdrawnAfter == 0 {
		e.Players[id].WithdrawnAfter = len(e.Played)
		if len(e.Played) == 0 {
			// Withdrawn before round 1: never active.
			e.Players[id].WithdrawnAfter = -1
		}
	}
	return nil
}

// Withdrawn reports whether the player has withdrawn.
func (p Player) Withdrawn() bool { return p.WithdrawnAfter != 0 }

// RequestBye records a half-point bye the player asked for in the next
// round to be paired (Swiss only): never a round already paired, so a
// game already paired stands. A round robin has no byes to give (its
// schedule is fixed), and a withdrawn player none to ask for.
func (e *Event) RequestBye(handle string) error {
	if e.System != Swiss {
		return fmt.Errorf("tourney: requested byes are for Swiss events only")
	}
	if id, ok := e.Find(handle); ok && e.Players[id].Withdrawn() {
		return fmt.Errorf("tourney: %s has withdrawn", e.Players[id].Handle)
	}
	return e.request(handle, HalfBye)
}

// Absent records that the player will not be present at the next pairing:
// a zero-point bye in a Swiss, a forfeit loss in a round robin.
func (e *Event) Absent(handle string) error { return e.request(handle, ZeroBye) }

func (e *Event) request(handle string, kind ByeKind) error {
	// A request names the player by index, which Start changes (it sorts
	// the players into pairing order): before it, a request would land on
	// another player.
	if !e.started {
		return ErrNotStarted
	}
	id, ok := e.Find(handle)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownPlayer, handle)
	}
	r := len(e.Played) + 1
	if r > e.Rounds {
		return ErrFinished
	}
	for i, q := range e.requests {
		if q.Round == r && q.Player == id {
			e.requests[i].Kind = kind
			return nil
		}
	}
	e.requests = append(e.requests, request{Round: r, Player: id, Kind: kind})
	return nil
}

func (e *Event) requested(round, id int) (ByeKind, bool) {
	for _, q := range e.requests {
		if q.Round == round && q.Player == id {
			return q.Kind, true
		}
	}
	return 0, false
}

// activeCount is the number of players that can still be paired in round r.
func (e *Event) activeCount(r int) int {
	n := 0
	for _, p := range e.Players {
		if p.Active(r) {
			n++
		}
	}
	return n
}

// Done reports whether the event is over: every planned round is paired
// and complete, or fewer than two players are left to pair.
func (e *Event) Done() bool {
	if !e.started {
		return false
	}
	if n := len(e.Played); n > 0 && !e.Played[n-1].Complete() {
		return false
	}
	return len(e.Played) >= e.Rounds || e.activeCount(len(e.Played)+1) < 2
}

// PairNext pairs the next round and appends it to Played.
func (e *Event) PairNext() (Round, error) {
	if !e.started {
		return Round{}, ErrNotStarted
	}
	if n := len(e.Played); n > 0 && !e.Played[n-1].Complete() {
		return Round{}, ErrRoundOpen
	}
	if len(e.Played) >= e.Rounds {
		return Round{}, ErrFinished
	}
	r := len(e.Played) + 1
	if e.activeCount(r) < 2 {
		return Round{}, ErrNothingToPair
	}
	var rd Round
	var err error
	switch e.System {
	case RoundRobin, DoubleRoundRobin:
		rd = e.pairRoundRobin(r)
	case Swiss:
		rd, err = e.pairSwiss(r)
	}
	if err != nil {
		return Round{}, err
	}
	e.Played = append(e.Played, rd)
	return rd, nil
}

// SetResult records the result of a game of a round, by board (1-based).
func (e *Event) SetResult(round, board int, res Result) error {
	if round < 1 || round > len(e.Played) {
		return fmt.Errorf("tourney: no round %d", round)
	}
	rd := &e.Played[round-1]
	for i := range rd.Games {
		if rd.Games[i].Board == board {
			rd.Games[i].Result = res
			return nil
		}
	}
	return fmt.Errorf("tourney: round %d has no board %d", round, board)
}

// Record records a result by the players' handles; white and black must
// match the pairing's colours.
func (e *Event) Record(round int, white, black string, res Result) error {
	b, err := e.Board(round, white, black)
	if err != nil {
		return err
	}
	return e.SetResult(round, b, res)
}

// Board returns the board number of white vs black in a round.
func (e *Event) Board(round int, white, black string) (int, error) {
	if round < 1 || round > len(e.Played) {
		return 0, fmt.Errorf("tourney: no round %d", round)
	}
	w, ok1 := e.Find(white)
	b, ok2 := e.Find(black)
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("%w: %s or %s", ErrUnknownPlayer, white, black)
	}
	for _, g := range e.Played[round-1].Games {
		if g.White == w && g.Black == b {
			return g.Board, nil
		}
	}
	return 0, fmt.Errorf("tourney: round %d has no game %s - %s", round, white, black)
}

// Points2 returns each player's score in half-points over the rounds
// paired so far (pending games count nothing).
func (e *Event) Points2() []int {
	pts := make([]int, len(e.Players))
	for _, rd := range e.Played {
		for _, g := range rd.Games {
			w, b := g.Result.Points2()
			pts[g.White] += w
			pts[g.Black] += b
		}
		for _, by := range rd.Byes {
			pts[by.Player] += by.Kind.Points2()
		}
	}
	return pts
}
