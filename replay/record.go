package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// Bounds on a record, so that a damaged or hostile file costs bounded memory:
// the daemon writes lines of about 1 kB and a few thousand lines per game.
const (
	// MaxLine is the longest record line accepted, in bytes.
	MaxLine = 64 << 10
	// MaxLines is the most lines read from one record.
	MaxLines = 100_000
	// maxTop is the most candidates kept per recorded search (the daemon
	// records five).
	maxTop = 16
	// maxWords is the most referee announcements in one answer.
	maxWords = 8
	// maxMoves is the most SAN moves in the revealed move list.
	maxMoves = 4096
)

// Record is one game's JSON Lines record as the daemon writes it
// (bot/records.go; docs/records.md).
type Record struct {
	// Name is the file name, for messages.
	Name string
	Game GameInfo
	// Steps are the attempts, answers and clocks in file order.
	Steps []Step
	// Result is the result line, if the game ended.
	Result *ResultInfo
	// Moves is the whole game in SAN, revealed by the server after the game
	// (nil when the record has no moves line).
	Moves []string
	// ResyncLine is the line where the daemon rebuilt its player from the
	// server's move list (0 if it never did); Steps stop there, because the
	// rebuilt player heard less than the record holds.
	ResyncLine int
	ResyncWhy  string
	// Approximate says the record does not hold the searches' sizes (a
	// match file on a clock from before they were written): the re-run
	// searches a size of the user's choosing and may choose otherwise.
	Approximate bool
}

// GameInfo is the record's first line.
type GameInfo struct {
	Line    int
	Number  int
	White   string
	Black   string
	Us      chess.Color
	BaseMin int
	IncS    int
	Rated   bool
	Wild    int
	Seed    uint64
	Player  string
	Start   time.Time
	// Build is the build that played (bot.BuildID), when recorded.
	Build string
	// OpponentModel names the per-opponent model the player was given, when
	// recorded ("" for the spec's own prior).
	OpponentModel string
	// Setup is the set-up position the game began from (match files with
	// -positions), nil for the standard start; HiddenKing says the players
	// did not know where the opponent's king stood in it.
	Setup      *chess.Position
	HiddenKing bool
	// Rules are the referee's rules; the zero value means ICC's.
	Rules umpire.Rules
}

// StepKind says what a Step holds.
type StepKind uint8

// Step kinds.
const (
	// StepAttempt is an attempt our player chose, with its search.
	StepAttempt StepKind = iota
	// StepAnswer is a referee answer as we heard it.
	StepAnswer
	// StepClock is both clocks.
	StepClock
)

// Step is one line after the game line.
type Step struct {
	// Line is the line number in the file (1-based).
	Line int
	Kind StepKind
	T    time.Time
	// Move is the attempt (StepAttempt) or our move (StepAnswer, own).
	Move chess.Move
	// Search is the attempt's recorded search, nil for players without one.
	Search *Search
	// View is what we heard (StepAnswer), rebuilt from the referee's words.
	View umpire.View
	// Words are the referee's words as recorded (StepAnswer).
	Words []string
	// Clock is both clocks (StepClock).
	Clock players.Clocks
}

// Search is a recorded search.
type Search struct {
	Iterations int64
	// Trees is each tree's iterations when the player searched several
	// trees in parallel (nil for one, and in older records).
	Trees  []int64
	Nodes  int64
	Value  float64
	Proven bool
	Top    []players.Candidate
}

// ResultInfo is the result line.
type ResultInfo struct {
	Line    int
	Result  string
	Code    string
	Reason  string
	Plies   int
	Illegal int
}

// rawLine is the union of every line type's fields; unknown fields are
// ignored so that newer daemons' records still replay.
type rawLine struct {
	Type string `json:"type"`
	T    string `json:"t"`
	// game
	Game     *int            `json:"game"`
	White    string          `json:"white"`
	Black    string          `json:"black"`
	Us       string          `json:"us"`
	BaseMin  int             `json:"base_min"`
	IncS     int             `json:"inc_s"`
	Rated    bool            `json:"rated"`
	Wild     int             `json:"wild"`
	Seed     json.RawMessage `json:"seed"`
	Player   string          `json:"player"`
	Start    string          `json:"start"`
	Build    string          `json:"build"`
	OppModel string          `json:"opponent_model"`
	// attempt and answer
	Move   string     `json:"move"`
	Search *rawSearch `json:"search"`
	Own    *bool      `json:"own"`
	Legal  *bool      `json:"legal"`
	Words  []string   `json:"referee"`
	// clock
	OursMs   *int64 `json:"ours_ms"`
	TheirsMs *int64 `json:"theirs_ms"`
	// result
	Result  string `json:"result"`
	Code    string `json:"code"`
	Reason  string `json:"reason"`
	Plies   int    `json:"plies"`
	Why     string `json:"why"`
	Illegal int    `json:"illegal"`
	// moves
	SAN []string `json:"san"`
}

type rawSearch struct {
	Iterations int64          `json:"iterations"`
	Trees      []int64        `json:"trees"`
	Nodes      int64          `json:"nodes"`
	Value      float64        `json:"value"`
	Proven     bool           `json:"proven"`
	Top        []rawCandidate `json:"top"`
}

type rawCandidate struct {
	Move     string  `json:"move"`
	Visits   int64   `json:"visits"`
	Value    float64 `json:"value"`
	PIllegal float64 `json:"p_illegal"`
	PCapture float64 `json:"p_capture"`
	PCheck   float64 `json:"p_check"`
}

// LineError is a record error at a line.
type LineError struct {
	Name string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.Name, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Name, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// ReadRecord reads a per-game record. name is used in errors ("name:line:
// reason"). Every line is checked: a line that is not JSON, a line of
// unknown type, a move that is not UCI, referee words that are not ICC's.
func ReadRecord(r io.Reader, name string) (*Record, error) {
	rec := &Record{Name: name}
	br := bufio.NewReaderSize(r, 4096)
	fail := func(line int, format string, args ...any) error {
		return &LineError{Name: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	seenGame, seenMoves := false, false
	lastAttempt := chess.NullMove
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err == io.EOF {
			break
		}
		if errors.Is(err, errLong) {
			return nil, fail(n, "line longer than %d bytes", MaxLine)
		}
		if err != nil {
			return nil, &LineError{Name: name, Line: n, Err: err}
		}
		if n > MaxLines {
			return nil, fail(n, "more than %d lines", MaxLines)
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var raw rawLine
		if err := unmarshal(line, &raw); err != nil {
			return nil, fail(n, "%v", err)
		}
		if !seenGame && raw.Type != "game" {
			return nil, fail(n, "the first line must be of type \"game\", not %q", raw.Type)
		}
		if seenMoves {
			return nil, fail(n, "line of type %q after the moves line", raw.Type)
		}
		t, err := parseTime(raw.T)
		if err != nil {
			return nil, fail(n, "t: %v", err)
		}
		if rec.ResyncLine != 0 && (raw.Type == "attempt" || raw.Type == "answer" || raw.Type == "clock") {
			continue // past a resync: not replayable
		}
		switch raw.Type {
		case "resync":
			if rec.ResyncLine == 0 {
				rec.ResyncLine, rec.ResyncWhy = n, raw.Why
			}
		case "game":
			if seenGame {
				return nil, fail(n, "a second game line")
			}
			seenGame = true
			g, err := gameInfo(&raw)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			g.Line = n
			rec.Game = g
		case "attempt":
			s, err := attemptStep(&raw)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			s.Line, s.T = n, t
			rec.Steps = append(rec.Steps, s)
			lastAttempt = s.Move
		case "answer":
			s, err := answerStep(&raw)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			s.Line, s.T = n, t
			if s.View.Own && s.Move == chess.NullMove {
				s.Move = lastAttempt
			}
			rec.Steps = append(rec.Steps, s)
		case "clock":
			if raw.OursMs == nil || raw.TheirsMs == nil || *raw.OursMs < -1e9 || *raw.TheirsMs < -1e9 ||
				*raw.OursMs > 1e10 || *raw.TheirsMs > 1e10 {
				return nil, fail(n, "clock: ours_ms and theirs_ms must be milliseconds")
			}
			rec.Steps = append(rec.Steps, Step{Line: n, T: t, Kind: StepClock, Clock: players.Clocks{
				Ours: time.Duration(*raw.OursMs) * time.Millisecond, Theirs: time.Duration(*raw.TheirsMs) * time.Millisecond}})
		case "result":
			if rec.Result != nil {
				return nil, fail(n, "a second result line")
			}
			rec.Result = &ResultInfo{Line: n, Result: raw.Result, Code: raw.Code, Reason: raw.Reason, Plies: raw.Plies, Illegal: raw.Illegal}
		case "moves":
			if len(raw.SAN) > maxMoves {
				return nil, fail(n, "more than %d moves", maxMoves)
			}
			if err := checkSAN(raw.SAN); err != nil {
				return nil, fail(n, "%v", err)
			}
			rec.Moves = raw.SAN
			if rec.Moves == nil {
				rec.Moves = []string{}
			}
			seenMoves = true
		default:
			return nil, fail(n, "unknown line type %q", raw.Type)
		}
	}
	if !seenGame {
		return nil, &LineError{Name: name, Err: errors.New("no game line: not a game record")}
	}
	return rec, nil
}

var errLong = errors.New("line too long")

// readLine returns the next line without its end, or errLong when it
// exceeds MaxLine (the rest of the line is not read).
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine+1 {
			return nil, errLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(buf, []byte{'\n'}), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
	}
}

// unmarshal decodes one JSON object and says what is wrong in a line's terms.
func unmarshal(line []byte, v *rawLine) error {
	if line[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal(line, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		return fmt.Errorf("not valid JSON: %v", err)
	}
	if v.Type == "" {
		return errors.New("no type")
	}
	return nil
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

func gameInfo(raw *rawLine) (GameInfo, error) {
	g := GameInfo{White: raw.White, Black: raw.Black, BaseMin: raw.BaseMin, IncS: raw.IncS,
		Rated: raw.Rated, Wild: raw.Wild, Player: raw.Player, Build: raw.Build,
		OpponentModel: raw.OppModel}
	if raw.Game != nil {
		g.Number = *raw.Game
	}
	switch raw.Us {
	case "white":
		g.Us = chess.White
	case "black":
		g.Us = chess.Black
	default:
		return g, fmt.Errorf("us: %q is neither white nor black", raw.Us)
	}
	seed, err := parseSeed(raw.Seed)
	if err != nil {
		return g, err
	}
	g.Seed = seed
	if raw.Player == "" {
		return g, errors.New("no player spec")
	}
	if raw.BaseMin < 0 || raw.IncS < 0 || raw.BaseMin > 1e6 || raw.IncS > 1e6 {
		return g, errors.New("time control out of range")
	}
	t, err := parseTime(raw.Start)
	if err != nil {
		return g, fmt.Errorf("start: %v", err)
	}
	g.Start = t
	return g, nil
}

// parseSeed reads the 64-bit seed, a JSON number (the daemon's records) or
// a string of digits (match records).
func parseSeed(raw json.RawMessage) (uint64, error) {
	if len(raw) == 0 {
		return 0, errors.New("no seed")
	}
	s := string(raw)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed: %.40s is not an unsigned 64-bit number", raw)
	}
	return u, nil
}

func parseMove(s string) (chess.Move, error) {
	m, err := chess.ParseUCI(s)
	if err != nil || m == chess.NullMove {
		return chess.NullMove, fmt.Errorf("move %q is not a UCI move", s)
	}
	return m, nil
}

func attemptStep(raw *rawLine) (Step, error) {
	m, err := parseMove(raw.Move)
	if err != nil {
		return Step{}, err
	}
	s := Step{Kind: StepAttempt, Move: m}
	if rs := raw.Search; rs != nil {
		if rs.Iterations < 0 || rs.Nodes < 0 || math.IsNaN(rs.Value) || math.IsInf(rs.Value, 0) {
			return Step{}, errors.New("search: negative counts or a value that is not a number")
		}
		if len(rs.Top) > maxTop {
			return Step{}, fmt.Errorf("search: more than %d candidates", maxTop)
		}
		if len(rs.Trees) > 256 {
			return Step{}, errors.New("search: more than 256 trees")
		}
		var sum int64
		for _, n := range rs.Trees {
			if n < 0 {
				return Step{}, errors.New("search: negative tree iterations")
			}
			sum += n
		}
		if rs.Trees != nil && sum != rs.Iterations {
			return Step{}, fmt.Errorf("search: the trees' iterations sum to %d, not %d", sum, rs.Iterations)
		}
		sr := &Search{Iterations: rs.Iterations, Trees: rs.Trees, Nodes: rs.Nodes, Value: rs.Value, Proven: rs.Proven}
		for i, c := range rs.Top {
			cm, err := parseMove(c.Move)
			if err != nil {
				return Step{}, fmt.Errorf("search: candidate %d: %v", i+1, err)
			}
			if c.Visits < 0 {
				return Step{}, fmt.Errorf("search: candidate %d: negative visits", i+1)
			}
			sr.Top = append(sr.Top, players.Candidate{Move: cm, Visits: c.Visits, Value: c.Value,
				PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck})
		}
		s.Search = sr
	}
	return s, nil
}

// answerStep rebuilds the view the player heard from the recorded words;
// the words must be exactly what umpire.View.Words would say of it.
func answerStep(raw *rawLine) (Step, error) {
	if raw.Own == nil {
		return Step{}, errors.New("answer: no own field")
	}
	if len(raw.Words) > maxWords {
		return Step{}, fmt.Errorf("answer: more than %d referee announcements", maxWords)
	}
	v := umpire.View{Heard: true, Own: *raw.Own, PawnTries: -1}
	s := Step{Kind: StepAnswer, Words: raw.Words}
	if v.Own {
		// The daemon repeats our move; other drivers may write "0000" (the
		// player knows what it asked).
		m, err := parseMove(raw.Move)
		if raw.Move == "0000" {
			m, err = chess.NullMove, nil
		}
		if err != nil {
			return Step{}, fmt.Errorf("answer: %v", err)
		}
		if raw.Legal == nil {
			return Step{}, errors.New("answer: own answer without legal field")
		}
		v.Move, v.Illegal = m, !*raw.Legal
		s.Move = m
	} else if raw.Move != "" {
		return Step{}, errors.New("answer: the opponent's move is never known")
	}
	if v.Illegal {
		if len(raw.Words) != 1 || raw.Words[0] != "Illegal move" {
			return Step{}, fmt.Errorf("answer: an illegal attempt must say [\"Illegal move\"], not %q", raw.Words)
		}
		s.View = v
		return s, nil
	}
	var items []protocol.Announcement
	for _, w := range raw.Words {
		var ok bool
		items, ok = parseWord(items[:0], w)
		if !ok || len(items) != 1 {
			return Step{}, fmt.Errorf("answer: %q is not one referee announcement", w)
		}
		a := items[0]
		switch a.Kind {
		case protocol.AnnCapture:
			if v.Capture.Kind != umpire.NoCapture {
				return Step{}, errors.New("answer: two captures")
			}
			v.Capture = a.Capture
		case protocol.AnnCheck:
			switch {
			case v.Checks[0] == chess.NoCheck:
				v.Checks[0] = a.Check
			case v.Checks[1] == chess.NoCheck:
				v.Checks[1] = a.Check
			default:
				return Step{}, errors.New("answer: more than two checks")
			}
		case protocol.AnnPawnTries:
			if v.PawnTries >= 0 {
				return Step{}, errors.New("answer: two pawn-tries counts")
			}
			v.PawnTries = a.Tries
		default:
			return Step{}, fmt.Errorf("answer: %q does not belong in an answer", w)
		}
	}
	// The words must be the canonical rendering, in order: then the view is
	// exactly the one the daemon handed its player.
	if got := v.Words(); strings.Join(got, "|") != strings.Join(raw.Words, "|") {
		return Step{}, fmt.Errorf("answer: referee words %q are not in ICC's order and wording (%q)", raw.Words, got)
	}
	s.View = v
	return s, nil
}

func parseWord(dst []protocol.Announcement, w string) ([]protocol.Announcement, bool) {
	if len(w) > 64 {
		return dst, false
	}
	items, _, unknown := protocol.ParseAnnouncements(dst, []byte(w))
	return items, !unknown && len(items) > 0 && items[0].Game == 0
}

// checkSAN checks that the revealed moves are legal from the start.
func checkSAN(sans []string) error {
	pos := chess.StartPosition()
	for i, s := range sans {
		m, err := pos.ParseSAN(s)
		if err != nil {
			return fmt.Errorf("moves: ply %d: %q: %v", i+1, s, err)
		}
		pos.Make(m)
	}
	return nil
}
