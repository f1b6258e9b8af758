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
	"kriegbot/engine/search/alphabeta"
	"kriegbot/record"
)

// The JSON Lines output holds three kinds of line, told apart by "type":
//
//	{"type":"match", ...}   once per file: the players and settings
//	{"type":"attempt", ...} every attempt of a game, in order, with the answer
//	                        (record.RefereeLine, with record.MatchSearch)
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
	Type   string `json:"type"`
	P1     string `json:"p1"`
	P2     string `json:"p2"`
	Games  int    `json:"games"`
	Seed   uint64 `json:"seed,string"`
	Shard  int    `json:"shard"`
	Shards int    `json:"shards"`
	Rules  string `json:"rules"`
	// Variant is the Kriegspiel variant by the site's identifier
	// (umpire.Variant; absent: wild 16).
	Variant     string `json:"variant,omitempty"`
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
	// Variant is the match's variant (absent: wild 16).
	Variant string `json:"variant,omitempty"`
	// EndFEN is the position the game ended in, and P1Material the first
	// player's material less the second's there, in centipawns (pawn 100,
	// knight 320, bishop 330, rook 500, queen 900): what a game cut at the
	// ply cap was heading for. Absent in files of older versions.
	EndFEN     string `json:"end_fen,omitempty"`
	P1Material *int32 `json:"p1_material,omitempty"`
}

// WriteJSONL writes the game's attempt lines and its game line.
func (r *Record) WriteJSONL(w io.Writer) error {
	var b []byte
	for _, a := range r.Attempts {
		l := record.NewRefereeLine(r.Game, a.Ply, a.Answer)
		l.Type, l.SAN = record.TypeRefereeAttempt, a.SAN
		s := &record.MatchSearch{ThinkUs: a.Elapsed.Microseconds()}
		if a.Timed {
			ms := a.Clock.Milliseconds()
			s.ClockMs = &ms
		}
		if a.Searched {
			it := a.Iterations
			s.Iterations, s.Trees, s.TreeNodes, s.Critical, s.Boards = &it, a.Trees, a.TreeNodes, a.Critical, a.Boards
		}
		if a.Ponder != nil {
			it := a.Ponder.Iterations
			s.Ponder, s.PonderTrees = &it, a.Ponder.Trees
		}
		l.MatchSearch = s
		b = record.AppendRefereeLine(b, l)
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
		P1Score: r.P1Score(), Error: r.Error, Variant: r.Variant,
	}
	if r.Start != nil {
		g.FEN = r.Start.FEN()
	}
	if r.End.Occupied() != 0 {
		g.EndFEN = r.End.FEN()
		lead := p1Material(&r.End, r.P1White)
		g.P1Material = &lead
	}
	return g
}

// p1Material is the first player's material less the second's on end, in
// centipawns.
func p1Material(end *chess.Position, p1White bool) int32 {
	lead := alphabeta.Material(end, chess.White) - alphabeta.Material(end, chess.Black)
	if !p1White {
		lead = -lead
	}
	return lead
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
	Attempts   []record.RefereeLine
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
	sh, err := readLines(name, r, func(a *record.RefereeLine, line int) {
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
func readLines(name string, r io.Reader, attempt func(a *record.RefereeLine, line int)) (*Shard, error) {
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
			a, err := record.ReadRefereeLine(text)
			if err != nil {
				return nil, fail("%v", err)
			}
			if a.MatchSearch == nil {
				a.MatchSearch = &record.MatchSearch{} // a line without think_us
			}
			if a.ServerClock != nil {
				return nil, fail("a server's clocks in a match file")
			}
			if attempt != nil {
				attempt(a, line)
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
	if g.Variant != h.Variant {
		return fmt.Errorf("game %d: variant %q, the match line's %q", g.Game, g.Variant, h.Variant)
	}
	r := Record{Result: g.Result, P1White: g.P1 == "white"}
	if r.P1Score() != g.P1Score {
		return fmt.Errorf("game %d: p1_score %v disagrees with result %s", g.Game, g.P1Score, g.Result)
	}
	if (g.EndFEN == "") != (g.P1Material == nil) {
		return fmt.Errorf("game %d: end_fen and p1_material come together", g.Game)
	}
	if g.EndFEN != "" {
		end, err := chess.ParseFEN(g.EndFEN)
		if err != nil {
			return fmt.Errorf("game %d: end_fen: %v", g.Game, err)
		}
		if lead := p1Material(&end, r.P1White); lead != *g.P1Material {
			return fmt.Errorf("game %d: p1_material %d, the end position's %d", g.Game, *g.P1Material, lead)
		}
	}
	return nil
}
