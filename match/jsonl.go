package match

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

// The JSON Lines output holds three kinds of line, told apart by "type":
//
//	{"type":"match", ...}   once per file: the players and settings
//	{"type":"attempt", ...} every attempt of a game, in order, with the answer
//	{"type":"game", ...}    after a game's attempts: its result
//
// The lines of one game are written together, games in index order.

// MatchLine heads a JSON Lines file.
// Budget is one player's budget in a match file.
type Budget struct {
	TimeControl string `json:"tc"`
	MoveTimeMs  int64  `json:"movetime_ms,omitempty"`
	Nodes       int64  `json:"nodes,omitempty"`
}

type MatchLine struct {
	Type        string `json:"type"`
	P1          string `json:"p1"`
	P2          string `json:"p2"`
	Games       int    `json:"games"`
	Seed        uint64 `json:"seed,string"`
	Shard       int    `json:"shard"`
	Shards      int    `json:"shards"`
	Rules       string `json:"rules"`
	MaxPlies    int    `json:"max_plies"`
	TimeControl string `json:"tc"`
	MoveTimeMs  int64  `json:"movetime_ms,omitempty"`
	Nodes       int64  `json:"nodes,omitempty"`
	// P1Budget and P2Budget are a player's own budget when its spec gave
	// one (time odds: "mcts:movetime=400ms"); nil means the match's.
	P1Budget *Budget `json:"p1_budget,omitempty"`
	P2Budget *Budget `json:"p2_budget,omitempty"`
	// P1Ponder and P2Ponder say a player pondered (spec key ponder=on).
	P1Ponder bool `json:"p1_ponder,omitempty"`
	P2Ponder bool `json:"p2_ponder,omitempty"`
	// Positions is the number of start positions (-positions), 0 for the
	// standard start.
	Positions int `json:"positions,omitempty"`
	// HiddenKing says the players started not knowing where the opponent's
	// king stood (-hidden-king).
	HiddenKing bool `json:"hidden_king,omitempty"`
}

// AttemptLine is one attempt.
type AttemptLine struct {
	Type     string   `json:"type"`
	Game     int      `json:"game"`
	Ply      int      `json:"ply"`
	Side     string   `json:"side"`
	Attempt  string   `json:"attempt"`
	Legal    bool     `json:"legal"`
	SAN      string   `json:"san,omitempty"`
	Capture  string   `json:"capture,omitempty"`
	Captured string   `json:"captured,omitempty"`
	Checks   []string `json:"checks,omitempty"`
	Tries    int      `json:"tries,omitempty"`
	Ending   string   `json:"ending,omitempty"`
	ThinkUs  int64    `json:"think_us"`
	ClockMs  *int64   `json:"clock_ms,omitempty"`
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

// GameLine is one game's result.
type GameLine struct {
	Type        string  `json:"type"`
	Game        int     `json:"game"`
	Seed        uint64  `json:"seed,string"`
	White       string  `json:"white"`
	Black       string  `json:"black"`
	P1          string  `json:"p1"` // "white" or "black"
	Result      string  `json:"result"`
	Termination string  `json:"termination"`
	Plies       int     `json:"plies"`
	Attempts    int     `json:"attempts"`
	P1Score     float64 `json:"p1_score"`
	Error       string  `json:"error,omitempty"`
	// FEN is the start position when not the standard start.
	FEN string `json:"fen,omitempty"`
}

// WriteJSONL writes the game's attempt lines and its game line.
func (r *Record) WriteJSONL(w io.Writer) error {
	var b []byte
	for _, a := range r.Attempts {
		l := AttemptLine{
			Type: "attempt", Game: r.Game, Ply: a.Ply, Side: a.Answer.Mover.String(),
			Attempt: a.Answer.Attempt.String(), Legal: a.Answer.Legal, SAN: a.SAN,
			Tries: max(a.Answer.PawnTries, 0), Ending: a.Answer.Ending.String(),
			ThinkUs: a.Elapsed.Microseconds(),
		}
		if a.Answer.Capture.Kind != umpire.NoCapture {
			l.Capture, l.Captured = a.Answer.Capture.Square.String(), a.Answer.Capture.Kind.String()
		}
		for _, k := range a.Answer.Checks {
			if k != chess.NoCheck {
				l.Checks = append(l.Checks, k.String())
			}
		}
		if a.Timed {
			ms := a.Clock.Milliseconds()
			l.ClockMs = &ms
		}
		if a.Searched {
			it := a.Iterations
			l.Iterations, l.Trees, l.TreeNodes, l.Critical, l.Boards = &it, a.Trees, a.TreeNodes, a.Critical, a.Boards
		}
		if a.Ponder != nil {
			it := a.Ponder.Iterations
			l.Ponder, l.PonderTrees = &it, a.Ponder.Trees
		}
		b = appendJSON(b, l)
	}
	b = appendJSON(b, r.gameLine())
	_, err := w.Write(b)
	return err
}

func (r *Record) gameLine() GameLine {
	p1 := "black"
	if r.P1White {
		p1 = "white"
	}
	g := GameLine{
		Type: "game", Game: r.Game, Seed: r.Seed, White: r.White, Black: r.Black, P1: p1,
		Result: r.Result, Termination: r.Termination, Plies: r.Plies, Attempts: len(r.Attempts),
		P1Score: r.P1Score(), Error: r.Error,
	}
	if r.Start != nil {
		g.FEN = r.Start.FEN()
	}
	return g
}

func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings and numbers always marshal
	}
	return append(append(b, j...), '\n')
}

// maxLine bounds a JSON Lines line when reading: the longest real line (a
// game line with an error text) is a few hundred bytes.
const maxLine = 64 << 10

// Shard is what one JSON Lines file holds for merging.
type Shard struct {
	Name   string
	Header MatchLine
	Games  []GameLine
	lines  []int // line number of each game line
}

// ReadShard reads a JSON Lines file written by a match (name is for errors).
// It checks each line strictly: known type, known fields, sensible values.
func ReadShard(name string, r io.Reader) (*Shard, error) {
	return readLines(name, r, nil)
}

// Game is one game of a match file, with its attempts, for a replay.
type Game struct {
	Header MatchLine
	Result GameLine
	// ResultLine is the line number of the game line.
	ResultLine int
	Attempts   []AttemptLine
	// Lines are the attempts' line numbers.
	Lines []int
}

// ReadGame reads game number game (its index in the match) from a match's
// JSON Lines file, checked as ReadShard checks it; only that game's attempts
// are kept.
func ReadGame(name string, r io.Reader, game int) (*Game, error) {
	gs, sh, err := readGames(name, r, func(g int) bool { return g == game })
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("%s: no game %d (the file has %d games)", name, game, len(sh.Games))
	}
	return gs[0], nil
}

// ReadGames reads the match line and every game of a match's JSON Lines
// file with its attempts, in the file's order, checked as ReadShard checks
// it.
func ReadGames(name string, r io.Reader) (MatchLine, []*Game, error) {
	gs, sh, err := readGames(name, r, func(int) bool { return true })
	if err != nil {
		return MatchLine{}, nil, err
	}
	return sh.Header, gs, nil
}

// readGames reads the games that keep selects, with their attempts, and
// the file's shard (its match line and all its game lines).
func readGames(name string, r io.Reader, keep func(game int) bool) ([]*Game, *Shard, error) {
	byGame := map[int]*Game{}
	sh, err := readLines(name, r, func(a *AttemptLine, line int) {
		if !keep(a.Game) {
			return
		}
		g := byGame[a.Game]
		if g == nil {
			g = &Game{}
			byGame[a.Game] = g
		}
		g.Attempts = append(g.Attempts, *a)
		g.Lines = append(g.Lines, line)
	})
	if err != nil {
		return nil, nil, err
	}
	var gs []*Game
	for i, gl := range sh.Games {
		if !keep(gl.Game) {
			continue
		}
		g := byGame[gl.Game]
		if g == nil {
			g = &Game{}
		}
		g.Header, g.Result, g.ResultLine = sh.Header, gl, sh.lines[i]
		gs = append(gs, g)
	}
	return gs, sh, nil
}

// readLines reads a match file, handing each attempt line to attempt when
// it is not nil.
func readLines(name string, r io.Reader, attempt func(a *AttemptLine, line int)) (*Shard, error) {
	sh := &Shard{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	sawHeader := false
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if len(strings.TrimSpace(string(text))) == 0 {
			continue
		}
		var kind struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(text, &kind); err != nil {
			return nil, fail("not a JSON object: %v", err)
		}
		switch kind.Type {
		case "match":
			if sawHeader {
				return nil, fail("second match line")
			}
			if err := strictUnmarshal(text, &sh.Header); err != nil {
				return nil, fail("%v", err)
			}
			if sh.Header.P1 == "" || sh.Header.P2 == "" {
				return nil, fail("match line without p1 and p2")
			}
			sawHeader = true
		case "attempt":
			var a AttemptLine
			if err := strictUnmarshal(text, &a); err != nil {
				return nil, fail("%v", err)
			}
			if err := a.check(); err != nil {
				return nil, fail("%v", err)
			}
			if attempt != nil {
				attempt(&a, line)
			}
		case "game":
			if !sawHeader {
				return nil, fail("game line before the match line")
			}
			var g GameLine
			if err := strictUnmarshal(text, &g); err != nil {
				return nil, fail("%v", err)
			}
			if err := g.check(sh.Header); err != nil {
				return nil, fail("%v", err)
			}
			sh.Games = append(sh.Games, g)
			sh.lines = append(sh.lines, line)
		default:
			return nil, fail("unknown line type %q", kind.Type)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxLine)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if !sawHeader {
		return nil, fmt.Errorf("%s: no match line", name)
	}
	return sh, nil
}

func strictUnmarshal(b []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	return d.Decode(v) // trailing text was refused by the type probe
}

// check refuses the counts no search records: kriegbot replay hands them
// back to a search as its budget.
func (a *AttemptLine) check() error {
	if a.ThinkUs < 0 {
		return fmt.Errorf("think_us %d is negative", a.ThinkUs)
	}
	if a.Iterations == nil {
		if a.Trees != nil || a.TreeNodes != 0 || a.Boards != 0 {
			return errors.New("trees, tree_nodes or boards without iterations")
		}
	} else if err := search.CheckRecorded(*a.Iterations, a.Trees, a.Boards); err != nil {
		return fmt.Errorf("search: %v", err)
	}
	if a.TreeNodes < 0 {
		return fmt.Errorf("tree_nodes %d is negative", a.TreeNodes)
	}
	if a.Ponder == nil {
		if a.PonderTrees != nil {
			return errors.New("ponder_trees without ponder")
		}
	} else if err := search.CheckRecorded(*a.Ponder, a.PonderTrees, 0); err != nil {
		return fmt.Errorf("ponder: %v", err)
	}
	return nil
}

func (g *GameLine) check(h MatchLine) error {
	if g.Game < 0 || (h.Games > 0 && g.Game >= h.Games) {
		return fmt.Errorf("game %d out of range 0..%d", g.Game, h.Games-1)
	}
	if !slices.Contains([]string{"1-0", "0-1", "1/2-1/2", "*"}, g.Result) {
		return fmt.Errorf("game %d: bad result %q", g.Game, g.Result)
	}
	if !slices.Contains(Terminations(), g.Termination) {
		return fmt.Errorf("game %d: unknown termination %q", g.Game, g.Termination)
	}
	want := [2]string{h.P1, h.P2}
	switch g.P1 {
	case "white":
	case "black":
		want = [2]string{h.P2, h.P1}
	default:
		return fmt.Errorf("game %d: p1 is %q, want white or black", g.Game, g.P1)
	}
	if g.White != want[0] || g.Black != want[1] {
		return fmt.Errorf("game %d: %s vs %s does not match the match line's players", g.Game, g.White, g.Black)
	}
	r := Record{Result: g.Result, P1White: g.P1 == "white"}
	if r.P1Score() != g.P1Score {
		return fmt.Errorf("game %d: p1_score %v disagrees with result %s", g.Game, g.P1Score, g.Result)
	}
	return nil
}
