package replay

import (
	"bytes"
	"context"
	"encoding/xml"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kriegbot/engine/chess"
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
	if err := writeHTMLFile(page, res); err != nil {
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
