package bot

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestConsoleAutoPiped: logs.console = "auto" with stderr piped (a buffer,
// and a real pipe as under systemd or docker logs) writes the warnings and
// errors as JSON lines, as config.toml and deploy/README.md say; info lines
// stay in the log file only. Before the fix "auto" wrote nothing unless
// stderr was a terminal, so a refused password left no line.
func TestConsoleAutoPiped(t *testing.T) {
	logTo := func(w io.Writer) {
		cw := consoleWriter("auto", w)
		if cw == nil {
			t.Fatal(`consoleWriter("auto", piped) = nil: warnings and errors are lost`)
		}
		log := zerolog.New(zerolog.MultiLevelWriter(io.Discard, cw)).With().Timestamp().Logger()
		log.Info().Msg("kriegbot starting")
		log.Error().Int("code", 2).Str("why", "Invalid password").Msg("login refused for good")
		log.Warn().Str("retry_in", "1s").Msg("cannot log in")
	}
	check := func(name, out string) {
		t.Helper()
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines, want the error and the warning:\n%s", name, len(lines), out)
		}
		for i, want := range []string{"login refused for good", "cannot log in"} {
			var ev map[string]any
			if err := json.Unmarshal([]byte(lines[i]), &ev); err != nil {
				t.Fatalf("%s: line %d not JSON: %v: %q", name, i+1, err, lines[i])
			}
			if ev["message"] != want {
				t.Errorf("%s: line %d message %v, want %q", name, i+1, ev["message"], want)
			}
		}
	}

	var buf bytes.Buffer
	logTo(&buf)
	check("buffer", buf.String())

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	logTo(w)
	w.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	check("pipe", string(out))
}
