package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kriegbot/internal/chromium"
)

// variantPages plays a short match of variant (heuristic, which asks
// "Any?", against random) with records and returns every side's replay
// page, and their files.
func variantPages(t *testing.T, variant string) ([]string, []string) {
	t.Helper()
	dir := t.TempDir()
	args := []string{"-p1", "heuristic", "-p2", "random", "-games", "2", "-nodes", "60", "-maxplies", "160",
		"-concurrency", "1", "-seed", "7", "-rules", variant, "-records", dir}
	runMatch(t, args)
	files, err := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if err != nil || len(files) != 4 {
		t.Fatalf("records %v (%v)", files, err)
	}
	var pages, names []string
	for _, name := range files {
		res, err := Run(context.Background(), readFile(t, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Differing != 0 {
			t.Fatalf("%s: %s", name, Summary(res))
		}
		var b bytes.Buffer
		if err := WriteHTML(&b, res); err != nil {
			t.Fatal(err)
		}
		page := strings.TrimSuffix(name, ".jsonl") + ".html"
		if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		pages, names = append(pages, b.String()), append(names, page)
	}
	return pages, names
}

// TestVariantPages: a variant game's replay page shows what a person must
// find to follow it: the variant's name and what it announces, our and
// the opponent's "Any?" questions with their answers, the obligation after
// "has pawn captures", the opponent's refused attempts (the site says only
// that one was refused), the captures as the variant types them, the pawn
// news (rand's squares, cincinnati's "has a pawn capture"), and in
// crazykrieg the drops, both pockets and the true board at every ply.
func TestVariantPages(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    []string
	}{
		{"berkeley", []string{"they: an attempt refused", "their last turn: ", "Capture at "}},
		{"berkeley_any", []string{"we asked Any?: has pawn captures", "we asked Any?: no pawn captures", "they asked Any?: ",
			"obligation: we asked Any? and have pawn captures: we must try pawn captures until one is played",
			"they: an attempt refused", "Capture at "}},
		{"english", []string{"we asked Any?: ", "obligation: we asked Any? and have pawn captures: we must try a pawn capture (a refused one frees us)"}},
		{"cincinnati", []string{"our pawn news: has a pawn capture", "our pawn news: no pawn capture", "Pawn at "}},
		{"rand", []string{"our pawn news: pawn tries from ", "they: an attempt refused"}},
		{"crazykrieg", []string{"we asked Any?: ", "Drop of a ", "our pocket: ", "their pocket: "}},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			pages, _ := variantPages(t, tc.variant)
			all := strings.Join(pages, "\n")
			for _, page := range pages {
				if !strings.Contains(page, `<p class="meta" id="rules">Rules: `+tc.variant+": ") {
					t.Fatalf("a page does not name the variant:\n%.800s", page)
				}
				if strings.Contains(page, "wild 16") {
					t.Errorf("a %s page says wild 16", tc.variant)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no page shows %q", w)
				}
			}
			if tc.variant != "crazykrieg" {
				return
			}
			ours, theirs := false, false
			for _, m := range regexp.MustCompile(`our pocket: ([^;<]+); their pocket: ([^<]+)</li>`).FindAllStringSubmatch(all, -1) {
				ours, theirs = ours || m[1] != "empty", theirs || m[2] != "empty"
			}
			if !ours || !theirs {
				t.Errorf("no page shows a man in our pocket (%v) or in theirs (%v)", ours, theirs)
			}
			// The revealed game is played through its drops: every frame
			// has the true board.
			for _, page := range pages {
				frames := strings.Count(page, `<section class="frame"`)
				if truth := strings.Count(page, "the truth at this ply"); frames == 0 || truth != frames {
					t.Errorf("%d frames, %d true boards", frames, truth)
				}
			}
		})
	}
}

// TestVariantPageInChromium opens a berkeley_any replay page in headless
// Chromium at an attempt made under the obligation and checks that the
// frame shown says it, with the variant's name and the opponent's "Any?".
// Opt-in: KRIEGBOT_CHROMIUM=1 (Debian package chromium).
func TestVariantPageInChromium(t *testing.T) {
	if !chromium.Enabled() {
		t.Skip("KRIEGBOT_CHROMIUM=1 renders the page in headless Chromium")
	}
	pages, names := variantPages(t, "berkeley_any")
	frame := regexp.MustCompile(`<section class="frame" id="a(\d+)"[^>]*>\n<h2>[^\n]*\n<ul class="turn"[^>]*><li>obligation: `)
	for i, page := range pages {
		m := frame.FindStringSubmatch(page)
		if m == nil {
			continue
		}
		dom, err := chromium.DOM(t.TempDir(), "file://"+names[i]+"#"+m[1], chromium.Options{VirtualTime: 2e9})
		if err != nil {
			t.Fatal(err)
		}
		on := regexp.MustCompile(`(?s)<section class="frame on" id="a` + m[1] + `".*?</section>`).FindString(dom)
		if on == "" {
			t.Fatalf("attempt %s is not the frame shown:\n%.2000s", m[1], dom)
		}
		for _, want := range []string{"obligation: we asked Any? and have pawn captures", "we asked Any?: has pawn captures"} {
			if !strings.Contains(on, want) {
				t.Errorf("the frame shown lacks %q:\n%s", want, on)
			}
		}
		if !strings.Contains(dom, "Rules: berkeley_any: Any? may be asked") {
			t.Errorf("the page shown does not name its variant")
		}
		return
	}
	t.Fatal("no page has an attempt under the obligation")
}
