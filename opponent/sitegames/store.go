package sitegames

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// Player is one side of a stored game.
type Player struct {
	Name string `json:"name"`
	// Role is the site's: "user", "guest" or "bot".
	Role string `json:"role"`
	Bot  bool   `json:"bot"`
}

// Game is one line of a store file: a finished game with its full
// transcript (both sides' attempts and the referee's answers).
type Game struct {
	ID      string `json:"id"`
	Variant string `json:"rule_variant"`
	White   Player `json:"white"`
	Black   Player `json:"black"`
	// Result is "1-0", "0-1" or "1/2-1/2"; Reason the site's ("checkmate").
	Result   string                 `json:"result"`
	Reason   string                 `json:"reason"`
	PlayedAt string                 `json:"played_at"`
	Moves    []ksapi.TranscriptMove `json:"moves"`
}

// HasHuman reports whether a person played at least one side.
func (g Game) HasHuman() bool { return !g.White.Bot || !g.Black.Bot }

// maxLine bounds one stored line: a transcript is at most a few thousand
// attempts of about 1 kB.
const maxLine = 8 << 20

// Store is a folder of <variant>.jsonl files.
type Store struct {
	dir   string
	ids   map[string]bool
	count map[string]int // games per variant
}

// Open reads the ids of every game stored under dir (made if missing). A
// last line cut short by a kill is removed, since its game was never
// stored whole; a line that cannot be read is reported in warnings and left
// in place.
func Open(dir string) (s *Store, warnings []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	s = &Store{dir: dir, ids: map[string]bool{}, count: map[string]int{}}
	for _, v := range ksapi.RuleVariants() {
		w, err := s.load(v)
		if err != nil {
			return nil, warnings, err
		}
		warnings = append(warnings, w...)
	}
	return s, warnings, nil
}

// Path is the file holding a variant's games.
func (s *Store) Path(variant string) string { return filepath.Join(s.dir, variant+".jsonl") }

func (s *Store) load(variant string) (warnings []string, err error) {
	name := s.Path(variant)
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var at int64 // offset of the line being read
	for n := 1; ; n++ {
		line, err := readLine(r)
		if err == io.EOF {
			return warnings, nil
		}
		if errors.Is(err, errCut) {
			warnings = append(warnings, fmt.Sprintf("%s:%d: last line cut short (%d bytes), removed", name, n, len(line)))
			return warnings, f.Truncate(at)
		}
		if err != nil {
			return warnings, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		at += int64(len(line))
		g, err := decodeLine(line, variant)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s:%d: %v, left as is", name, n, err))
			continue
		}
		s.ids[g.ID] = true
		s.count[variant]++
	}
}

// decodeLine reads one stored game of a variant's file.
func decodeLine(line []byte, variant string) (Game, error) {
	var g Game
	if err := json.Unmarshal(line, &g); err != nil {
		return Game{}, fmt.Errorf("not a stored game: %v", err)
	}
	switch {
	case g.ID == "":
		return Game{}, errors.New("not a stored game: no id")
	case g.Variant != variant:
		return Game{}, fmt.Errorf("a game of %q in the file of %q", g.Variant, variant)
	}
	return g, nil
}

var errCut = errors.New("line without its end")

// readLine reads one line with its newline; a line over maxLine is an
// error, one without a newline at the end of the file errCut.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("line over %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, errCut
		default:
			return nil, err
		}
	}
}

// Has reports whether the game is stored.
func (s *Store) Has(id string) bool { return s.ids[id] }

// Len is the number of games stored.
func (s *Store) Len() int { return len(s.ids) }

// Counts is the number of games stored per variant, in the variants' order.
func (s *Store) Counts() []string {
	var out []string
	keys := make([]string, 0, len(s.count))
	for v := range s.count {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	for _, v := range keys {
		out = append(out, fmt.Sprintf("%s %d", v, s.count[v]))
	}
	return out
}

// Add appends a game to its variant's file in one write, synced, so that a
// kill leaves at most a cut last line, which Open removes.
func (s *Store) Add(g Game) error {
	switch {
	case !ksapi.IsRuleVariant(g.Variant):
		return fmt.Errorf("game %s: unknown rule variant %q", g.ID, g.Variant)
	case g.ID == "":
		return errors.New("a game without an id")
	case s.ids[g.ID]:
		return fmt.Errorf("game %s: stored already", g.ID)
	}
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if bytes.IndexByte(b, '\n') >= 0 || len(b)+1 > maxLine {
		return fmt.Errorf("game %s: %d bytes, too long to store", g.ID, len(b))
	}
	f, err := os.OpenFile(s.Path(g.Variant), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("storing game %s: %w", g.ID, err)
	}
	s.ids[g.ID] = true
	s.count[g.Variant]++
	return nil
}

// Read calls fn for every game stored for a variant, in file order; a line
// that cannot be read is passed to bad with its place ("file:line").
func (s *Store) Read(variant string, fn func(Game) error, bad func(place string, err error)) error {
	f, err := os.Open(s.Path(variant))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(r)
		if err == io.EOF {
			return nil
		}
		place := fmt.Sprintf("%s:%d", s.Path(variant), n)
		if err != nil && !errors.Is(err, errCut) {
			return fmt.Errorf("%s: %w", place, err)
		}
		g, derr := decodeLine(line, variant)
		if derr != nil {
			bad(place, derr)
			continue
		}
		if err := fn(g); err != nil {
			return fmt.Errorf("%s: %w", place, err)
		}
		if err != nil { // a cut last line that still parsed
			return nil
		}
	}
}

// Attempt is one attempt of a stored game and whether the referee played
// it.
type Attempt struct {
	Ply    int        // the transcript's
	Move   chess.Move // chess.NullMove: the "Any?" question; a drop is umpire.IsDrop
	Text   string     // the UCI or drop as stored, "any" for the question
	Done   bool       // played
	Answer string     // the referee's main word (REGULAR_MOVE, ILLEGAL_MOVE, ...)
}

// Attempts is every attempt of the game in order, refused ones and the
// "Any?" questions too, for replaying the game through a referee and both
// players' beliefs. An attempt the site refused as no move at all
// (INVALID_UCI) is left out: it asked the board nothing.
func (g Game) Attempts() ([]Attempt, error) {
	out := make([]Attempt, 0, len(g.Moves))
	for _, m := range g.Moves {
		at := Attempt{Ply: m.Ply, Done: m.MoveDone}
		if m.Answer != nil {
			at.Answer = m.Answer.Main
		}
		switch {
		case m.QuestionType == ksapi.QuestionAskAny:
			at.Move, at.Text = chess.NullMove, "any"
		case at.Answer == ksapi.InvalidUCI && !m.MoveDone:
			continue
		case m.UCI == nil:
			return nil, fmt.Errorf("ply %d: an attempt without its UCI", m.Ply)
		default:
			mv, err := umpire.ParseMoveText(*m.UCI)
			if err != nil {
				return nil, fmt.Errorf("ply %d: %w", m.Ply, err)
			}
			at.Move, at.Text = mv, *m.UCI
		}
		out = append(out, at)
	}
	return out, nil
}

// Played is the game's moves as played (the attempts the referee took),
// in order. Drops (crazykrieg) are not chess moves and make it fail.
func (g Game) Played() ([]chess.Move, error) {
	attempts, err := g.Attempts()
	if err != nil {
		return nil, err
	}
	var out []chess.Move
	for _, at := range attempts {
		switch {
		case !at.Done || at.Move == chess.NullMove:
			continue
		case umpire.IsDrop(at.Move):
			return nil, fmt.Errorf("ply %d: a drop (%s), which a chess model cannot take", at.Ply, at.Text)
		}
		out = append(out, at.Move)
	}
	return out, nil
}
