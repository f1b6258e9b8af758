package replay

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/internal/buildinfo"
	"kriegbot/internal/chromium"
)

// TestHTMLPage: one page, one frame per attempt, a slider, the final
// position, no external reference, and every SVG well-formed XML.
func TestHTMLPage(t *testing.T) {
	rec := readFile(t, playRecorded(t, chess.Black, 17, 16))
	rec.Game.White = `<script>alert("x")</script>` // outside bytes are escaped
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, res); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, `<section class="frame"`); n != len(res.Frames) || n < 5 {
		t.Fatalf("%d frames drawn, %d frames", n, len(res.Frames))
	}
	for _, s := range []string{`type="range"`, "The game as revealed after the end", "final position", "their king (%)",
		"p(illegal)", "the truth at this ply", html0(Summary(res)),
		`id="a` + strconv.Itoa(res.Frames[len(res.Frames)-1].Attempt) + `"`} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	if strings.Contains(page, `<script>alert`) {
		t.Error("a handle was written unescaped")
	}
	for _, bad := range []string{"http://", "https://", "src=", "@import", "url("} {
		if i := strings.Index(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), bad); i >= 0 {
			t.Errorf("external reference %q in the page", bad)
		}
	}
	for _, svg := range regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(page, -1) {
		d := xml.NewDecoder(strings.NewReader(strings.ReplaceAll(svg, "&middot;", "")))
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("SVG not well-formed: %v\n%.300s", err, svg)
				}
				break
			}
		}
	}
}

// TestPageReadsTheModelBesideTheRecord: the live page's replay of a game
// played with a per-opponent model opens the counts kept beside the record,
// wherever the program runs from (the daemon names its records relative to
// its working folder, logs/games/...), and agrees with kriegbot replay on the
// same record: no warning, 0 differing choices.
func TestPageReadsTheModelBesideTheRecord(t *testing.T) {
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	counts := oppmodel.NewCounts(def.Horizon)
	pos := chess.StartPosition()
	var moves []chess.Move
	for _, s := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"} {
		m, err := pos.ParseSAN(s)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(m)
		moves = append(moves, m)
	}
	if err := counts.AddGame(moves, [2]bool{false, true}); err != nil {
		t.Fatal(err)
	}
	full := playGame(t, "mcts:approach=c,mem=8", chess.White, 29, 16, players.Budget{Nodes: 300}, counts)
	// Run from the folder above games/, as the daemon runs from the one
	// above logs/, and name the record relative to it.
	t.Chdir(filepath.Dir(filepath.Dir(full)))
	name := filepath.Join("games", filepath.Base(full))
	if _, err := os.Stat(strings.TrimSuffix(name, ".jsonl") + ".kbm"); err != nil {
		t.Fatalf("no counts beside the record: %v", err)
	}
	page, err := Page(context.Background(), name, buildinfo.ID())
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := loadFile(t, name, Source{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteText(&out, res, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := lines[len(lines)-1]
	if !strings.Contains(want, " 0 differing choices") {
		t.Fatalf("kriegbot replay: %q", want)
	}
	if !strings.Contains(string(page), `<b id="summary">`+html0(want)+`</b>`) {
		t.Errorf("the page's summary is not kriegbot replay's %q:\n%s", want, regexp.MustCompile(`<b id="summary">.*?</b>`).FindString(string(page)))
	}
	if w := regexp.MustCompile(`<p class="warn">.*</p>`).FindString(string(page)); w != "" {
		t.Errorf("the page warns: %s", w)
	}
	// Without the counts the re-run chooses otherwise: Page still makes the
	// page, and says it is not the game's replay (the live page does not
	// keep it).
	if err := os.Remove(strings.TrimSuffix(name, ".jsonl") + ".kbm"); err != nil {
		t.Fatal(err)
	}
	page, err = Page(context.Background(), name, buildinfo.ID())
	if err == nil || !strings.Contains(err.Error(), "did not repeat") || !strings.Contains(string(page), "per-opponent model") {
		t.Fatalf("without the counts: error %v, page of %d bytes", err, len(page))
	}
}

func html0(s string) string { return strings.ReplaceAll(s, `"`, "&#34;") }

// TestHTMLInChromium opens the page in headless Chromium and checks the
// screenshot is a drawn page (boards in colour, not a blank or error page).
// Opt-in: KRIEGBOT_CHROMIUM=1 (Debian package chromium).
func TestHTMLInChromium(t *testing.T) {
	if !chromium.Enabled() {
		t.Skip("KRIEGBOT_CHROMIUM=1 renders the page in headless Chromium")
	}
	rec := readFile(t, playRecorded(t, chess.White, 23, 30))
	res, err := Run(context.Background(), rec, Options{From: 10})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "replay.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, res); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	img, shot, err := chromium.Screenshot(dir, "file://"+page, chromium.Options{Width: 1200, Height: 900})
	if err != nil {
		t.Fatal(err)
	}
	// Count the board's light squares (#f0d9b5) and the heat maps' reds:
	// a page whose SVG did not render has neither.
	light, red := 0, 0
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y += 2 {
		for x := bnd.Min.X; x < bnd.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case r == 0xf0 && g == 0xd9 && b == 0xb5:
				light++
			case r > 150 && g < 90 && b < 90:
				red++
			}
		}
	}
	t.Logf("screenshot %s: %dx%d, %d light-square samples, %d red samples", shot, bnd.Dx(), bnd.Dy(), light, red)
	if light < 2000 || red < 50 {
		t.Fatalf("the page did not render its boards: %d light, %d red samples", light, red)
	}
}
