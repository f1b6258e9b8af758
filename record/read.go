package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

// Bounds on a record, so that a damaged or hostile file costs bounded memory:
// the daemon writes lines of about 1 kB and a few thousand lines per game.
const (
	// MaxLine is the longest record line accepted, in bytes.
	MaxLine = 64 << 10
	// MaxLines is the most lines read from one record.
	MaxLines = 100_000
	// MaxTop is the most candidates kept per recorded search (the daemon
	// records five).
	MaxTop = 16
	// maxMoves is the most SAN moves in the revealed move list.
	maxMoves = 4096
)

// Record is one game's JSON Lines record as read (docs/records.md).
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
	// Cut is the line where the record ends mid-line (0 when it ends
	// whole): its last line has no newline and is not JSON, as a crash
	// while the line was written leaves it. The complete lines before it
	// are read; Result and Moves are then usually missing.
	Cut int
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
	// Build is the build that played, when recorded.
	Build string
	// OpponentModel names the per-opponent model the player was given, when
	// recorded ("" for the spec's own prior).
	OpponentModel string
	// OpponentCounts is the path of the counts file that model was blended
	// from (beside the record, when the record kept one: the record's
	// folder joined to the name the game line gives), and
	// OpponentCountsSHA256 the file's SHA-256 in hex.
	OpponentCounts       string
	OpponentCountsSHA256 string
	// BaseModel names the variant's model the player started from ("" for
	// the embedded default), and BaseCounts and BaseCountsSHA256 are the
	// file kept beside the record, as for OpponentCounts.
	BaseModel        string
	BaseCounts       string
	BaseCountsSHA256 string
	// Setup is the set-up position the game began from (match files with
	// -positions), nil for the standard start; HiddenKing says the players
	// did not know where the opponent's king stood in it.
	Setup      *chess.Position
	HiddenKing bool
	// Rules are the referee's rules; the zero value means ICC's.
	Rules umpire.Rules
	// Version is the record schema's version (Version; 1 for records
	// without "v").
	Version int
	// Control is the time control the player was given: the game line's
	// tc, or base_min and inc_s.
	Control clock.Control
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
	// StepPonder is a ponder during the opponent's turn (Search holds its
	// iterations, and each tree's with several).
	StepPonder
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
	Trees []int64
	Nodes int64
	// Boards is the root's mate count (0: none, or a record from before
	// it was recorded).
	Boards int
	Value  float64
	Proven bool
	// Critical says the search, on a clock, planned to the plan's maximum
	// (a critical choice).
	Critical bool
	Top      []players.Candidate
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

// Read reads a per-game record. name is used in errors ("name:line:
// reason"). Every line is checked: a line that is not JSON, a line of
// unknown type, a move that is not UCI, referee words that are not ICC's.
// The one exception is a record cut short: a last line without its newline
// that is not JSON ends the record there (Record.Cut); a line that is not
// JSON anywhere else is an error.
func Read(r io.Reader, name string) (*Record, error) {
	rec := &Record{Name: name}
	br := bufio.NewReaderSize(r, 4096)
	fail := func(line int, format string, args ...any) error {
		return &LineError{Name: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	seenGame, seenMoves := false, false
	lastAttempt := chess.NullMove
	for n := 1; ; n++ {
		line, whole, err := readLine(br)
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
		if !whole && !json.Valid(line) {
			// Lines are written whole with one append each: a last line
			// without its newline that does not parse is one a crash cut.
			if !seenGame {
				return nil, fail(n, "the record ends mid-line before its game line is whole (cut short)")
			}
			rec.Cut = n
			break
		}
		typ, err := typeOf(line)
		if err != nil {
			return nil, fail(n, "%v", err)
		}
		if !seenGame && typ != TypeGame {
			return nil, fail(n, "the first line must be of type \"game\", not %q", typ)
		}
		if seenMoves {
			return nil, fail(n, "line of type %q after the moves line", typ)
		}
		var stamp struct {
			T string `json:"t"`
		}
		if err := decode(line, &stamp); err != nil {
			return nil, fail(n, "%v", err)
		}
		t, err := parseTime(stamp.T)
		if err != nil {
			return nil, fail(n, "t: %v", err)
		}
		if rec.ResyncLine != 0 && (typ == TypeAttempt || typ == TypeAnswer || typ == TypeClock || typ == TypePonder) {
			continue // past a resync: not replayable
		}
		switch typ {
		case TypeResync:
			var l ResyncLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			if rec.ResyncLine == 0 {
				rec.ResyncLine, rec.ResyncWhy = n, l.Why
			}
		case TypeGame:
			if seenGame {
				return nil, fail(n, "a second game line")
			}
			seenGame = true
			var l GameLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			g, err := gameInfo(line, name, &l)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			g.Line = n
			rec.Game = g
		case TypeAttempt:
			var l AttemptLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			s, err := attemptStep(&l)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			s.Line, s.T = n, t
			rec.Steps = append(rec.Steps, s)
			lastAttempt = s.Move
		case TypeAnswer:
			var l AnswerLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			s, err := answerStep(&l, rec.Game.Version, rec.Game.Rules.Variant)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			s.Line, s.T = n, t
			if s.View.Own && s.Move == chess.NullMove {
				s.Move = lastAttempt
			}
			rec.Steps = append(rec.Steps, s)
		case TypeClock:
			var l ClockLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			if l.OursMs == nil || l.TheirsMs == nil || *l.OursMs < -1e9 || *l.TheirsMs < -1e9 ||
				*l.OursMs > 1e10 || *l.TheirsMs > 1e10 {
				return nil, fail(n, "clock: ours_ms and theirs_ms must be milliseconds")
			}
			rec.Steps = append(rec.Steps, Step{Line: n, T: t, Kind: StepClock, Clock: players.Clocks{
				Ours: time.Duration(*l.OursMs) * time.Millisecond, Theirs: time.Duration(*l.TheirsMs) * time.Millisecond}})
		case TypePonder:
			var l PonderLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			if err := search.CheckRecorded(l.Iterations, l.Trees, 0); err != nil {
				return nil, fail(n, "ponder: %v", err)
			}
			rec.Steps = append(rec.Steps, Step{Line: n, T: t, Kind: StepPonder, Search: &Search{Iterations: l.Iterations, Trees: l.Trees}})
		case TypeResult:
			if rec.Result != nil {
				return nil, fail(n, "a second result line")
			}
			var l ResultLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			rec.Result = &ResultInfo{Line: n, Result: l.Result, Code: l.Code, Reason: l.Reason, Plies: l.Plies, Illegal: l.Illegal}
		case TypeMoves:
			var l MovesLine
			if err := decode(line, &l); err != nil {
				return nil, fail(n, "%v", err)
			}
			if len(l.SAN) > maxMoves {
				return nil, fail(n, "more than %d moves", maxMoves)
			}
			if err := checkMoves(&rec.Game, l.SAN); err != nil {
				return nil, fail(n, "%v", err)
			}
			rec.Moves = l.SAN
			if rec.Moves == nil {
				rec.Moves = []string{}
			}
			seenMoves = true
		default:
			return nil, fail(n, "unknown line type %q", typ)
		}
	}
	if !seenGame {
		return nil, &LineError{Name: name, Err: errors.New("no game line: not a game record")}
	}
	return rec, nil
}

var errLong = errors.New("line too long")

// ReadLine returns the next line without its end, or errLong when it
// exceeds MaxLine (the rest of the line is not read).
func ReadLine(br *bufio.Reader) ([]byte, error) {
	line, _, err := readLine(br)
	return line, err
}

// readLine is ReadLine that also says whether the line ended with its
// newline (only the file's last line may not).
func readLine(br *bufio.Reader) (line []byte, whole bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine+1 {
			return nil, false, errLong
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(buf, []byte{'\n'}), true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) > 0:
			return buf, false, nil
		default:
			return nil, false, err
		}
	}
}

func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// keptFile checks a model file a game line names beside the record (field
// is its key) and returns its path from the record's folder and its hash.
// Only a plain file name: a record must not point a replay at any file on
// the machine.
func keptFile(record, field, file, sum string) (path, sha string, err error) {
	if file == "" {
		return "", "", nil
	}
	if filepath.Base(file) != file || !strings.HasSuffix(file, ".kbm") || len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return "", "", fmt.Errorf("%s %q (sha256 %q): not a .kbm file name beside the record with its SHA-256", field, file, sum)
	}
	return filepath.Join(filepath.Dir(record), file), sum, nil
}

func gameInfo(line []byte, name string, l *GameLine) (GameInfo, error) {
	g := GameInfo{Number: l.Game, White: l.White, Black: l.Black, BaseMin: l.BaseMin, IncS: l.IncS,
		Rated: l.Rated, Wild: l.Wild, Player: l.Player, Build: l.Build, OpponentModel: l.OpponentModel, BaseModel: l.BaseModel,
		Seed: uint64(l.Seed), Version: max(l.V, 1)}
	if l.V > Version {
		return g, fmt.Errorf("record version %d is newer than this program's (%d)", l.V, Version)
	}
	var err error
	if g.OpponentCounts, g.OpponentCountsSHA256, err = keptFile(name, "opponent_counts", l.OpponentCounts, l.OpponentCountsSHA256); err != nil {
		return g, err
	}
	if g.BaseCounts, g.BaseCountsSHA256, err = keptFile(name, "base_counts", l.BaseCounts, l.BaseCountsSHA256); err != nil {
		return g, err
	}
	if l.Rules != "" || l.Variant != "" {
		r, err := ParseRules(l.Rules, l.Variant)
		if err != nil {
			return g, fmt.Errorf("rules: %v", err)
		}
		if l.MaxPlies < 0 || l.MaxReversible < 0 {
			return g, fmt.Errorf("max_plies %d, max_reversible %d: negative", l.MaxPlies, l.MaxReversible)
		}
		r.MaxPlies, r.MaxReversible, r.DeadMaterial = l.MaxPlies, l.MaxReversible, l.DeadMaterial
		g.Rules = r
	}
	switch l.Us {
	case "white":
		g.Us = chess.White
	case "black":
		g.Us = chess.Black
	default:
		return g, fmt.Errorf("us: %q is neither white nor black", l.Us)
	}
	var seed struct {
		Seed json.RawMessage `json:"seed"`
	}
	if err := decode(line, &seed); err != nil || len(seed.Seed) == 0 {
		return g, errors.New("no seed")
	}
	if l.Player == "" {
		return g, errors.New("no player spec")
	}
	if l.BaseMin < 0 || l.IncS < 0 || l.BaseMin > 1e6 || l.IncS > 1e6 {
		return g, errors.New("time control out of range")
	}
	g.Control = clock.Control{Base: time.Duration(l.BaseMin) * time.Minute, Increment: time.Duration(l.IncS) * time.Second}
	if l.TC != "" {
		c, err := clock.ParseControl(l.TC)
		if err != nil {
			return g, fmt.Errorf("tc: %v", err)
		}
		g.Control = c
	}
	if l.FEN != "" {
		pos, err := chess.ParseFEN(l.FEN)
		if err != nil {
			return g, fmt.Errorf("fen: %v", err)
		}
		g.Setup = &pos
	}
	g.HiddenKing = l.HiddenKing
	if g.HiddenKing && g.Setup == nil {
		return g, errors.New("hidden_king without a fen")
	}
	t, err := parseTime(l.Start)
	if err != nil {
		return g, fmt.Errorf("start: %v", err)
	}
	g.Start = t
	return g, nil
}

func parseMove(s string) (chess.Move, error) {
	m, err := chess.ParseUCI(s)
	if err != nil || m == chess.NullMove {
		return chess.NullMove, fmt.Errorf("move %q is not a UCI move", s)
	}
	return m, nil
}

// ParseAttempt reads an attempt as records spell it (MoveText): UCI, a
// drop ("N@e4") or "any" (chess.NullMove).
func ParseAttempt(s string) (chess.Move, error) {
	if s == AskAny {
		return chess.NullMove, nil
	}
	if len(s) == 4 && s[1] == '@' {
		m, err := umpire.ParseMoveText(s)
		if err != nil {
			return chess.NullMove, fmt.Errorf("move %q is not a drop", s)
		}
		return m, nil
	}
	return parseMove(s)
}

func attemptStep(raw *AttemptLine) (Step, error) {
	m, err := ParseAttempt(raw.Move)
	if err != nil {
		return Step{}, err
	}
	s := Step{Kind: StepAttempt, Move: m}
	if rs := raw.Search; rs != nil {
		if rs.Nodes < 0 || math.IsNaN(rs.Value) || math.IsInf(rs.Value, 0) {
			return Step{}, errors.New("search: negative nodes or a value that is not a number")
		}
		if len(rs.Top) > MaxTop {
			return Step{}, fmt.Errorf("search: more than %d candidates", MaxTop)
		}
		if err := search.CheckRecorded(rs.Iterations, rs.Trees, rs.Boards); err != nil {
			return Step{}, fmt.Errorf("search: %v", err)
		}
		sr := &Search{Iterations: rs.Iterations, Trees: rs.Trees, Nodes: rs.Nodes, Boards: rs.Boards,
			Value: rs.Value, Proven: rs.Proven, Critical: rs.Critical}
		for i, c := range rs.Top {
			cm, err := ParseAttempt(c.Move) // a move or a drop (crazykrieg)
			if err == nil && cm == chess.NullMove {
				err = errors.New(`"any" is not a searched attempt`)
			}
			if err != nil {
				return Step{}, fmt.Errorf("search: candidate %d: %v", i+1, err)
			}
			if c.Visits < 0 {
				return Step{}, fmt.Errorf("search: candidate %d: negative visits", i+1)
			}
			if name, p, ok := chancesOK(&c); !ok {
				return Step{}, fmt.Errorf("search: candidate %d: %s %g is not a chance", i+1, name, p)
			}
			sr.Top = append(sr.Top, players.Candidate{Move: cm, Visits: c.Visits, Value: c.Value,
				PIllegal: c.PIllegal, PCapture: c.PCapture, PCheck: c.PCheck,
				PMate: c.PMate, PMated: c.PMated, PRepeat: c.PRepeat})
		}
		s.Search = sr
	}
	return s, nil
}

// answerStep rebuilds the view the player heard: from the announcements
// of a version 2 record, or from the referee's words of a version 1 record
// (words.go). variant is the game's (the pawn news it gives).
func answerStep(raw *AnswerLine, version int, variant umpire.Variant) (Step, error) {
	if raw.Own == nil {
		return Step{}, errors.New("answer: no own field")
	}
	v := umpire.View{Heard: true, Own: *raw.Own, PawnTries: -1}
	s := Step{Kind: StepAnswer}
	if v.Own {
		// The daemon repeats our move; other drivers may write "0000" (the
		// player knows what it asked).
		m, err := ParseAttempt(raw.Move)
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
	} else {
		if raw.Move != "" {
			return Step{}, errors.New("answer: the opponent's move is never known")
		}
		// The opponent's refusals and "Any?" are public in some variants.
		v.Illegal = raw.Legal != nil && !*raw.Legal
	}
	if version < 2 {
		if v.Illegal && !v.Own {
			return Step{}, errors.New("answer: the opponent's refusal in a version 1 record")
		}
		return wordsStep(s, v, raw)
	}
	if raw.Referee != nil {
		return Step{}, fmt.Errorf("answer: referee words in a version %d record (they were version 1's answer)", version)
	}
	if v.Illegal { // legal: false
		v.Illegal = false
		if err := raw.refused(&v); err != nil {
			return Step{}, err
		}
		if v.Own && v.Move != chess.NullMove && (v.Verdict == umpire.HasAny || v.Verdict == umpire.NoAny) {
			return Step{}, errors.New("answer: has_any answers \"any\", not a move")
		}
	} else if err := raw.announced(&v, variant); err != nil {
		return Step{}, err
	}
	s.View, s.Words = v, v.Words()
	return s, nil
}

// CheckSAN checks that the revealed moves are legal from the start.
func CheckSAN(sans []string) error { return CheckSANFrom(chess.StartPosition(), sans) }

// start is the position the game began from.
func (g *GameInfo) start() chess.Position {
	if g.Setup != nil {
		return *g.Setup
	}
	return chess.StartPosition()
}

// checkMoves checks that the revealed moves are legal from the game's
// start: by chess rules, or where men are dropped (crazykrieg) by the
// umpire's, which keeps the pockets.
func checkMoves(g *GameInfo, sans []string) error {
	if !g.Rules.Variant.Drops {
		return CheckSANFrom(g.start(), sans)
	}
	return PlayDrops(g.start(), g.Rules.Variant, sans, nil)
}

// PlayDrops plays the moves of a game of variant v (one with drops:
// crazykrieg) from start through the umpire, SAN or a drop written "N@e4",
// calling each, when not nil, with the position and the pockets after
// every move. An illegal move is an error naming its ply.
func PlayDrops(start chess.Position, v umpire.Variant, sans []string, each func(chess.Position, umpire.Pockets)) error {
	u := umpire.New(umpire.Site(v))
	u.Reset(start)
	for i, s := range sans {
		m, err := umpire.ParseMoveText(s)
		if len(s) != 4 || s[1] != '@' {
			pos := u.Position()
			m, err = pos.ParseSAN(s)
		}
		if err != nil {
			return fmt.Errorf("moves: ply %d: %q: %v", i+1, s, err)
		}
		if a, err := u.Attempt(m); err != nil || !a.Legal {
			return fmt.Errorf("moves: ply %d: %q is not legal", i+1, s)
		}
		if each != nil {
			each(u.Position(), u.Pockets())
		}
	}
	return nil
}

// CheckSANFrom checks that the moves are legal from pos.
func CheckSANFrom(pos chess.Position, sans []string) error {
	for i, s := range sans {
		m, err := pos.ParseSAN(s)
		if err != nil {
			return fmt.Errorf("moves: ply %d: %q: %v", i+1, s, err)
		}
		pos.Make(m)
	}
	return nil
}

// chancesOK reports whether a candidate's chances lie in [0, 1] (a sum of
// float32 chances may pass 1 by a rounding), or the first that does not.
func chancesOK(c *CandidateLine) (name string, p float64, ok bool) {
	for _, f := range [...]struct {
		name string
		p    float64
	}{{"p_illegal", c.PIllegal}, {"p_capture", c.PCapture}, {"p_check", c.PCheck},
		{"p_mate", c.PMate}, {"p_mated", c.PMated}, {"p_repeat", c.PRepeat}} {
		if !(f.p >= 0 && f.p <= 1+1e-3) {
			return f.name, f.p, false
		}
	}
	return "", 0, true
}
