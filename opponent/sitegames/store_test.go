package sitegames

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStore(t *testing.T) {
	dir := t.TempDir()
	st, warn, err := Open(dir)
	if err != nil || len(warn) != 0 || st.Len() != 0 {
		t.Fatalf("empty: %v %v", warn, err)
	}
	g := Game{ID: gameID(1), Variant: "wild16", White: Player{Name: "a"}, Black: Player{Name: "b", Bot: true}, Result: "1-0"}
	if err := st.Add(g); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Game{g, {ID: gameID(2), Variant: "chess"}, {Variant: "wild16"}} {
		if err := st.Add(bad); err == nil {
			t.Errorf("Add(%+v) taken", bad)
		}
	}
	if err := st.Add(Game{ID: gameID(2), Variant: "rand"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.Counts(), ", "); got != "rand 1, wild16 1" {
		t.Errorf("counts %q", got)
	}
	// A kill in the middle of a write leaves a cut line: Open removes it;
	// a line that is not a game stays, reported.
	name := st.Path("wild16")
	f, _ := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("{\"oops\":1}\n{\"id\":\"" + gameID(3) + "\",\"rule_var")
	f.Close()
	st, warn, err = Open(dir)
	if err != nil || len(warn) != 2 || !strings.Contains(warn[0], "wild16.jsonl:2: not a stored game: no id") ||
		!strings.Contains(warn[1], "wild16.jsonl:3: last line cut short") {
		t.Fatalf("reopen: %q %v", warn, err)
	}
	if !st.Has(gameID(1)) || !st.Has(gameID(2)) || st.Has(gameID(3)) || st.Len() != 2 {
		t.Errorf("ids after reopen: %d", st.Len())
	}
	b, _ := os.ReadFile(name)
	if !strings.HasSuffix(string(b), "{\"oops\":1}\n") {
		t.Errorf("file after repair: %q", b)
	}
	if err := st.Add(Game{ID: gameID(3), Variant: "wild16"}); err != nil {
		t.Fatal(err)
	}
	var ids, bad []string
	st.Read("wild16", func(g Game) error { ids = append(ids, g.ID); return nil }, func(p string, err error) { bad = append(bad, p) })
	if len(ids) != 2 || ids[1] != gameID(3) || len(bad) != 1 || !strings.HasSuffix(bad[0], "wild16.jsonl:2") {
		t.Errorf("read: %v, bad %v", ids, bad)
	}
}

// FuzzOpen: whatever bytes a store file holds, Open and Read neither
// panic nor take a line they did not read whole.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "\n", `{"id":"x","rule_variant":"wild16"}` + "\n", `{"id":"x","rule_variant":"wild16"}`,
		`{"id":"x","rule_variant":"rand"}` + "\n", "\x00\xff\n{", `{"id":"x","rule_variant":"wild16","moves":[{"uci":7}]}` + "\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "wild16.jsonl"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		st, _, err := Open(dir)
		if err != nil {
			return
		}
		n := 0
		st.Read("wild16", func(g Game) error { n++; return nil }, func(string, error) {})
		if n != st.Len() {
			t.Fatalf("Open counted %d games, Read gave %d", st.Len(), n)
		}
	})
}
