package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/opponent/pgnread"
	"kriegbot/protocol"
	"kriegbot/protocol/iccclient"
	"kriegbot/server/internal/wiretest"
)

// heard is one thing a player was told about one attempt.
type heard struct {
	illegal bool
	own     bool
	move    string // our own move (smith), or "" for the opponent's
	capture string // square of an announced capture, or ""
	checks  []chess.CheckKind
	tries   int // -1 when not announced
}

func (h heard) String() string {
	return fmt.Sprintf("{illegal:%v own:%v move:%s capture:%s checks:%v tries:%d}", h.illegal, h.own, h.move, h.capture, h.checks, h.tries)
}

// shadow is the test's full knowledge of the board, used only to pick
// sensible attempts for both random players; each player still learns the
// outcome only from what the server tells it.
type shadow struct {
	mu    sync.Mutex
	cond  *sync.Cond
	pos   chess.Position
	plies int
	tries int
}

func (sh *shadow) waitPly(n int) chess.Position {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for sh.plies < n {
		sh.cond.Wait()
	}
	return sh.pos
}

func (sh *shadow) apply(m chess.Move, tries int) {
	sh.mu.Lock()
	sh.pos.Make(m)
	sh.plies++
	sh.tries = tries
	sh.mu.Unlock()
	sh.cond.Broadcast()
}

// player runs one side with random askable attempts until the game ends,
// recording what it heard.
type player struct {
	s       *iccclient.Session
	sh      *shadow
	rng     *rand.Rand
	log     []heard
	result  protocol.MyGameResultDG
	color   chess.Color
	game    int
	plies   int
	refused []chess.Move
	last    chess.Move
	err     error
}

func (p *player) attempt() error {
	pos := p.sh.waitPly(p.plies)
	p.sh.mu.Lock()
	tries := p.sh.tries
	p.sh.mu.Unlock()
	var list chess.MoveList
	umpire.Askable(&pos, tries, p.refused, &list)
	if list.N == 0 {
		return fmt.Errorf("no askable attempt")
	}
	p.last = list.Moves[p.rng.IntN(list.N)]
	line, err := protocol.MoveLine(p.last, protocol.PromoteUCI)
	if err != nil {
		return err
	}
	return p.s.Send(line)
}

func (p *player) run(ctx context.Context) {
	var anns []protocol.Announcement
	for {
		m, err := p.s.Next(ctx)
		if err != nil {
			p.err = err
			return
		}
		switch m.Kind {
		case protocol.MsgText:
			items, _, unknown := protocol.ParseAnnouncements(anns[:0], []byte(m.Text))
			if unknown {
				p.err = fmt.Errorf("unparsed referee text %q", m.Text)
				return
			}
			for _, a := range items {
				if len(p.log) == 0 {
					continue
				}
				h := &p.log[len(p.log)-1]
				switch a.Kind {
				case protocol.AnnCapture:
					h.capture = a.Capture.Square.String()
				case protocol.AnnCheck:
					h.checks = append(h.checks, a.Check)
				case protocol.AnnPawnTries:
					h.tries = a.Tries
				}
			}
		case protocol.MsgDatagram:
			if m.DecodeErr != nil {
				p.err = m.DecodeErr
				return
			}
			switch d := m.DG.(type) {
			case protocol.MyGameStartedDG:
				p.game = d.Game
				if strings.EqualFold(d.Black, p.s.Handle()) {
					p.color = chess.Black
				}
			case protocol.MyTurnDG:
				p.refused = p.refused[:0]
				if err := p.attempt(); err != nil {
					p.err = err
					return
				}
			case protocol.IllegalMoveDG:
				p.log = append(p.log, heard{illegal: true, own: true, move: d.Move, tries: -1})
				p.refused = append(p.refused, p.last)
				if err := p.attempt(); err != nil {
					p.err = err
					return
				}
			case protocol.MoveDG:
				p.plies++
				if d.Hidden {
					h := heard{tries: -1}
					p.log = append(p.log, h)
				} else {
					p.log = append(p.log, heard{own: true, move: d.Smith, tries: -1})
					m, err := chess.ParseUCI(d.Smith)
					if err != nil {
						p.err = err
						return
					}
					// Both players' next tries come with the announcement;
					// the shadow takes them from the umpire replica.
					pos := p.sh.waitPly(p.plies - 1)
					pos.Make(m)
					p.sh.apply(m, pos.PawnTries())
				}
			case protocol.MyGameResultDG:
				p.result = d
				return
			}
		}
	}
}

// expected turns the umpire's record into what side c should have heard.
func expected(answers []umpire.Answer, c chess.Color) []heard {
	var out []heard
	for _, a := range answers {
		v := a.For(c)
		if !v.Heard {
			continue
		}
		if v.Illegal {
			out = append(out, heard{illegal: true, own: true, move: a.Attempt.String(), tries: -1})
			continue
		}
		h := heard{own: v.Own, tries: -1}
		if v.Own {
			h.move = a.Attempt.String()
		}
		if v.Capture.Kind != umpire.NoCapture {
			h.capture = v.Capture.Square.String()
		}
		if v.Ending == umpire.NotOver {
			for _, k := range v.Checks {
				if k != chess.NoCheck {
					h.checks = append(h.checks, k)
				}
			}
			h.tries = v.PawnTries
		}
		out = append(out, h)
	}
	return out
}

func sameHeard(a, b heard) bool {
	if a.illegal != b.illegal || a.own != b.own || a.move != b.move || a.capture != b.capture || a.tries != b.tries || len(a.checks) != len(b.checks) {
		return false
	}
	for i := range a.checks {
		if a.checks[i] != b.checks[i] {
			return false
		}
	}
	return true
}

// TestSessionsPlayCompleteGames logs two Sessions into the server over
// loopback (one-line and password-prompt login flows), matches them, and plays
// complete games with random askable attempts, checking everything each side
// was told against the umpire's own record.
func TestSessionsPlayCompleteGames(t *testing.T) {
	records := t.TempDir()
	srv, addr := startServer(t, Config{RecordDir: records, Accounts: testAccounts(t, map[string]string{"alice": "wonderland", "bob": "builder"})})
	alice := dialSession(t, addr, "alice", "wonderland")
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	bob, err := iccclient.Dial(ctx, iccclient.Config{Addr: addr, Handle: "bob", Password: "builder", PasswordPrompt: true,
		Dial: wiretest.PlainDial, LinesPerSecond: 5000, Burst: 5000, KeepAlive: -1, DeadAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	if alice.Handle() != "alice" || bob.Handle() != "bob" || alice.Titles() != "C" {
		t.Fatalf("handles %q %q titles %q", alice.Handle(), bob.Handle(), alice.Titles())
	}
	games := 12
	if testing.Short() {
		games = 1
	}
	endings := map[string]int{}
	for g := 0; g < games; g++ {
		gctx, gcancel := context.WithTimeout(context.Background(), 2*wait)
		line, _ := protocol.MatchLine(protocol.MatchParams{Opponent: "bob", Minutes: 30, Increment: 0, Wild: 16})
		if err := alice.Send(line); err != nil {
			t.Fatal(err)
		}
		// Bob accepts when DG 29 arrives.
		for {
			m, err := bob.Next(gctx)
			if err != nil {
				t.Fatal(err)
			}
			if d, ok := m.DG.(protocol.MatchDG); ok && d.Challenger == "alice" {
				if d.Wild != 16 {
					t.Fatalf("challenge wild %d", d.Wild)
				}
				l, _ := protocol.AcceptLine("alice")
				bob.Send(l)
				break
			}
		}
		sh := &shadow{pos: chess.StartPosition()}
		sh.cond = sync.NewCond(&sh.mu)
		pa := &player{s: alice, sh: sh, rng: rand.New(rand.NewPCG(uint64(g), 1))}
		pb := &player{s: bob, sh: sh, rng: rand.New(rand.NewPCG(uint64(g), 2))}
		var wg sync.WaitGroup
		for _, p := range []*player{pa, pb} {
			wg.Add(1)
			go func() { defer wg.Done(); p.run(gctx) }()
		}
		wg.Wait()
		gcancel()
		for _, p := range []*player{pa, pb} {
			if p.err != nil {
				t.Fatalf("game %d: %s: %v", g, p.s.Handle(), p.err)
			}
		}
		fin := srv.Finished()
		rec := fin[len(fin)-1]
		if rec.Number != pa.game || pa.result.Game != rec.Number || pb.result.Score != rec.Result {
			t.Fatalf("game %d: record %d %s, players saw %d %+v", g, rec.Number, rec.Result, pa.game, pb.result)
		}
		if rec.Code != "Mat" && rec.Code != "Sta" && rec.Code != "NM" && rec.Code != "50" && rec.Code != "Rep" {
			t.Fatalf("game %d ended by %s (%s), want mate or a draw rule", g, rec.Code, rec.Description)
		}
		endings[rec.Code]++
		if pa.color == pb.color {
			t.Fatalf("both players think they are %v", pa.color)
		}
		for _, p := range []*player{pa, pb} {
			want := expected(rec.Answers, p.color)
			if len(want) != len(p.log) {
				t.Fatalf("game %d %v: heard %d items, umpire record has %d", g, p.color, len(p.log), len(want))
			}
			for i := range want {
				if !sameHeard(want[i], p.log[i]) {
					t.Fatalf("game %d %v item %d: heard %v, umpire says %v", g, p.color, i, p.log[i], want[i])
				}
			}
		}
	}
	t.Logf("endings: %v", endings)
	checkRecords(t, records, srv.Finished())
}

// checkRecords reads every game's PGN back with an ordinary PGN library and
// its JSON Lines record, and compares both with the umpire's record.
func checkRecords(t *testing.T, dir string, games []FinishedGame) {
	t.Helper()
	for _, g := range games {
		var legal []string
		for _, a := range g.Answers {
			if a.Legal {
				legal = append(legal, a.Attempt.String())
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%d.pgn", g.Number)))
		if err != nil {
			t.Fatal(err)
		}
		pg, err := pgnread.ParseGame(data)
		if err != nil {
			t.Fatalf("game %d PGN: %v\n%s", g.Number, err, data)
		}
		var uci []string
		for _, m := range pg.Moves {
			uci = append(uci, m.String())
		}
		if fmt.Sprint(uci) != fmt.Sprint(legal) || pg.Result != g.Result {
			t.Fatalf("game %d PGN: %d moves, result %q; umpire %d moves, %q", g.Number, len(uci), pg.Result, len(legal), g.Result)
		}
		lines, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%d.jsonl", g.Number)))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(strings.TrimSpace(string(lines)), "\n")
		if len(rows) != len(g.Answers)+1 {
			t.Fatalf("game %d: %d JSON lines for %d attempts", g.Number, len(rows), len(g.Answers))
		}
		for i, row := range rows {
			var v map[string]any
			if err := json.Unmarshal([]byte(row), &v); err != nil {
				t.Fatalf("game %d line %d: %v", g.Number, i+1, err)
			}
		}
	}
}
