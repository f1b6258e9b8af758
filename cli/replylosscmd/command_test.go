package replylosscmd

import (
	"io"
	"strings"
	"testing"

	"kriegbot/engine/belief"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/search/replymodel"
)

const header = `{"type":"match","p1":"mcts","p2":"mcts","games":1,"seed":"7","shard":0,"shards":1,"rules":"icc","max_plies":600,"tc":"-","nodes":300}` + "\n"

func attempt(ply int, side, uci string, legal bool, san string) string {
	l := `{"type":"attempt","game":0,"ply":` + string(rune('0'+ply)) + `,"side":"` + side + `","attempt":"` + uci + `","legal":`
	if legal {
		return l + `true,"san":"` + san + `","tries":0,"think_us":1}` + "\n"
	}
	return l + `false,"think_us":1}` + "\n"
}

func newStudy() *study {
	return &study{prior: belief.UniformPrior{}, boards: 2, pred: replymodel.NewBoards(replymodel.DefaultWeights(), 1)}
}

func (s *study) readWithPredictor(r io.Reader) error { return s.read(r, "x.jsonl") }

// TestRead: the replies of a short game are counted, each with the event
// heard (1.e4 d5 2.exd5 Qxd5: Black's queen takes the pawn on d5), and bad
// files are refused naming the line.
func TestRead(t *testing.T) {
	good := header + attempt(0, "white", "e2e4", true, "e4") + attempt(1, "black", "d7d5", true, "d5") +
		attempt(2, "white", "e4d5", true, "exd5") + attempt(3, "black", "d8d4", false, "") + attempt(3, "black", "d8d5", true, "Qxd5")
	for _, tc := range []struct {
		name, file string
		replies    int
		err        string
	}{
		{"a short game", good, 3, ""},
		{"not json", header + "{oops\n", 0, "x.jsonl:2:"},
		{"a legal move the file calls illegal", header + attempt(0, "white", "e2e4", false, ""), 0, "x.jsonl:2: game 0: attempt e2e4"},
		{"unknown rules", strings.Replace(header, "icc", "chess960", 1), 0, "x.jsonl:1:"},
		{"games from positions", strings.Replace(header, `"nodes":300`, `"nodes":300,"positions":3`, 1), 0, "-positions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStudy()
			err := s.readWithPredictor(strings.NewReader(tc.file))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.out) != tc.replies {
				t.Fatalf("%d replies, want %d", len(s.out), tc.replies)
			}
			last := s.out[len(s.out)-1]
			if last.event != 35 { // d5
				t.Errorf("last reply's event %d, want d5 (35)", last.event)
			}
		})
	}
}

// TestReadParticles: with -particles, each reply is predicted from the
// set's boards too, and where the opponent's men stand is scored. After
// 1.e4 d5 2.exd5 every board of White's set has Black's pawn taken on d5
// (the capture told it), so the set expects the recapture there.
func TestReadParticles(t *testing.T) {
	file := header + attempt(0, "white", "e2e4", true, "e4") + attempt(1, "black", "d7d5", true, "d5") +
		attempt(2, "white", "e4d5", true, "exd5") + attempt(3, "black", "d8d4", false, "") + attempt(3, "black", "d8d5", true, "Qxd5")
	s := newStudy()
	s.particles, s.ppred = 16, replymodel.NewBoards(replymodel.DefaultWeights(), 2)
	if err := s.readWithPredictor(strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	if len(s.out) != 3 || s.occTurns != 4 {
		t.Fatalf("%d replies, %d turns scored; want 3 and 4", len(s.out), s.occTurns)
	}
	last := &s.out[2]
	def := replymodel.DefaultWeights()
	set := s.boardsProb(last.sets, last.event, &def)
	if len(last.sets) != s.boards+1 || set < 0.5 {
		t.Errorf("the set's %d boards give the recapture on d5 %.3f, want at least 0.5", len(last.sets)-1, set)
	}
	t.Logf("the recapture on d5: %.3f from the set, %.3f from the belief's boards", set, s.boardsProb(last.boards, last.event, &def))
}

// TestDrift: with -byply, every turn after a legal move is scored in the
// row of its ply, and every square the belief gives a class a chance is
// sorted into the calibration table.
func TestDrift(t *testing.T) {
	file := header + attempt(0, "white", "e2e4", true, "e4") + attempt(1, "black", "d7d5", true, "d5") +
		attempt(2, "white", "e4d5", true, "exd5") + attempt(3, "black", "d8d4", false, "") + attempt(3, "black", "d8d5", true, "Qxd5")
	s := newStudy()
	s.byPly = 2
	if err := s.readWithPredictor(strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	if len(s.drift) != 2 || s.drift[0].turns != 2 || s.drift[1].turns != 2 {
		t.Fatalf("drift rows %+v, want two of 2 turns", s.drift)
	}
	squares, found := 0, 0
	for _, b := range s.calibration[oppmodel.Pawn] {
		squares += b.squares
		found += b.found
	}
	// Four turns, at least 7 pawns each on a square of some chance.
	if squares < 28 || found < 28 {
		t.Errorf("pawn calibration: %d squares, %d with a pawn; want at least 28 of each", squares, found)
	}
	var out strings.Builder
	s.printDrift(&out)
	if !strings.Contains(out.String(), "   1-2         2") || !strings.Contains(out.String(), "calibration:") {
		t.Errorf("drift table:\n%s", out.String())
	}
	s.byPly = 0
	out.Reset()
	s.printDrift(&out)
	if out.Len() != 0 {
		t.Errorf("drift table printed without -byply: %q", out.String())
	}
}

// TestCommandRefuses: bad flags are refused with a message naming them.
func TestCommandRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-movers", "x", "m.jsonl"}, "movers \"x\""},
		{[]string{"-byply", "-1", "m.jsonl"}, "-byply"},
		{[]string{"-model", "/no/such/file.kbm", "m.jsonl"}, "file.kbm"},
	} {
		var out, errs strings.Builder
		if code := Command(tc.args, &out, &errs); code == 0 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%v: code %d, stderr %q; want a failure naming %q", tc.args, code, errs.String(), tc.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(header + attempt(0, "white", "e2e4", true, "e4") + attempt(1, "black", "e7e5", true, "e5"))
	f.Add(header + "{}\n")
	f.Fuzz(func(t *testing.T, file string) {
		s := newStudy()
		s.particles, s.ppred = 4, replymodel.NewBoards(replymodel.DefaultWeights(), 2)
		s.byPly = 3
		_ = s.readWithPredictor(strings.NewReader(file)) // must not panic
	})
}
