package rotate

import (
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// zerolog writes each event with one Write call, so rotation never splits
// an event.
func TestZerologEventsStayWhole(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, "kriegbot.log", 2000, 100)
	if err != nil {
		t.Fatal(err)
	}
	log := zerolog.New(w)
	for i := range 300 {
		log.Info().Int("seq", i).Str("msg2", strings.Repeat("y", i%50)).Msg("attempt")
	}
	w.Close()
	files := readAll(t, dir)
	if len(files) < 10 {
		t.Fatalf("only %d files: rotation did not happen", len(files))
	}
	checkWhole(t, files)
	n := 0
	for _, b := range files {
		n += strings.Count(string(b), "\n")
	}
	if n != 300 {
		t.Errorf("%d events found, want 300", n)
	}
}
