package beliefcheck

import (
	"bytes"
	"os"
	"testing"

	"kriegbot/opponent"
)

const publicGames = "../../umpire/testdata/wild16-games.jsonl.gz"

// TestPublicFixturesSound replays all 400 public fixture games from both
// sides: no true unit may ever sit on a square its class's matrix rules out,
// and the predictions must beat the constant predictor.
func TestPublicFixturesSound(t *testing.T) {
	f, err := os.Open(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rep Report
	if err := Run(f, Options{Keep: 10}, &rep); err != nil {
		t.Fatal(err)
	}
	Print(testWriter{t}, &rep)
	if rep.Games != 400 || rep.BadLines != 0 {
		t.Fatalf("read %d games, %d bad lines; want 400 and 0", rep.Games, rep.BadLines)
	}
	if rep.Violations != 0 {
		t.Errorf("%d soundness violations", rep.Violations)
	}
	if rep.Surprises != 0 {
		t.Errorf("%d surprises", rep.Surprises)
	}
	for name, m := range map[string]*Metric{"legal": &rep.Legal, "capture": &rep.Capture, "check": &rep.Check} {
		if m.LogLoss() >= m.Constant() {
			t.Errorf("%s log-loss %.4f not below the constant predictor's %.4f", name, m.LogLoss(), m.Constant())
		}
	}
}

// TestSoundWithTheDefaultModel replays the first 100 public games with the
// embedded opponent model driving the spread (attraction from its trends)
// instead of the flat prior: still no violation.
func TestSoundWithTheDefaultModel(t *testing.T) {
	m, err := opponent.Default()
	if err != nil {
		t.Fatal(err)
	}
	var rep Report
	if err := Run(bytes.NewReader(firstGames(t, 100)), Options{Keep: 5, Prior: m}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Games != 100 || rep.Violations != 0 || rep.Surprises != 0 {
		var out bytes.Buffer
		Print(&out, &rep)
		t.Errorf("%d games, %d violations, %d surprises:\n%s", rep.Games, rep.Violations, rep.Surprises, out.String())
	}
	if rep.Legal.LogLoss() >= rep.Legal.Constant() {
		t.Errorf("legal log-loss %.4f not below the constant's %.4f", rep.Legal.LogLoss(), rep.Legal.Constant())
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
