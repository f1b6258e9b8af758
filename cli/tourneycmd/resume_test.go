package tourneycmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingsRoundTrip: an event's settings file gives back the options
// it was written from (players, handles, seed, event), as -resume reads it.
func TestSettingsRoundTrip(t *testing.T) {
	opt, _, done := parseFlags([]string{"-players", "mcts:approach=a,threads=1,Bob=heuristic,random", "-format", "rr", "-tc", "2+12",
		"-rules", "icc", "-name", "X1", "-seed", "99", "-absent", "30s", "-style", "fics"}, &bytes.Buffer{})
	if done {
		t.Fatal("flags refused")
	}
	dir := filepath.Join(t.TempDir(), "ev")
	opt.out = dir
	if err := prepareFolder(&opt); err != nil {
		t.Fatal(err)
	}
	back := options{out: dir, resume: true}
	if err := prepareFolder(&back); err != nil {
		t.Fatal(err)
	}
	if back.eventSpec() != opt.eventSpec() || back.seed != 99 || back.rules != "icc" || back.absent != opt.absent || back.out != dir || !back.resume {
		t.Errorf("read back %+v, want %+v", back, opt)
	}
	for i, e := range opt.players {
		if b := back.players[i]; b.handle != e.handle || b.spec.String() != e.spec.String() {
			t.Errorf("player %d: %s %s, want %s %s", i, b.handle, b.spec, e.handle, e.spec)
		}
	}
	again := opt
	if err := prepareFolder(&again); err == nil || !strings.Contains(err.Error(), "-resume "+dir) {
		t.Errorf("a second event in the same folder: %v", err)
	}
	if err := prepareFolder(&options{out: t.TempDir(), resume: true}); err == nil || !strings.Contains(err.Error(), "not a kriegbot tourney folder") {
		t.Errorf("-resume of a folder without settings: %v", err)
	}
}

// TestReadSettings: a damaged settings file is refused, naming the file
// and what is wrong.
func TestReadSettings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, "f.json: EOF"},
		{`{"args":[]}`, "f.json: no args"},
		{`{"args":["-players","random,random"]}`, "f.json: no -seed"},
		{`{"args":["-players","random"]}`, "f.json: kriegbot tourney: -players: want at least two players"},
		{`{"args":["-players","random,random","-seed","x"]}`, "f.json: kriegbot tourney: -seed"},
		{`{"args":["-players","random,random","-resume","d"]}`, "-resume"},
		{`{"args":"-players"}`, "f.json: json: cannot unmarshal"},
		{`{"argz":[]}`, `f.json: json: unknown field "argz"`},
		{`{"args":["-players","random,random","-seed","5"]}`, ""},
	} {
		opt, err := readSettings(strings.NewReader(tc.in), "f.json")
		switch {
		case tc.want == "" && (err != nil || opt.seed != 5 || len(opt.players) != 2):
			t.Errorf("%s: %+v, %v", tc.in, opt, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
	long := `{"args":["` + strings.Repeat("x", maxSettingsFile) + `"]}`
	if _, err := readSettings(strings.NewReader(long), "f.json"); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("an overlong file: %v", err)
	}
}

func FuzzReadSettings(f *testing.F) {
	for _, s := range []string{`{"args":["-players","random,random","-seed","5"]}`, `{"args":[]}`, `{}`, `[`,
		`{"args":["-players","a=mcts:approach=a,b=random","-tc","1+1","-seed","1","-format","drr"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		opt, err := readSettings(bytes.NewReader(data), "f.json")
		if err != nil {
			return
		}
		if opt.seed == 0 || len(opt.players) < 2 || opt.resume {
			t.Fatalf("%q read as %+v", data, opt)
		}
		// What is read writes back the same event.
		again, err := json.Marshal(settings{Args: opt.args()})
		if err != nil {
			t.Fatal(err)
		}
		back, err := readSettings(bytes.NewReader(again), "again")
		if err != nil || back.eventSpec() != opt.eventSpec() || back.seed != opt.seed {
			t.Fatalf("%q: its own args %q read back as %+v, %v", data, opt.args(), back, err)
		}
	})
}
