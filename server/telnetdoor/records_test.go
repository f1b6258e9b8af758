package telnetdoor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"kriegbot/server"
)

// TestRecordsSurviveARestart plays a game on a server, restarts it on the
// same records folder and plays another: the second game's number follows
// the first's and both games keep their records (a restart used to start
// again at game 1 and replace game-1's files).
func TestRecordsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	play := func() int {
		srv, addr := startServer(t, server.Config{RecordDir: dir})
		w, b, _, _ := startRawGame(t, addr)
		w.Send("resign\r\n")
		b.Expect("resigns} 0-1", wait)
		srv.Close()
		fin := srv.Finished()
		if len(fin) != 1 {
			t.Fatalf("finished %+v", fin)
		}
		return fin[0].Number
	}
	first, second := play(), play()
	if second <= first {
		t.Errorf("after a restart the game is number %d, after game %d", second, first)
	}
	for _, n := range []int{first, second} {
		for _, ext := range []string{".pgn", ".jsonl"} {
			name := filepath.Join(dir, fmt.Sprintf("game-%d%s", n, ext))
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte("0-1")) {
				t.Errorf("%s holds no result:\n%s", name, b)
			}
		}
	}
}
