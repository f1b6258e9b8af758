package live

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"kriegbot/internal/chromium"
)

// variantSample is sample() with its game a crazykrieg game.
func variantSample() Snapshot {
	s := sample()
	g := &s.Games[0]
	g.Rules = "crazykrieg: Any? may be asked; refused attempts are announced to both sides"
	g.Turn = []string{"obligation: we asked Any? and have pawn captures: we must try a pawn capture (a refused one frees us)",
		"their last turn: 2 attempts refused, asked Any?: no pawn captures"}
	g.Pockets = "our pocket: knight; their pocket: 2 pawns"
	g.Heard = []string{"they: an attempt refused", "they asked Any?: no pawn captures", "we asked Any?: has pawn captures"}
	return s
}

// TestVariantGamePage: a variant game's part of the page names the variant
// and shows its turn (the obligation, the opponent's last turn), the
// pockets and the answers; a wild 16 game's shows none of these lines.
func TestVariantGamePage(t *testing.T) {
	s := variantSample()
	page := pageHTML(&s)
	for _, want := range []string{"rules crazykrieg: Any? may be asked", "<li>obligation: we asked Any? and have pawn captures",
		"<li>their last turn: 2 attempts refused, asked Any?: no pawn captures</li>",
		"our pocket: knight; their pocket: 2 pawns", "they: an attempt refused · they asked Any?: no pawn captures · we asked Any?: has pawn captures"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	w16 := sample()
	if page := pageHTML(&w16); strings.Contains(page, "rules ") || strings.Contains(page, `class="turn"`) {
		t.Errorf("a wild 16 game shows variant lines")
	}
}

// TestVariantPageInChromium serves the page with a variant game to
// headless Chromium and checks what it shows after its script redrew it
// from /fragment. Opt-in: KRIEGBOT_CHROMIUM=1.
func TestVariantPageInChromium(t *testing.T) {
	if !chromium.Enabled() {
		t.Skip("KRIEGBOT_CHROMIUM=1 renders the page in headless Chromium")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(t.TempDir(), nil)
	s.Publish(variantSample())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln)
	dom, err := chromium.DOM(t.TempDir(), "http://"+ln.Addr().String()+"/", chromium.Options{VirtualTime: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rules crazykrieg", "obligation: we asked Any?", "our pocket: knight; their pocket: 2 pawns", "they: an attempt refused"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page shown lacks %q", want)
		}
	}
}
