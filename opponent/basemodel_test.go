package opponent

import (
	"os"
	"strings"
	"testing"

	"kriegbot/engine/oppmodel"
)

// TestLoadBases: a variant with a model file in the folder gets it, one
// without keeps the default, one whose file is broken keeps the default and
// says why.
func TestLoadBases(t *testing.T) {
	dir := t.TempDir()
	c := oppmodel.NewCounts(oppmodel.DefaultHorizon)
	c.Meta = oppmodel.Meta{Builder: "test", Source: "no games"}
	good := c.AppendFile(nil)
	if err := os.WriteFile(ModelPath(dir, "berkeley_any"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ModelPath(dir, "rand"), good[:len(good)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBases(dir, []string{"wild16", "berkeley_any", "rand"})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.For("berkeley_any"); got.Path != ModelPath(dir, "berkeley_any") || string(got.File) != string(good) ||
		got.Counts.Meta.Source != "no games" || got.Model == nil || len(got.SHA256) != 64 || !strings.Contains(got.Name(), "no games") {
		t.Errorf("berkeley_any: %+v", got)
	}
	for _, v := range []string{"", "wild16", "english"} {
		if got := b.For(v); got.Path != "" || got.File != nil || got.Unused != nil || got.Model == nil || got.Name() != "embedded default" {
			t.Errorf("%q: %+v, want the default", v, got)
		}
	}
	if got := b.For("rand"); got.Path != "" || got.Unused == nil || !strings.Contains(got.Unused.Error(), "rand.kbm") {
		t.Errorf("a broken file: %+v, want the default and why", got)
	}
}
