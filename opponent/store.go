package opponent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// Store keeps one model file per opponent handle in a folder. Each file
// holds that opponent's own Counts, one game added at a time; Model blends
// them with the default. Safe for concurrent use by one process.
type Store struct {
	dir     string
	horizon int
	mu      sync.Mutex // serialises read-modify-write of the files
}

// StoreBuilder is the Meta.Builder of per-opponent files.
const StoreBuilder = "kriegbot opponent store 1"

// MaxHandleLen bounds a handle (ICC handles are at most 15 characters).
const MaxHandleLen = 64

// OpenStore opens (creating it if needed) the store in dir. New
// per-opponent files record horizon moves per game (use the default
// model's horizon).
func OpenStore(dir string, horizon int) (*Store, error) {
	if horizon < 1 || horizon > oppmodel.MaxHorizon {
		return nil, fmt.Errorf("opponent store: horizon %d out of range 1..%d", horizon, oppmodel.MaxHorizon)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("opponent store: %w", err)
	}
	return &Store{dir: dir, horizon: horizon}, nil
}

// FileName returns the file name a handle is stored under: the handle with
// ASCII letters in lower case (servers compare handles without case), every
// other byte than a-z, 0-9 and '-' written as _XX in hex, plus ".kbm". So a name can
// never leave the folder, hide itself or collide with another handle.
func FileName(handle string) (string, error) {
	if handle == "" || len(handle) > MaxHandleLen {
		return "", fmt.Errorf("opponent store: handle %q must have 1 to %d bytes", handle, MaxHandleLen)
	}
	var sb strings.Builder
	for _, c := range []byte(handle) {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
			sb.WriteByte(c)
		default:
			fmt.Fprintf(&sb, "_%02x", c)
		}
	}
	sb.WriteString(".kbm")
	return sb.String(), nil
}

func (s *Store) path(handle string) (string, error) {
	name, err := FileName(handle)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, name), nil
}

// Counts returns the counts stored for handle; an opponent never seen has
// empty counts.
func (s *Store) Counts(handle string) (*oppmodel.Counts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load(handle)
}

func (s *Store) load(handle string) (*oppmodel.Counts, error) {
	p, err := s.path(handle)
	if err != nil {
		return nil, err
	}
	c, err := oppmodel.LoadCounts(p)
	if errors.Is(err, fs.ErrNotExist) {
		c = oppmodel.NewCounts(s.horizon)
		c.Meta = oppmodel.Meta{Builder: StoreBuilder, Source: "games of " + printable(handle) + " recorded after play"}
		return c, nil
	}
	return c, err
}

// AddGame records one finished game of handle, who played colour opp, from
// its full move list (standard start; servers reveal the moves after the
// game). Only the opponent's side is recorded. The file is replaced
// atomically.
func (s *Store) AddGame(handle string, opp chess.Color, moves []chess.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.load(handle)
	if err != nil {
		return err
	}
	var record [2]bool
	record[opp&1] = true
	if err := c.AddGame(moves, record); err != nil {
		return fmt.Errorf("opponent store: game of %s: %w", printable(handle), err)
	}
	p, err := s.path(handle)
	if err != nil {
		return err
	}
	return WriteFileAtomic(p, c.AppendFile(nil))
}

// Model returns the model for handle: def blended with the opponent's own
// counts (Blend, k = BlendGames). An opponent never seen gets def's model.
func (s *Store) Model(handle string, def *oppmodel.Counts) (*oppmodel.Model, error) {
	c, err := s.Counts(handle)
	if err != nil {
		return nil, err
	}
	return ModelFrom(def, c), nil
}

// ModelFrom is the model a player gets against an opponent whose counts
// are c: the default counts blended with what we learnt. Live play (Model)
// and replay (from the counts the record kept) both build it here.
func ModelFrom(def, c *oppmodel.Counts) *oppmodel.Model {
	return oppmodel.Blend(def, c, oppmodel.BlendGames)
}

// printable keeps a handle safe for Meta and messages.
func printable(handle string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			return '?'
		}
		return r
	}, handle)
}
