package opponent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

func TestFileName(t *testing.T) {
	tests := []struct {
		handle, want string
	}{
		{"Tortoise", "tortoise.kbm"},
		{"dyscr33t", "dyscr33t.kbm"},
		{"Guest-1234", "guest-1234.kbm"},
		{"a_b", "a_5fb.kbm"},
		{"a5fb", "a5fb.kbm"},
		{"../etc/passwd", "_2e_2e_2fetc_2fpasswd.kbm"},
		{".hidden", "_2ehidden.kbm"},
		{"a b\x00", "a_20b_00.kbm"},
		{"Zoë", "zo_c3_ab.kbm"},
		{"\u212a", "_e2_84_aa.kbm"}, // the Kelvin sign is not the letter k
		{"", ""},
		{strings.Repeat("x", MaxHandleLen+1), ""},
	}
	seen := map[string]string{}
	for _, tc := range tests {
		got, err := FileName(tc.handle)
		if tc.want == "" {
			if err == nil {
				t.Errorf("FileName(%q) = %q, want an error", tc.handle, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("FileName(%q) = %q, %v; want %q", tc.handle, got, err, tc.want)
		}
		if filepath.Base(got) != got || strings.HasPrefix(got, ".") {
			t.Errorf("FileName(%q) = %q is not a plain visible file name", tc.handle, got)
		}
		if prev, dup := seen[got]; dup {
			t.Errorf("%q and %q share the file %q", prev, tc.handle, got)
		}
		seen[got] = tc.handle
	}
	// Handles differing only in case are the same opponent.
	a, _ := FileName("ToRtOiSe")
	if a != "tortoise.kbm" {
		t.Errorf("case folding: %q", a)
	}
}

func TestStoreAddGameAndBlend(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(filepath.Join(dir, "opponents"), 20)
	if err != nil {
		t.Fatal(err)
	}
	def := countsFrom(t, randomGames(31, 30, 200), 20)
	fresh, err := s.Model("Tortoise", def)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Params() != oppmodel.NewModel(def).Params() {
		t.Error("an unseen opponent's model differs from the default")
	}
	game := uciMoves(t, "e2e4", "a7a5", "d2d4", "a5a4")
	for i := range 3 {
		if err := s.AddGame("Tortoise", chess.Black, game); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}
	c, err := s.Counts("tortoise")
	if err != nil {
		t.Fatal(err)
	}
	if c.Games != [2]uint64{0, 3} || c.Plies != [2]uint64{0, 6} {
		t.Fatalf("stored games %v plies %v, want black only: 3 games, 6 plies", c.Games, c.Plies)
	}
	if !strings.Contains(c.Meta.Source, "Tortoise") || c.Meta.Builder != StoreBuilder {
		t.Errorf("meta %+v", c.Meta)
	}
	// A broken game is refused and leaves the file as it was.
	before, _ := os.ReadFile(filepath.Join(dir, "opponents", "tortoise.kbm"))
	if err := s.AddGame("Tortoise", chess.Black, uciMoves(t, "e2e4", "e2e4")); err == nil {
		t.Fatal("illegal game accepted")
	}
	after, _ := os.ReadFile(filepath.Join(dir, "opponents", "tortoise.kbm"))
	if string(before) != string(after) {
		t.Error("a refused game changed the file")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "opponents"))
	if len(entries) != 1 || entries[0].Name() != "tortoise.kbm" {
		t.Errorf("folder holds %v, want only tortoise.kbm (no temporary files)", entries)
	}
	// The blended model leans toward the opponent's a-pawn.
	m, err := s.Model("Tortoise", def)
	if err != nil {
		t.Fatal(err)
	}
	a5 := sq(t, "a5")
	base, _ := oppmodel.NewModel(def).Occupancy(chess.Black, oppmodel.Pawn, 1)
	blended, _ := m.Occupancy(chess.Black, oppmodel.Pawn, 1)
	if blended[a5] <= base[a5] {
		t.Errorf("a5 after black's first move: blended %v, default %v", blended[a5], base[a5])
	}
	if _, err := s.Model("", def); err == nil {
		t.Error("empty handle accepted")
	}
}

func TestStoreConcurrentUpdates(t *testing.T) {
	s, err := OpenStore(t.TempDir(), 10)
	if err != nil {
		t.Fatal(err)
	}
	game := uciMoves(t, "d2d4", "d7d5")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := s.AddGame("racer", chess.White, game); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	c, err := s.Counts("racer")
	if err != nil || c.Games[chess.White] != 8 {
		t.Fatalf("after 8 concurrent games: %v games, %v", c.Games, err)
	}
}

func TestStoreCorruptFile(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir, 10)
	if err := os.WriteFile(filepath.Join(dir, "bad.kbm"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Counts("bad")
	if err == nil || !strings.Contains(err.Error(), "bad.kbm") || !strings.Contains(err.Error(), "offset 0") {
		t.Fatalf("error %v, want one naming the file and offset", err)
	}
}

func FuzzFileName(f *testing.F) {
	for _, s := range []string{"Tortoise", "../x", "a_b", "Zoë", "", ".", "A-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, handle string) {
		name, err := FileName(handle)
		if err != nil {
			if handle != "" && len(handle) <= MaxHandleLen {
				t.Fatalf("FileName(%q): %v", handle, err)
			}
			return
		}
		base := strings.TrimSuffix(name, ".kbm")
		if base == name || base == "" {
			t.Fatalf("FileName(%q) = %q", handle, name)
		}
		for _, c := range []byte(base) {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				t.Fatalf("FileName(%q) = %q holds %q", handle, name, c)
			}
		}
		// Injective up to case: decoding gives back the lower-cased handle.
		var back []byte
		for i := 0; i < len(base); i++ {
			if base[i] == '_' {
				var b byte
				if _, err := fmt.Sscanf(base[i+1:i+3], "%02x", &b); err != nil {
					t.Fatalf("bad escape in %q", name)
				}
				back = append(back, b)
				i += 2
				continue
			}
			back = append(back, base[i])
		}
		lower := []byte(handle)
		for i, c := range lower {
			if c >= 'A' && c <= 'Z' {
				lower[i] = c + 'a' - 'A'
			}
		}
		if string(back) != string(lower) {
			t.Fatalf("FileName(%q) = %q decodes to %q", handle, name, back)
		}
	})
}
