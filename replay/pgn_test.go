package replay

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"kriegbot/engine/chess"
)

// TestPGNExtract checks the PGN files of every writer with pgn-extract, an
// ordinary PGN tool that knows nothing of Kriegspiel: the daemon's (a game
// on our server, and games written by record.Writer) and the server's.
// Opt-in: KRIEGBOT_PGN_EXTRACT=1 (Debian package pgn-extract).
func TestPGNExtract(t *testing.T) {
	if os.Getenv("KRIEGBOT_PGN_EXTRACT") == "" {
		t.Skip("KRIEGBOT_PGN_EXTRACT=1 checks the PGN files with pgn-extract")
	}
	bin, err := exec.LookPath("pgn-extract")
	if err != nil {
		if bin, err = exec.LookPath("/usr/games/pgn-extract"); err != nil {
			t.Fatal("pgn-extract not installed (apt-get install -y pgn-extract)")
		}
	}
	server := t.TempDir()
	dir, _ := daemonGame(t, "heuristic", 2, 1, 60*time.Second, server)
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*.pgn"))
	srv, _ := filepath.Glob(filepath.Join(server, "*.pgn"))
	files = append(files, srv...)
	for i, us := range []chess.Color{chess.White, chess.Black} {
		name := playRecorded(t, us, uint64(60+i), 200)
		files = append(files, strings.TrimSuffix(name, ".jsonl")+".pgn")
	}
	// The daemon's own PGN waits for the move list, which may come after it
	// quit; the server's and the recorder's are always there.
	if len(srv) != 1 || len(files) < 3 {
		t.Fatalf("%d PGN files: %v", len(files), files)
	}
	check := func(files []string) (int, int, string) {
		out, err := exec.Command(bin, append([]string{"-r"}, files...)...).CombinedOutput()
		m := regexp.MustCompile(`(\d+) games? matched out of (\d+)`).FindSubmatch(out)
		if err != nil || m == nil {
			t.Fatalf("pgn-extract: %v\n%s", err, out)
		}
		var matched, total int
		fmt.Sscan(string(m[1]), &matched)
		fmt.Sscan(string(m[2]), &total)
		return matched, total, string(out)
	}
	matched, total, out := check(files)
	t.Logf("pgn-extract -r on %d files: %d games matched out of %d", len(files), matched, total)
	if matched != len(files) || total != len(files) || strings.Contains(out, "Line number") {
		t.Fatalf("pgn-extract found errors:\n%s", out)
	}
	// The check can fail: a game with an impossible move is refused.
	bad := filepath.Join(t.TempDir(), "bad.pgn")
	os.WriteFile(bad, []byte("[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {0 pawn tries} 1... e4 *\n"), 0o644)
	if matched, _, _ := check([]string{bad}); matched != 0 {
		t.Fatal("pgn-extract accepted an illegal move: the check is blind")
	}
}
