package buildinfo

import (
	"strings"
	"testing"
)

// TestPlayHashFresh: the generated hash is that of the sources as they are.
// When it fails, run go generate ./internal/buildinfo and commit sources.go
// with the change that made it stale.
func TestPlayHashFresh(t *testing.T) {
	h, n, err := HashSources("../..")
	if err != nil {
		t.Fatal(err)
	}
	if h != playHash || n != playFiles {
		t.Fatalf("sources.go is stale (%d files hash to %.16s, it says %d files, %.16s): run go generate ./internal/buildinfo",
			n, h, playFiles, playHash)
	}
	if n < 50 {
		t.Fatalf("only %d files hashed", n)
	}
}

func TestHashed(t *testing.T) {
	for path, want := range map[string]bool{
		"go.mod": true, "engine/search/mcts.go": true, "opponent/default.kbm": true,
		"engine/search/mcts_test.go": false, "engine/umpire/testdata/x.go": false, "bot/daemon.go": false,
		"opponent/mkdefault.sh": false, "engine/umpire/testdata/README.md": false, "go.sum": false,
	} {
		if Hashed(path) != want {
			t.Errorf("Hashed(%q) = %v", path, !want)
		}
	}
}

func TestSamePlay(t *testing.T) {
	a := Info{Play: "0123456789abcdef", Go: "go1.26.1", Platform: "linux/amd64", Version: "(devel)"}
	b := a
	b.Revision, b.Version = "c30e90f32079", "v0.0.0-20261125-c30e90f32079"
	if same, known := SamePlay(a.ID(), b.ID()); !same || !known {
		t.Fatalf("%q and %q: same %v known %v", a.ID(), b.ID(), same, known)
	}
	c := a
	c.Play = "fedcba9876543210"
	if same, _ := SamePlay(a.ID(), c.ID()); same {
		t.Fatal("another play hash plays alike")
	}
	d := a
	d.Platform = "linux/arm64"
	if same, _ := SamePlay(a.ID(), d.ID()); same {
		t.Fatal("another platform plays alike")
	}
	if same, known := SamePlay(a.ID(), "unknown d0d438eb79a1f855"); same || known {
		t.Fatal("an old build id compared by its play hash")
	}
	if !strings.HasPrefix(ID(), "play="+playHash[:16]+" ") {
		t.Fatalf("ID %q", ID())
	}
}
