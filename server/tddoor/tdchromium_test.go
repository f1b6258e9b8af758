package tddoor

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"kriegbot/internal/chromium"
	"kriegbot/server"
)

// TestTDCrosstableChromium serves a finished event's crosstable on the
// HTTP door and renders it in headless Chromium: the screenshot must show
// the tables (their grey headers and striped rows), not a blank or error
// page. Opt-in: KRIEGBOT_CHROMIUM=1 (Debian package chromium);
// KRIEGBOT_SCREENSHOT=FILE keeps the screenshot (docs/crosstable.png is
// made so).
func TestTDCrosstableChromium(t *testing.T) {
	if !chromium.Enabled() {
		t.Skip("KRIEGBOT_CHROMIUM=1 renders the crosstable in headless Chromium")
	}
	dir := t.TempDir()
	b, err := marshalTDEvent(finishedEvent(t, "mcts-b"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tourney-1.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := newHouse(server.Config{}, Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go http.Serve(ln, tourneyPages(s))
	img, shot, err := chromium.Screenshot(dir, "http://"+ln.Addr().String()+"/tourney/1", chromium.Options{Width: 900, Height: 700})
	if err != nil {
		t.Fatal(err)
	}
	// The header cells are #eee, the even rows #f7f7f7, the borders #bbb:
	// a page whose tables did not render has none of them.
	head, stripe, border := 0, 0, 0
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y++ {
		for x := bnd.Min.X; x < bnd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case r == 0xee && g == 0xee && b == 0xee:
				head++
			case r == 0xf7 && g == 0xf7 && b == 0xf7:
				stripe++
			case r == 0xbb && g == 0xbb && b == 0xbb:
				border++
			}
		}
	}
	t.Logf("screenshot %s: %dx%d, %d header, %d stripe, %d border pixels", shot, bnd.Dx(), bnd.Dy(), head, stripe, border)
	if head < 2000 || stripe < 5000 || border < 2000 {
		t.Fatalf("the crosstable did not render: %d header, %d stripe, %d border pixels", head, stripe, border)
	}
}
