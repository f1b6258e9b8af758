package beliefcheck

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
	"kriegbot/engine/umpire/fixture"
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
	m, err := oppmodel.Default()
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

// TestSoundFromOtherStarts replays the public games from a middle position
// (the position before ply 30) as if the game had started there: the belief
// built from a known start position is as sound as from the usual one.
func TestSoundFromOtherStarts(t *testing.T) {
	f, err := os.Open(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := Open(f)
	if err != nil {
		t.Fatal(err)
	}
	fr := fixture.NewReader(in)
	var buf bytes.Buffer
	made := 0
	for made < 60 {
		g, err := fr.Next()
		if err != nil {
			break
		}
		first, fen := -1, ""
		for i, a := range g.Attempts {
			if a.Ply == 30 {
				if first < 0 {
					first = i
				}
				if a.FEN != "" {
					fen = a.FEN
					break
				}
			}
		}
		if fen == "" {
			continue
		}
		fmt.Fprintf(&buf, `{"id":%q,"start_fen":%q,"attempts":[`, g.ID+"-from-30", fen)
		for i, a := range g.Attempts[first:] {
			if i > 0 {
				buf.WriteByte(',')
			}
			fmt.Fprintf(&buf, `{"color":%q,"move":%q,"legal":%v`, string(a.Color), a.Move, a.Legal)
			if a.Capture != nil {
				fmt.Fprintf(&buf, `,"capture":{"square":%q,"kind":%q}`, a.Capture.Square, a.Capture.Kind)
			}
			buf.WriteByte('}')
		}
		buf.WriteString("]}\n")
		made++
	}
	var rep Report
	if err := Run(&buf, Options{Keep: 5}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Games != made || rep.BadLines != 0 || rep.Violations != 0 || rep.Surprises != 0 {
		var out bytes.Buffer
		Print(&out, &rep)
		t.Fatalf("%d games of %d, %d bad, %d violations, %d surprises:\n%s", rep.Games, made, rep.BadLines, rep.Violations, rep.Surprises, out.String())
	}
	if rep.Attempts < 1000 {
		t.Errorf("only %d attempts replayed", rep.Attempts)
	}
}

// firstGames returns the first n lines of the public fixture file.
func firstGames(t testing.TB, n int) []byte {
	t.Helper()
	f, err := os.Open(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var out bytes.Buffer
	for i := 0; i < n && sc.Scan(); i++ {
		out.Write(sc.Bytes())
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestViolationsCatchAPlantedError makes sure the soundness check can fail:
// a belief that has not heard the opponent's move must be caught out by the
// position after it.
func TestViolationsCatchAPlantedError(t *testing.T) {
	st := belief.New(chess.White, nil)
	pos, err := chess.ParseFEN("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2")
	if err != nil {
		t.Fatal(err)
	}
	// White's own board is still the start position, and the knight on f6 is
	// where no belief of the start position allows a knight.
	n, first := Violations(&st, &pos)
	if n < 2 || first == "" {
		t.Errorf("Violations = %d (%q), want at least 2 (own pawns, knight on f6)", n, first)
	}
	start := chess.StartPosition()
	if n, first := Violations(&st, &start); n != 0 {
		t.Errorf("start position: %d violations (%s)", n, first)
	}
}

// TestVariantFixturesSound replays the 200 games of each of the site's
// variant fixtures (engine/umpire/testdata/variants) from both sides: no
// violation, no surprise, and every prediction beats the constant one.
func TestVariantFixturesSound(t *testing.T) {
	for _, v := range []string{"berkeley", "berkeley_any", "cincinnati", "english", "rand", "crazykrieg"} {
		t.Run(v, func(t *testing.T) {
			f, err := os.Open("../../umpire/testdata/variants/" + v + ".jsonl.gz")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			in, isVariant, err := IsVariantFile(f)
			if err != nil || !isVariant {
				t.Fatalf("IsVariantFile: %v, %v", isVariant, err)
			}
			var rep Report
			if err := RunVariants(in, Options{Keep: 5}, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Games != 200 || rep.BadLines != 0 || rep.Variant != v {
				t.Fatalf("read %d games of %q, %d bad lines (%v); want 200 of %q and 0", rep.Games, rep.Variant, rep.BadLines, rep.FirstBad, v)
			}
			if rep.Violations != 0 || rep.Surprises != 0 {
				Print(testWriter{t}, &rep)
				t.Errorf("%d violations, %d surprises", rep.Violations, rep.Surprises)
			}
			for name, m := range map[string]*Metric{"legal": &rep.Legal, "capture": &rep.Capture, "check": &rep.Check} {
				if m.N == 0 || m.LogLoss() >= m.Constant() {
					t.Errorf("%s log-loss %.4f over %d not below the constant predictor's %.4f", name, m.LogLoss(), m.N, m.Constant())
				}
			}
		})
	}
}

func TestWild16FileIsNoVariantFile(t *testing.T) {
	f, err := os.Open(publicGames)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, isVariant, err := IsVariantFile(f); err != nil || isVariant {
		t.Errorf("IsVariantFile = %v, %v on the wild 16 fixtures", isVariant, err)
	}
}

// TestRandomGamesSound replays umpire-generated games of random attempts in
// every variant (the question asked, drops among the attempts): no
// violation, no surprise.
func TestRandomGamesSound(t *testing.T) {
	for _, v := range umpire.Variants() {
		var rep Report
		RunRandom(umpire.Site(v), 3, 25, 200, Options{Keep: 5}, &rep)
		if rep.Games != 25 || rep.Attempts == 0 || rep.Variant != v.Name {
			t.Fatalf("%s: %d games of %q, %d attempts", v.Name, rep.Games, rep.Variant, rep.Attempts)
		}
		if rep.Violations != 0 || rep.Surprises != 0 {
			Print(testWriter{t}, &rep)
			t.Errorf("%s: %d violations, %d surprises", v.Name, rep.Violations, rep.Surprises)
		}
	}
}
