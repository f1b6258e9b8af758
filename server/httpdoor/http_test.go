package httpdoor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/kshttp"
	"kriegbot/server/tddoor"
	"kriegbot/server/telnetdoor"
)

// wait bounds every wait for something that must happen (wiretest.Wait).
const wait = wiretest.Wait

// house is a test's whole server: the table with its telnet door, the
// TD and the HTTP door.
type house struct {
	*server.Server
	door *Door
}

// startHTTP runs a server with both doors on loopback ports. Request
// limits are raised: the test clients share one address and do not pause.
func startHTTP(t testing.TB, cfg server.Config, hcfg Config) (s *house, telnet, base string) {
	t.Helper()
	if cfg.Rules == (umpire.Rules{}) {
		cfg.Rules = umpire.Olympiad()
		cfg.Rules.MaxPlies = 200 // random games end soon enough
	}
	h := &hcfg
	if h.Rate == 0 {
		h.Rate, h.Burst, h.TokenRate, h.TokenBurst = 1e6, 1e6, 1e6, 1e6
		h.RegisterRate, h.RegisterBurst = 1e6, 1e6
	}
	if h.JoinCooldown == 0 {
		h.JoinCooldown = -1
	}
	table, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	// The whole house, as kriegbot serve composes it: the TD (whose name
	// no bot may take, whose pages the door serves), then the HTTP door.
	telnetDoor := telnetdoor.New(table, telnetdoor.Config{})
	director, err := tddoor.New(table, tddoor.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hcfg.Pages = director.ServeTourney
	door, err := New(table, hcfg)
	if err != nil {
		t.Fatal(err)
	}
	tln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go telnetDoor.Serve(tln)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go door.ServeAPI(ln)
	return &house{Server: table, door: door}, tln.Addr().String(), "http://" + ln.Addr().String()
}

// apiClient is a bot as the site's Python bots are: plain requests with a
// bearer token.
type apiClient struct {
	t     testing.TB
	base  string
	token string
	name  string
	hc    *http.Client
}

func newAPIClient(t testing.TB, base string) *apiClient {
	return &apiClient{t: t, base: base, hc: &http.Client{Timeout: wait}}
}

// do sends a request and returns the status and the body.
func (c *apiClient) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		rd = bytes.NewReader(js)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// call is do that wants status want and decodes the answer into v.
func (c *apiClient) call(method, path string, body any, want int, v any) {
	c.t.Helper()
	st, out := c.do(method, path, body)
	if st != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, st, want, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, out)
		}
	}
}

func (c *apiClient) register(name string) {
	c.t.Helper()
	var r struct {
		Token string `json:"api_token"`
		User  string `json:"username"`
	}
	c.call("POST", "/auth/bots/register", map[string]any{"username": name, "display_name": name + " bot",
		"owner_email": "owner@example.org", "supported_rule_variants": []string{"wild16"}}, 201, &r)
	if _, ok := kshttp.ParseToken(r.Token); !ok {
		c.t.Fatalf("register: token %q has not the site's shape", r.Token)
	}
	c.token, c.name = r.Token, r.User
}

// The JSON the test clients read (their own declarations: the test does
// not reuse the server's types).
type tMove struct {
	MoveDone      bool     `json:"move_done"`
	Announcement  string   `json:"announcement"`
	Special       *string  `json:"special_announcement"`
	Checks        []string `json:"checks"`
	CaptureSquare *string  `json:"capture_square"`
	CapturedPiece *string  `json:"captured_piece_announcement"`
	NextTries     *int     `json:"next_turn_pawn_tries"`
	Turn          *string  `json:"turn"`
	GameOver      bool     `json:"game_over"`
}

type tEntry struct {
	Kind, Actor, Message string
	Messages             []string
}

type tState struct {
	GameID          string   `json:"game_id"`
	State           string   `json:"state"`
	Turn            *string  `json:"turn"`
	YourColor       string   `json:"your_color"`
	YourFEN         string   `json:"your_fen"`
	AllowedMoves    []string `json:"allowed_moves"`
	PossibleActions []string `json:"possible_actions"`
	Scoresheet      struct {
		Turns []struct {
			Turn         int
			White, Black []tEntry
		}
	}
	RefereeLog []struct{ Announcement string } `json:"referee_log"`
	Result     *struct {
		Winner *string
		Reason string
	}
	Clock struct {
		White  float64 `json:"white_remaining"`
		Black  float64 `json:"black_remaining"`
		Active *string `json:"active_color"`
	}
}

// botPlayer plays one game as docs/kriegspiel-org-api.md §10 says: poll /game/mine/active
// (or wait on the event stream), fetch /state, pick from allowed_moves,
// never resend a refused move.
type botPlayer struct {
	c      *apiClient
	rng    *rand.Rand
	sse    bool
	gameID string
	color  string
	heard  []struct {
		uci string
		r   tMove
	}
	final tState
	err   error
}

func (p *botPlayer) fail(format string, a ...any) { p.err = fmt.Errorf(p.c.name+": "+format, a...) }

// findGame polls /game/mine/active until an active game shows.
func (p *botPlayer) findGame() bool {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		var mine struct {
			Games []struct {
				GameID string `json:"game_id"`
				State  string `json:"state"`
			}
		}
		p.c.call("GET", "/game/mine/active", nil, 200, &mine)
		for _, g := range mine.Games {
			if g.State == "active" {
				p.gameID = g.GameID
				return true
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.fail("no active game")
	return false
}

func (p *botPlayer) play() {
	if p.gameID == "" && !p.findGame() {
		return
	}
	var events <-chan string
	if p.sse {
		ch, stop, err := openEvents(p.c, p.gameID)
		if err != nil {
			p.fail("events: %v", err)
			return
		}
		defer stop()
		events = ch
	}
	deadline := time.Now().Add(4 * wait)
	for time.Now().Before(deadline) {
		var st tState
		p.c.call("GET", "/game/"+p.gameID+"/state", nil, 200, &st)
		p.color = st.YourColor
		if st.State == "completed" {
			p.final = st
			return
		}
		if st.State == "active" && !ownFENOnly(st.YourFEN, st.YourColor) {
			p.fail("your_fen %q shows more than our men", st.YourFEN)
			return
		}
		if st.State != "active" || st.Turn == nil || *st.Turn != st.YourColor || !slices.Contains(st.PossibleActions, "move") {
			if events != nil {
				select {
				case <-events:
				case <-time.After(200 * time.Millisecond): // events can drop: keep a slow poll
				}
			} else {
				time.Sleep(5 * time.Millisecond)
			}
			continue
		}
		// Our turn: try allowed moves in random order until one is done.
		moves := slices.Clone(st.AllowedMoves)
		p.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		for _, uci := range moves {
			var r tMove
			p.c.call("POST", "/game/"+p.gameID+"/move", map[string]string{"uci": uci}, 200, &r)
			p.heard = append(p.heard, struct {
				uci string
				r   tMove
			}{uci, r})
			if r.MoveDone || r.GameOver {
				break
			}
		}
	}
	p.fail("game did not end")
}

// ownFENOnly reports whether a your_fen board holds only color's men.
func ownFENOnly(fen, color string) bool {
	board, _, _ := strings.Cut(fen, " ")
	for _, ch := range board {
		if ch >= 'a' && ch <= 'z' && color == "white" || ch >= 'A' && ch <= 'Z' && color == "black" {
			return false
		}
	}
	return true
}

// openEvents reads a game's event stream, sending each event's type.
func openEvents(c *apiClient, id string) (<-chan string, func(), error) {
	req, _ := http.NewRequest("GET", c.base+"/game/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	ch := make(chan string, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if typ, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				select {
				case ch <- typ:
				default:
				}
			}
		}
	}()
	return ch, func() { resp.Body.Close() }, nil
}

// wantMove is what the site answers for an umpire's answer, written
// independently of the server's projection.
func wantMove(a umpire.Answer) tMove {
	w := tMove{MoveDone: a.Legal, Announcement: "ILLEGAL_MOVE", Checks: []string{}}
	if !a.Legal {
		return w
	}
	w.Announcement = "REGULAR_MOVE"
	if a.Capture.Kind != umpire.NoCapture {
		w.Announcement = "CAPTURE_DONE"
		sq, kind := a.Capture.Square.String(), "PIECE"
		if a.Capture.Kind == umpire.PawnCaptured {
			kind = "PAWN"
		}
		w.CaptureSquare, w.CapturedPiece = &sq, &kind
	}
	names := map[chess.CheckKind]string{chess.CheckRank: "CHECK_RANK", chess.CheckFile: "CHECK_FILE",
		chess.CheckLongDiagonal: "CHECK_LONG_DIAGONAL", chess.CheckShortDiagonal: "CHECK_SHORT_DIAGONAL", chess.CheckKnight: "CHECK_KNIGHT"}
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			w.Checks = append(w.Checks, names[k])
		}
	}
	if a.Ending != umpire.NotOver {
		w.GameOver, w.Checks = true, []string{}
		if a.Ending != umpire.PlyLimit { // the site has no name for our move cap
			sp := a.Ending.String()
			w.Special = &sp
		}
		return w
	}
	n := a.PawnTries
	w.NextTries = &n
	// ks-game's "checks" lists the two kinds of a double check only
	// (engine_adapter._answer_check_names reads check_1 and check_2).
	switch len(w.Checks) {
	case 1:
		w.Special = &w.Checks[0]
		w.Checks = []string{}
	case 2:
		sp := "CHECK_DOUBLE"
		w.Special = &sp
	}
	return w
}

func sameMove(got, want tMove) bool {
	eq := func(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	eqi := func(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	if got.MoveDone != want.MoveDone || got.Announcement != want.Announcement || !slices.Equal(got.Checks, want.Checks) ||
		!eq(got.CaptureSquare, want.CaptureSquare) || !eq(got.CapturedPiece, want.CapturedPiece) || !eqi(got.NextTries, want.NextTries) {
		return false
	}
	if want.GameOver {
		return got.GameOver && (got.Special != nil) == (want.Special != nil) // the ending's name
	}
	return eq(got.Special, want.Special)
}

// finishedGame finds the record of the game between two names.
func finishedGame(t *testing.T, s *house, a, b string) server.FinishedGame {
	t.Helper()
	for _, f := range s.Finished() {
		if (strings.EqualFold(f.White, a) && strings.EqualFold(f.Black, b)) || (strings.EqualFold(f.White, b) && strings.EqualFold(f.Black, a)) {
			return f
		}
	}
	t.Fatalf("no finished game between %s and %s", a, b)
	return server.FinishedGame{}
}

// checkHeard compares what a bot heard with the umpire's record: its own
// attempts one by one, and the opponent's moves in its final scoresheet.
func checkHeard(t *testing.T, p *botPlayer, f server.FinishedGame) {
	t.Helper()
	col := chess.White
	if p.color == "black" {
		col = chess.Black
	}
	var own, opp []umpire.Answer
	for _, a := range f.Answers {
		if a.Mover == col {
			own = append(own, a)
		} else if a.Legal {
			opp = append(opp, a)
		}
	}
	if len(own) != len(p.heard) {
		t.Fatalf("%s heard %d answers to its attempts, the umpire gave %d", p.c.name, len(p.heard), len(own))
	}
	for i, a := range own {
		if got := p.heard[i]; got.uci != a.Attempt.String() || !sameMove(got.r, wantMove(a)) {
			t.Fatalf("%s attempt %d: heard %s %+v, umpire %s", p.c.name, i, got.uci, got.r, a.String())
		}
	}
	// The opponent's moves, in order, as the final scoresheet tells them:
	// a capture and its square, checks, or a plain move.
	var seen []tEntry
	for _, turn := range p.final.Scoresheet.Turns {
		for _, e := range append(slices.Clone(turn.White), turn.Black...) {
			if e.Actor == "opponent" && e.Kind != "status" {
				seen = append(seen, e)
			}
		}
	}
	if len(seen) != len(opp) {
		t.Fatalf("%s's scoresheet shows %d opponent moves, the umpire %d", p.c.name, len(seen), len(opp))
	}
	for i, a := range opp {
		e := seen[i]
		capture := a.Capture.Kind != umpire.NoCapture
		if capture != (e.Kind == "capture") || capture && !strings.Contains(e.Message, " captured at "+strings.ToUpper(a.Capture.Square.String())) ||
			a.Ending == umpire.NotOver && (a.NumChecks() > 0) != strings.Contains(e.Message, "heck") {
			t.Fatalf("%s: opponent move %d (%s) shown as %q", p.c.name, i, a.String(), e.Message)
		}
	}
	if p.final.Result == nil || p.final.Turn != nil {
		t.Fatalf("%s: final state without result: %+v", p.c.name, p.final)
	}
}

// TestHTTPBotsPlayEachOther: two HTTP bots, one polling and one on the
// event stream, play complete games through the door; everything each
// heard matches the umpire's record.
func TestHTTPBotsPlayEachOther(t *testing.T) {
	if testing.Short() {
		t.Skip("a long end-to-end run: in the full suite, not in -short")
	}
	s, _, base := startHTTP(t, server.Config{}, Config{Minutes: 5, Inc: 1})
	for round := range 2 {
		a, b := newAPIClient(t, base), newAPIClient(t, base)
		a.register(fmt.Sprintf("alpha%d", round))
		b.register(fmt.Sprintf("beta%d", round))
		var created struct {
			GameID string `json:"game_id"`
		}
		a.call("POST", "/game/create", map[string]any{"rule_variant": "wild16", "play_as": "random",
			"time_control": "rapid", "opponent_type": "human"}, 201, &created)
		var open struct {
			Games []struct {
				GameCode  string `json:"game_code"`
				CreatedBy string `json:"created_by"`
			}
		}
		b.call("GET", "/game/open", nil, 200, &open)
		if len(open.Games) != 1 || open.Games[0].CreatedBy != a.name {
			t.Fatalf("open games: %+v", open)
		}
		var user struct {
			IsBot bool `json:"is_bot"`
		}
		b.call("GET", "/user/"+a.name, nil, 200, &user)
		if !user.IsBot {
			t.Fatal("the creator is not shown as a bot")
		}
		var joined struct {
			GameID string `json:"game_id"`
			State  string `json:"state"`
		}
		b.call("POST", "/game/join/"+strings.ToLower(open.Games[0].GameCode), nil, 200, &joined)
		if joined.GameID == "" || joined.State != "active" {
			t.Fatalf("join: %+v", joined)
		}
		pa := &botPlayer{c: a, rng: rand.New(rand.NewPCG(uint64(round), 1))}
		pb := &botPlayer{c: b, rng: rand.New(rand.NewPCG(uint64(round), 2)), sse: true, gameID: joined.GameID}
		var wg sync.WaitGroup
		for _, p := range []*botPlayer{pa, pb} {
			wg.Add(1)
			go func() { defer wg.Done(); p.play() }()
		}
		wg.Wait()
		for _, p := range []*botPlayer{pa, pb} {
			if p.err != nil {
				t.Fatal(p.err)
			}
		}
		f := finishedGame(t, s, a.name, b.name)
		checkHeard(t, pa, f)
		checkHeard(t, pb, f)
		t.Logf("round %d: %s (%s) after %d attempts: %+v", round, f.Result, f.Code, len(f.Answers), *pa.final.Result)
	}
}

// TestTelnetPlaysHTTPBot: a bot's lobby game is a seek ad a telnet guest
// plays (`sought`, `play N`), and they play to the end: the telnet side
// types moves, the bot follows docs/kriegspiel-org-api.md §10, and the bot heard what the
// umpire said.
func TestTelnetPlaysHTTPBot(t *testing.T) {
	s, telnet, base := startHTTP(t, server.Config{}, Config{Minutes: 5, Inc: 1})
	bot := newAPIClient(t, base)
	bot.register("gamma")
	bot.call("POST", "/game/create", map[string]any{"rule_variant": "wild16", "play_as": "black", "time_control": "rapid", "opponent_type": "human"}, 201, nil)

	tc := wiretest.DialRaw(t, telnet)
	tc.LoginGuest()
	tc.Send("sought\r\n")
	line := tc.Expect("gamma", wait)
	var index int
	lines := strings.Split(strings.TrimSpace(line), "\n")
	ad := strings.TrimPrefix(lines[len(lines)-1], "aics% ")
	if _, err := fmt.Sscan(ad, &index); err != nil {
		t.Fatalf("sought line %q: %v", ad, err)
	}
	tc.Send(fmt.Sprintf("play %d\r\n", index))
	tc.Expect("Creating unrated wild 16", wait)

	p := &botPlayer{c: bot, rng: rand.New(rand.NewPCG(7, 7))}
	done := make(chan struct{})
	go func() { defer close(done); p.play() }()

	telnetPlays(t, s, tc, chess.Black, rand.New(rand.NewPCG(7, 8)))
	<-done
	if p.err != nil {
		t.Fatal(p.err)
	}
	fs := s.Finished()
	if len(fs) != 1 || fs[0].Black != "gamma" || !strings.HasPrefix(fs[0].White, "Guest") {
		t.Fatalf("finished games: %+v", fs)
	}
	f := fs[0]
	checkHeard(t, p, f)
	t.Logf("%s vs %s: %s (%s), %d attempts", f.White, f.Black, f.Result, f.Code, len(f.Answers))
}

// telnetPlays plays the telnet side of the one game whose HTTP bot sits at
// botCol to its end: random attempts from the umpire's allowed list, as
// the bot reads allowed_moves.
func telnetPlays(t *testing.T, s *house, tc *wiretest.RawClient, botCol chess.Color, rng *rand.Rand) {
	t.Helper()
	for {
		i, _ := tc.ExpectAny(2*wait, "it is your move", "} ")
		if i == 1 {
			return
		}
		for {
			s.Lock()
			var moves []string
			for _, g := range s.GamesInProgress() {
				if g.Bots()[botCol] != nil {
					moves = allowedMoves(g)
				}
			}
			s.Unlock()
			if len(moves) == 0 {
				t.Fatal("no game or no allowed move for the telnet side")
			}
			tc.Send(moves[rng.IntN(len(moves))] + "\r\n")
			j, _ := tc.ExpectAny(wait, "Illegal move", "you played", "} ")
			if j == 1 {
				break
			}
			if j == 2 {
				return
			}
		}
	}
}

// TestTelnetMatchesHTTPBot: `match <bot>` from telnet starts a game with an
// HTTP bot at once, as a person picking a bot does on the site; the bot
// finds it in /game/mine/active, both play it out, and the bot heard what
// the umpire said. A bot that does not play wild16, is not running, or the
// challenger already playing get a line saying why, and no game.
func TestTelnetMatchesHTTPBot(t *testing.T) {
	s, telnet, base := startHTTP(t, server.Config{}, Config{})
	bot := newAPIClient(t, base)
	bot.register("hotel")
	other := newAPIClient(t, base)
	other.call("POST", "/auth/bots/register", map[string]any{"username": "india", "display_name": "India bot",
		"owner_email": "o@example.org", "supported_rule_variants": []string{"berkeley"}}, 201, nil)

	tc := wiretest.DialRaw(t, telnet)
	tc.LoginGuest()
	// Registered, but no request with its token yet: not running.
	tc.Send("match hotel 2 1 u black\r\n")
	tc.Expect("hotel is not connected", wait)
	tc.Send("match india 2 1 u\r\n")
	tc.Expect("india does not play wild 16", wait)
	tc.Send("match nobody 2 1 u\r\n")
	tc.Expect("nobody is not logged in", wait)
	s.Lock()
	started := len(s.GamesInProgress()) + len(s.GamesFinished())
	s.Unlock()
	if started != 0 {
		t.Fatal("a refused match started a game")
	}

	bot.call("GET", "/game/mine/active", nil, 200, nil) // the bot polls: it is running
	tc.Send("match hotel 2 1 r black\r\n")
	tc.Expect("Guests can play unrated games only", wait)
	tc.Send("match hotel 2 1 u black\r\n")
	tc.Expect("hotel accepts your challenge", wait)
	tc.Expect("Creating unrated wild 16", wait)
	tc.Send("match hotel 2 1 u black\r\n")
	tc.Expect("You are already playing", wait)

	p := &botPlayer{c: bot, rng: rand.New(rand.NewPCG(9, 9))}
	done := make(chan struct{})
	go func() { defer close(done); p.play() }()
	telnetPlays(t, s, tc, chess.White, rand.New(rand.NewPCG(9, 10)))
	<-done
	if p.err != nil {
		t.Fatal(p.err)
	}
	fs := s.Finished()
	if len(fs) != 1 || fs[0].White != "hotel" || !strings.HasPrefix(fs[0].Black, "Guest") {
		t.Fatalf("finished games: %+v", fs)
	}
	if p.color != "white" || p.final.Result == nil {
		t.Fatalf("the bot played %q, final state %+v", p.color, p.final.Result)
	}
	checkHeard(t, p, fs[0])
}

// wantErr checks an error answer: the status, and the code of the game
// routes' envelope ({"error":{"code",...}}) or, for code "", a FastAPI
// {"detail": ...} body.
func (c *apiClient) wantErr(method, path string, body any, status int, code string) {
	c.t.Helper()
	st, out := c.do(method, path, body)
	if st != status {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, st, status, out)
	}
	var env struct {
		Error *struct {
			Code    string          `json:"code"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(out, &env); err != nil {
		c.t.Fatalf("%s %s: body %q: %v", method, path, out, err)
	}
	switch {
	case code == "" && env.Detail == nil:
		c.t.Fatalf("%s %s: want a detail body, got %s", method, path, out)
	case code != "" && (env.Error == nil || env.Error.Code != code || env.Error.Message == "" || string(env.Error.Details) != "{}"):
		c.t.Fatalf("%s %s: want error code %s, got %s", method, path, code, out)
	}
}

func createWild16() map[string]any {
	return map[string]any{"rule_variant": "wild16", "play_as": "white", "time_control": "rapid", "opponent_type": "human"}
}

// TestHTTPErrors: the site's status codes and envelopes for what bots get
// wrong, and the /api prefix on loopback Hosts.
func TestHTTPErrors(t *testing.T) {
	s, _, base := startHTTP(t, server.Config{}, Config{JoinCooldown: time.Hour})
	a, b, c := newAPIClient(t, base), newAPIClient(t, base), newAPIClient(t, base)
	a.register("Alice_1")
	b.register("bob")
	c.register("carol")
	if a.name != "alice_1" {
		t.Fatalf("username %q not lower-cased", a.name)
	}

	// Authentication.
	anon := newAPIClient(t, base)
	anon.wantErr("GET", "/game/mine/active", nil, 401, "")
	for _, tok := range []string{"x", "ksbot_0123456789abcdef.short", a.token[:len(a.token)-1] + "A", "ksbot_0123456789abcdef." + strings.Repeat("A", 32)} {
		if tok == a.token {
			continue
		}
		anon.token = tok
		anon.wantErr("GET", "/game/mine/active", nil, 401, "")
	}
	a.call("GET", "/health", nil, 200, nil)

	// Registration.
	anon.token = ""
	anon.wantErr("POST", "/auth/bots/register", map[string]any{"username": "BOB", "display_name": "Bob two", "owner_email": "b@x"}, 409, "")
	anon.wantErr("POST", "/auth/bots/register", map[string]any{"username": "bad name", "display_name": "Bad", "owner_email": "b@x"}, 422, "")
	anon.wantErr("POST", "/auth/bots/register", map[string]any{"username": "dave", "display_name": "Dave", "owner_email": "nomail"}, 422, "")

	// Bodies.
	a.wantErr("POST", "/game/create", "{{", 422, "")
	a.wantErr("POST", "/game/create", `{"rule_variant": "wild16"`, 422, "")
	a.wantErr("POST", "/game/create", `{"rule_variant": 16}`, 422, "")
	a.wantErr("POST", "/game/create", `{"rule_variant": "wild16", "time_control": "blitz"}`, 422, "")
	a.wantErr("POST", "/game/create", `{"rule_variant": "wild16"} {}`, 422, "")
	a.wantErr("POST", "/game/create", `{"rule_variant": "berkeley"}`, 400, "RULE_VARIANT_UNSUPPORTED")
	a.wantErr("POST", "/game/create", `{"rule_variant": "wild16", "opponent_type": "bot"}`, 400, "BOT_CREATE_REQUIRES_HUMAN_OPPONENT")
	a.wantErr("POST", "/game/create", `{"rule_variant": "`+strings.Repeat("x", 20000)+`"}`, 413, "")

	// Lobby.
	var g1 struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	a.call("POST", "/game/create", createWild16(), 201, &g1)
	a.wantErr("POST", "/game/create", createWild16(), 409, "BOT_ALREADY_HAS_OPEN_GAME")
	a.wantErr("POST", "/game/join/"+g1.Code, nil, 409, "CANNOT_JOIN_OWN_GAME")
	b.wantErr("POST", "/game/join/ZZZZZZ", nil, 404, "GAME_NOT_FOUND")
	b.wantErr("POST", "/game/join/0OIL1x", nil, 404, "GAME_NOT_FOUND")
	b.wantErr("GET", "/game/"+g1.ID+"/state", nil, 403, "FORBIDDEN")
	b.wantErr("DELETE", "/game/"+g1.ID, nil, 403, "FORBIDDEN")
	a.wantErr("POST", "/game/"+g1.ID+"/move", map[string]string{"uci": "e2e4"}, 400, "GAME_NOT_ACTIVE")
	if st, out := a.do("DELETE", "/game/"+g1.Code, nil); st != 204 {
		t.Fatalf("delete: %d %s", st, out)
	}
	a.wantErr("GET", "/game/"+g1.ID+"/state", nil, 404, "GAME_NOT_FOUND")
	a.wantErr("GET", "/game/0123456789abcdef01234567/state", nil, 404, "GAME_NOT_FOUND")
	a.wantErr("GET", "/game/not-a-ref/state", nil, 404, "GAME_NOT_FOUND")

	// A game: a (White) against b, then c may not join another at once.
	a.call("POST", "/game/create", createWild16(), 201, &g1)
	var j struct {
		PlayAs string `json:"play_as"`
	}
	b.call("POST", "/game/join/"+g1.Code, nil, 200, &j)
	if j.PlayAs != "black" {
		t.Fatalf("joined as %q", j.PlayAs)
	}
	c.wantErr("POST", "/game/join/"+g1.Code, nil, 409, "GAME_FULL")
	b.wantErr("DELETE", "/game/"+g1.ID, nil, 409, "GAME_NOT_WAITING")
	var g2 struct {
		Code string `json:"game_code"`
	}
	c.call("POST", "/game/create", createWild16(), 201, &g2)
	b.wantErr("POST", "/game/join/"+g2.Code, nil, 409, "BOT_JOIN_COOLDOWN")
	b.wantErr("POST", "/game/"+g1.ID+"/move", map[string]string{"uci": "e7e5"}, 400, "NOT_YOUR_TURN")
	a.wantErr("POST", "/game/"+g1.ID+"/ask-any", nil, 400, "ACTION_NOT_AVAILABLE")
	a.wantErr("POST", "/game/"+g1.ID+"/move", map[string]string{"uci": "e2"}, 422, "")
	a.wantErr("POST", "/game/"+g1.ID+"/move", map[string]any{"uci": 42}, 422, "")
	a.wantErr("POST", "/game/"+g1.ID+"/move", `{"uci":"e2e4"`, 422, "")
	c.wantErr("POST", "/game/"+g1.ID+"/move", map[string]string{"uci": "e2e4"}, 403, "FORBIDDEN")

	// Refused attempts are 200s; the clock stays idle until White's first move.
	for uci, want := range map[string]string{"zz99": "INVALID_UCI", "e2e5": "ILLEGAL_MOVE"} {
		var r tMove
		a.call("POST", "/game/"+g1.ID+"/move", map[string]string{"uci": uci}, 200, &r)
		if r.MoveDone || r.Announcement != want {
			t.Fatalf("%s: %+v", uci, r)
		}
	}
	var st tState
	a.call("GET", "/game/"+g1.ID+"/state", nil, 200, &st)
	if st.Clock.Active != nil || st.Clock.White != 1500 || !slices.Contains(st.AllowedMoves, "e2e4") || slices.Contains(st.AllowedMoves, "e2e5") {
		t.Fatalf("state before the first move: clock %+v, allowed %v", st.Clock, st.AllowedMoves)
	}
	var r tMove
	a.call("POST", "/game/"+g1.Code+"/move", map[string]string{"uci": "e2e4"}, 200, &r)
	if !r.MoveDone || r.Announcement != "REGULAR_MOVE" || r.NextTries == nil || *r.NextTries != 0 || r.Turn == nil || *r.Turn != "black" {
		t.Fatalf("e2e4: %+v", r)
	}
	b.call("GET", "/game/"+g1.ID+"/state", nil, 200, &st)
	if st.Clock.Active == nil || *st.Clock.Active != "black" || st.Clock.White != 1510 || len(st.RefereeLog) != 2 ||
		st.RefereeLog[0].Announcement != "Opponent move — Move complete" || st.RefereeLog[1].Announcement != "No pawn captures" {
		t.Fatalf("black's state after e2e4: clock %+v, log %+v", st.Clock, st.RefereeLog)
	}
	// The /api prefix works on loopback Hosts only.
	b.call("GET", "/api/game/"+g1.ID+"/state", nil, 200, nil)
	req, _ := http.NewRequest("GET", base+"/api/game/mine/active", nil)
	req.Host = "api.kriegspiel.org"
	req.Header.Set("Authorization", "Bearer "+b.token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 404 {
		t.Fatalf("/api on api.kriegspiel.org: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	b.wantErr("PUT", "/game/"+g1.ID+"/state", nil, 405, "")
	b.wantErr("GET", "/nowhere", nil, 404, "")

	var res struct {
		Result struct {
			Winner string `json:"winner"`
			Reason string `json:"reason"`
		} `json:"result"`
	}
	b.call("POST", "/game/"+g1.ID+"/resign", nil, 200, &res)
	if res.Result.Winner != "white" || res.Result.Reason != "resignation" {
		t.Fatalf("resign: %+v", res)
	}
	b.wantErr("POST", "/game/"+g1.ID+"/resign", nil, 400, "GAME_NOT_ACTIVE")
	a.call("GET", "/game/"+g1.ID+"/state", nil, 200, &st)
	if st.State != "completed" || st.Turn != nil || !strings.HasPrefix(st.YourFEN, "rnbqkbnr/pppppppp/8/8/4P3/") {
		t.Fatalf("completed state: %+v", st)
	}
	var mine struct{ Games []json.RawMessage }
	a.call("GET", "/game/mine/active", nil, 200, &mine)
	if len(mine.Games) != 0 {
		t.Fatalf("a finished game is still active: %s", mine.Games)
	}
	a.call("GET", "/game/"+g1.ID+"/moves", nil, 200, nil)
	_ = s
}

// TestHTTPBotJoinsTelnetSeek: a telnet player's seek is a lobby game an
// HTTP bot may join (the site would refuse a bot a person's game; this
// door lets it, so that telnet players can meet HTTP bots), though the
// guest shows as one; the telnet side hears the game start and its end.
func TestHTTPBotJoinsTelnetSeek(t *testing.T) {
	_, telnet, base := startHTTP(t, server.Config{}, Config{})
	tc := wiretest.DialRaw(t, telnet)
	tc.LoginGuest()
	tc.Send("seek 3 2 white\r\n")
	tc.Expect("Your seek has been posted", wait)
	bot := newAPIClient(t, base)
	bot.register("delta")
	var open struct {
		Games []struct {
			Code      string `json:"game_code"`
			CreatedBy string `json:"created_by"`
			Color     string `json:"available_color"`
		}
	}
	bot.call("GET", "/game/open", nil, 200, &open)
	if len(open.Games) != 1 || !strings.HasPrefix(open.Games[0].CreatedBy, "Guest") || open.Games[0].Color != "black" {
		t.Fatalf("open: %+v", open)
	}
	var user struct {
		Role string `json:"role"`
	}
	bot.call("GET", "/user/"+open.Games[0].CreatedBy, nil, 200, &user)
	var j struct {
		ID     string `json:"game_id"`
		PlayAs string `json:"play_as"`
	}
	bot.call("POST", "/game/join/"+open.Games[0].Code, nil, 200, &j)
	if j.PlayAs != "black" || user.Role != "guest" {
		t.Fatalf("join: %+v, role %q", j, user.Role)
	}
	tc.Expect("Creating: ", wait)
	tc.Send("e2e4\r\n")
	tc.Expect("you played e4", wait)
	var st tState
	bot.call("GET", "/game/"+j.ID+"/state", nil, 200, &st)
	if st.Turn == nil || *st.Turn != "black" || st.Clock.Active == nil || len(st.AllowedMoves) == 0 {
		t.Fatalf("bot's state: %+v", st)
	}
	bot.call("POST", "/game/"+j.ID+"/resign", nil, 200, nil)
	tc.Expect("delta resigns} 1-0", wait)
}

// TestHTTPRateLimit: past its burst an address, or a token, gets 429
// with Retry-After; another token is not held back by the first.
func TestHTTPRateLimit(t *testing.T) {
	get429 := func(c *apiClient, path string) {
		t.Helper()
		req, _ := http.NewRequest("GET", c.base+path, nil)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: status %d, Retry-After %q", path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	_, _, base := startHTTP(t, server.Config{}, Config{Rate: 0.5, Burst: 3, TokenRate: 1e6, TokenBurst: 1e6, RegisterRate: 1e6, RegisterBurst: 1e6})
	c := newAPIClient(t, base)
	for range 3 {
		c.call("GET", "/health", nil, 200, nil)
	}
	get429(c, "/health")

	_, _, base = startHTTP(t, server.Config{}, Config{Rate: 1e6, Burst: 1e6, TokenRate: 0.5, TokenBurst: 2, RegisterRate: 1e6, RegisterBurst: 1e6})
	a, b := newAPIClient(t, base), newAPIClient(t, base)
	a.register("papa")
	b.register("quebec")
	for range 2 {
		a.call("GET", "/game/mine/active", nil, 200, nil)
	}
	get429(a, "/game/mine/active")
	b.call("GET", "/game/mine/active", nil, 200, nil)
}

// sseReader reads an event stream frame by frame.
type sseReader struct {
	t    *testing.T
	resp *http.Response
	r    *bufio.Reader
}

func openSSE(t *testing.T, c *apiClient, id string) (*sseReader, int) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.base+"/game/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		return nil, resp.StatusCode
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sseReader{t: t, resp: resp, r: bufio.NewReader(resp.Body)}, 200
}

// frame reads up to the next blank line and returns the frame's text
// without it; "" at the end of the stream.
func (r *sseReader) frame() string {
	r.t.Helper()
	var b strings.Builder
	for {
		line, err := r.r.ReadString('\n')
		if err != nil {
			if b.Len() > 0 || line != "" {
				r.t.Fatalf("stream ended inside a frame: %q", b.String()+line)
			}
			return ""
		}
		if line == "\n" {
			return b.String()
		}
		b.WriteString(line)
	}
}

// event reads one frame and checks it is an event of typ with the
// site's data fields.
func (r *sseReader) event(typ, id string) {
	r.t.Helper()
	f := r.frame()
	head, data, ok := strings.Cut(f, "\n")
	if !ok || head != "event: "+typ || !strings.HasPrefix(data, "data: {") || strings.Count(data, "\n") != 1 {
		r.t.Fatalf("want a %s frame, got %q", typ, f)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSuffix(data, "\n"), "data: ")), &d); err != nil {
		r.t.Fatalf("frame %q: %v", f, err)
	}
	if d["type"] != typ || typ != "shutdown" && d["game_id"] != id {
		r.t.Fatalf("frame %q: wrong type or game", f)
	}
	if typ != "shutdown" {
		for _, k := range []string{"game_code", "state", "turn", "move_number", "updated_at"} {
			if _, ok := d[k]; !ok {
				r.t.Fatalf("frame %q: no %s", f, k)
			}
		}
	}
}

// TestHTTPEventStream: framing, headers, keep-alive, game_changed on a
// join and a move, the per-bot stream cap, the end of a stream when its
// client leaves, and shutdown when the server closes.
func TestHTTPEventStream(t *testing.T) {
	s, _, base := startHTTP(t, server.Config{}, Config{KeepAlive: 50 * time.Millisecond, MaxStreamsPerBot: 2})
	a, b := newAPIClient(t, base), newAPIClient(t, base)
	a.register("echo")
	b.register("foxtrot")
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	a.call("POST", "/game/create", createWild16(), 201, &g)
	st, _ := openSSE(t, a, g.ID)
	if h := st.resp.Header; h.Get("Content-Type") != "text/event-stream" || h.Get("Cache-Control") != "no-cache" || h.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers %v", h)
	}
	st.event("connected", g.ID)
	if f := st.frame(); f != ": keepalive\n" {
		t.Fatalf("want a keep-alive, got %q", f)
	}
	b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
	for f := st.frame(); f != ""; f = st.frame() {
		if f != ": keepalive\n" {
			if !strings.HasPrefix(f, "event: game_changed\n") || !strings.Contains(f, `"state":"active"`) {
				t.Fatalf("after the join: %q", f)
			}
			break
		}
	}
	if _, code := openSSE(t, b, g.ID); code != 200 {
		t.Fatalf("second bot's stream: %d", code)
	}
	st2, _ := openSSE(t, a, g.ID)
	st2.event("connected", g.ID)
	if _, code := openSSE(t, a, g.ID); code != 429 {
		t.Fatalf("third stream of one bot: %d, want 429", code)
	}
	// A client that leaves frees its place: the handler ends.
	st2.resp.Body.Close()
	deadline := time.Now().Add(wait)
	for {
		s.Lock()
		n := a.streamsOf(s)
		s.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d streams still open", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.call("POST", "/game/"+g.ID+"/move", map[string]string{"uci": "e2e5"}, 200, nil) // refused: still an event
	for f := st.frame(); ; f = st.frame() {
		if f == "" {
			t.Fatal("stream ended")
		}
		if f != ": keepalive\n" {
			if !strings.HasPrefix(f, "event: game_changed\n") || !strings.Contains(f, `"move_number":1`) {
				t.Fatalf("after a refused attempt: %q", f)
			}
			break
		}
	}
	s.Close()
	for f := st.frame(); ; f = st.frame() {
		if f == "" {
			t.Fatal("stream ended without shutdown")
		}
		if f == "event: shutdown\ndata: {\"type\":\"shutdown\"}\n" {
			break
		}
		if f != ": keepalive\n" {
			t.Fatalf("before shutdown: %q", f)
		}
	}
	if f := st.frame(); f != "" {
		t.Fatalf("after shutdown: %q", f)
	}
}

func (c *apiClient) streamsOf(s *house) int { return s.door.bots[c.name].streams }

// TestStreamQueueDropsOldest: a stream's queue holds the newest QueueLen
// frames, and nothing after its last.
func TestStreamQueueDropsOldest(t *testing.T) {
	st := newStream(nil, "g", 16)
	for i := range 20 {
		st.push([]byte{byte(i)}, false)
	}
	q, last := st.take()
	if len(q) != 16 || q[0][0] != 4 || q[15][0] != 19 || st.dropped != 4 || last {
		t.Fatalf("queue %v, dropped %d, last %v", q, st.dropped, last)
	}
	st.push([]byte("end"), true)
	st.push([]byte("late"), false)
	q, last = st.take()
	if len(q) != 1 || string(q[0]) != "end" || !last {
		t.Fatalf("after the last frame: %q %v", q, last)
	}
}

// TestHTTPClock: the clock is idle until White's first move, gains the
// increment only on completed moves, burns during refused attempts, and a
// fallen flag is found lazily by /state.
func TestHTTPClock(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, _, base := startHTTP(t, server.Config{Now: clock}, Config{Minutes: 1, Inc: 10})
	a, b := newAPIClient(t, base), newAPIClient(t, base)
	a.register("golf")
	b.register("hotel")
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	a.call("POST", "/game/create", createWild16(), 201, &g)
	b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
	advance(5 * time.Minute)
	var st tState
	a.call("GET", "/game/"+g.ID+"/state", nil, 200, &st)
	if st.Clock.White != 60 || st.Clock.Black != 60 || st.Clock.Active != nil {
		t.Fatalf("idle clock: %+v", st.Clock)
	}
	a.call("POST", "/game/"+g.ID+"/move", map[string]string{"uci": "e2e4"}, 200, nil)
	advance(20 * time.Second)
	var r struct {
		MoveDone bool `json:"move_done"`
		Clock    struct {
			White float64 `json:"white_remaining"`
			Black float64 `json:"black_remaining"`
		} `json:"clock"`
	}
	b.call("POST", "/game/"+g.ID+"/move", map[string]string{"uci": "e7e4"}, 200, &r)
	if r.MoveDone || r.Clock.White != 70 || r.Clock.Black != 40 {
		t.Fatalf("after a refused attempt: %+v", r)
	}
	advance(41 * time.Second)
	a.call("GET", "/game/"+g.ID+"/state", nil, 200, &st)
	if st.State != "completed" || st.Result == nil || st.Result.Reason != "timeout" || st.Result.Winner == nil || *st.Result.Winner != "white" || st.Clock.Black != 0 {
		t.Fatalf("after the flag: %+v %+v", st.Result, st.Clock)
	}
	b.wantErr("POST", "/game/"+g.ID+"/move", map[string]string{"uci": "e7e5"}, 400, "GAME_NOT_ACTIVE")
}

// TestHTTPExpiry: a waiting game nobody joins leaves the lobby after
// WaitingTTL; a started game in which White never moves is aborted
// after IdleGame.
func TestHTTPExpiry(t *testing.T) {
	_, _, base := startHTTP(t, server.Config{}, Config{WaitingTTL: 50 * time.Millisecond, IdleGame: 50 * time.Millisecond})
	a, b := newAPIClient(t, base), newAPIClient(t, base)
	a.register("india")
	b.register("juliet")
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	a.call("POST", "/game/create", createWild16(), 201, &g)
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		if st, _ := a.do("GET", "/game/"+g.ID+"/state", nil); st == 404 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the waiting game did not expire")
		}
	}
	a.call("POST", "/game/create", createWild16(), 201, &g)
	b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		var st tState
		a.call("GET", "/game/"+g.ID+"/state", nil, 200, &st)
		if st.State == "completed" {
			if st.Result == nil || st.Result.Reason != "aborted" || st.Result.Winner != nil {
				t.Fatalf("idle game: %+v", st.Result)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle game was not aborted")
		}
	}
}

// TestHTTPTokenFile: bots survive a restart through the token file,
// which has mode 0600 and holds digests, not tokens; no token is logged.
func TestHTTPTokenFile(t *testing.T) {
	file := t.TempDir() + "/bots.jsonl"
	var logMu sync.Mutex
	var logs strings.Builder
	logf := func(format string, a ...any) { logMu.Lock(); fmt.Fprintf(&logs, format+"\n", a...); logMu.Unlock() }
	s1, _, base := startHTTP(t, server.Config{Log: wiretest.LogTo(func(m string) { logf("%s", m) })}, Config{TokenFile: file})
	c := newAPIClient(t, base)
	c.register("kilo")
	c.call("GET", "/game/mine/active", nil, 200, nil)
	s1.Close()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	_, secret, _ := strings.Cut(c.token, ".")
	if fi.Mode().Perm() != 0o600 || strings.Contains(string(data), secret) || !strings.Contains(string(data), tokenDigest(c.token)) {
		t.Fatalf("token file mode %v: %s", fi.Mode(), data)
	}
	logMu.Lock()
	if strings.Contains(logs.String(), secret) {
		t.Fatalf("a token was logged: %s", logs.String())
	}
	logMu.Unlock()
	_, _, base2 := startHTTP(t, server.Config{}, Config{TokenFile: file})
	c.base = base2
	c.call("GET", "/game/mine/active", nil, 200, nil)
	flip := byte('A')
	if c.token[len(c.token)-1] == 'A' {
		flip = 'B'
	}
	c.token = c.token[:len(c.token)-1] + string(flip)
	c.wantErr("GET", "/game/mine/active", nil, 401, "")
	other := newAPIClient(t, base2)
	other.wantErr("POST", "/auth/bots/register", map[string]any{"username": "kilo", "display_name": "Kilo", "owner_email": "k@x"}, 409, "")
	// Nor the tournament director's handle.
	other.wantErr("POST", "/auth/bots/register", map[string]any{"username": "td", "display_name": "Not the TD", "owner_email": "k@x"}, 409, "")
}

// TestHTTPPythonBots (opt-in: KRIEGBOT_PYTHON=1) runs two bots written in
// Python with the standard library only (testdata/pybot.py, shaped like
// the site's public bots; one uses the /api prefix) against each other.
// The site's real bots are run by bot.TestSiteBots (KRIEGBOT_SITE_BOTS),
// which needs the daemons of package bot.
func TestHTTPPythonBots(t *testing.T) {
	if os.Getenv("KRIEGBOT_PYTHON") != "1" {
		t.Skip("set KRIEGBOT_PYTHON=1 to run the Python bots")
	}
	s, _, base := startHTTP(t, server.Config{}, Config{Minutes: 5, Inc: 1})
	type out struct {
		stdout, stderr bytes.Buffer
		err            error
	}
	var wg sync.WaitGroup
	runs := map[string]*out{"pylima": {}, "pymike": {}}
	for name, o := range runs {
		mode, prefix := "create", ""
		if name == "pymike" {
			mode, prefix = "join", "/api"
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "python3", "testdata/pybot.py", name, mode)
		cmd.Env = append(os.Environ(), "KS_BASE="+base, "KS_PREFIX="+prefix, "KS_POLL=0.01")
		cmd.Stdout, cmd.Stderr = &o.stdout, &o.stderr
		wg.Add(1)
		go func() { defer wg.Done(); o.err = cmd.Run() }()
	}
	wg.Wait()
	for name, o := range runs {
		if o.err != nil {
			t.Fatalf("%s: %v\n%s", name, o.err, o.stderr.String())
		}
		t.Logf("%s: %s", name, strings.TrimSpace(o.stdout.String()))
	}
	f := finishedGame(t, s, "pylima", "pymike")
	t.Logf("%s vs %s: %s (%s), %d attempts", f.White, f.Black, f.Result, f.Code, len(f.Answers))
}

// TestHTTPConnectionsPerHost: the HTTP door closes a connection over the
// per-address cap at once, and serves the others.
func TestHTTPConnectionsPerHost(t *testing.T) {
	_, _, base := startHTTP(t, server.Config{MaxConns: 10, MaxConnsPerHost: 2}, Config{})
	addr := strings.TrimPrefix(base, "http://")
	var conns []net.Conn
	for range 3 {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		conns = append(conns, nc)
	}
	conns[2].SetReadDeadline(time.Now().Add(wait))
	if n, err := conns[2].Read(make([]byte, 1)); err == nil {
		t.Fatalf("the third connection was served (%d bytes)", n)
	}
	for _, nc := range conns[:2] {
		nc.SetDeadline(time.Now().Add(wait))
		io.WriteString(nc, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
		b, _ := io.ReadAll(nc)
		if !strings.HasPrefix(string(b), "HTTP/1.1 200") {
			t.Fatalf("a connection under the cap: %q", b)
		}
	}
}

// TestHTTPNoGoroutineLeft: after games, streams (one whose client left,
// one open at the end) and Close, the server leaves no goroutine behind.
func TestHTTPNoGoroutineLeft(t *testing.T) {
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	base0 := runtime.NumGoroutine()
	func() {
		s, _, base := startHTTP(t, server.Config{}, Config{})
		a, b := newAPIClient(t, base), newAPIClient(t, base)
		a.register("lima")
		b.register("mike")
		var g struct {
			ID   string `json:"game_id"`
			Code string `json:"game_code"`
		}
		a.call("POST", "/game/create", createWild16(), 201, &g)
		st1, _ := openSSE(t, a, g.ID)
		st1.event("connected", g.ID)
		b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
		st2, _ := openSSE(t, b, g.ID)
		st2.event("connected", g.ID)
		st2.resp.Body.Close()
		a.call("POST", "/game/"+g.ID+"/move", map[string]string{"uci": "e2e4"}, 200, nil)
		s.Close()
		for f := st1.frame(); f != ""; f = st1.frame() {
		}
		st1.resp.Body.Close()
	}()
	deadline := time.Now().Add(wait)
	for {
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		n := runtime.NumGoroutine()
		if n <= base0 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", n, base0, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPCheckmate: fool's mate through the door: the mating move's
// answer, the result, the full FEN and the scoresheet's last words.
func TestHTTPCheckmate(t *testing.T) {
	_, _, base := startHTTP(t, server.Config{}, Config{})
	w, b := newAPIClient(t, base), newAPIClient(t, base)
	w.register("november")
	b.register("oscar")
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	w.call("POST", "/game/create", createWild16(), 201, &g)
	b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
	var r tMove
	for i, uci := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		c := w
		if i%2 == 1 {
			c = b
		}
		c.call("POST", "/game/"+g.ID+"/move", map[string]string{"uci": uci}, 200, &r)
	}
	if !r.MoveDone || !r.GameOver || r.Special == nil || *r.Special != "CHECKMATE_BLACK_WINS" || r.NextTries != nil {
		t.Fatalf("the mating move: %+v", r)
	}
	for _, c := range []*apiClient{w, b} {
		var st tState
		c.call("GET", "/game/"+g.ID+"/state", nil, 200, &st)
		last := st.RefereeLog[len(st.RefereeLog)-1].Announcement
		if st.State != "completed" || st.Result == nil || st.Result.Reason != "checkmate" || st.Result.Winner == nil || *st.Result.Winner != "black" ||
			st.YourFEN != "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" || !strings.HasSuffix(last, "Move complete · Checkmate — Black wins") {
			t.Fatalf("%s after the mate: %+v %q %q", c.name, st.Result, st.YourFEN, last)
		}
	}
}

// TestHTTPCheckReplyBytes: the move reply of a single check names it in
// special_announcement only, with "checks" empty, as ks-backend answers
// (engine_adapter._answer_check_names reads ks-game's check_1/check_2,
// which only a double check sets); bot-gpt-nano and others read both.
func TestHTTPCheckReplyBytes(t *testing.T) {
	_, _, base := startHTTP(t, server.Config{}, Config{})
	w, b := newAPIClient(t, base), newAPIClient(t, base)
	w.register("papa")
	b.register("quebec")
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	w.call("POST", "/game/create", map[string]any{"rule_variant": "wild16", "play_as": "white", "time_control": "rapid", "opponent_type": "human"}, 201, &g)
	b.call("POST", "/game/join/"+g.Code, nil, 200, nil)
	var last []byte
	for i, uci := range []string{"e2e4", "f7f6", "d1h5"} {
		c := w
		if i%2 == 1 {
			c = b
		}
		st, out := c.do("POST", "/game/"+g.ID+"/move", map[string]string{"uci": uci})
		if st != 200 {
			t.Fatalf("%s: %d %s", uci, st, out)
		}
		last = out
	}
	for _, want := range []string{`"move_done":true`, `"announcement":"REGULAR_MOVE"`, `"special_announcement":"CHECK_SHORT_DIAGONAL"`, `"checks":[]`} {
		if !bytes.Contains(last, []byte(want)) {
			t.Errorf("Qh5+ answered %s; want %s in it", last, want)
		}
	}
}

// TestHTTPBotExpiry: a bot whose token was never used goes after
// BotUnused, one silent for BotIdle goes too (its token then fails and its
// name is free), never a bot with a waiting game or a game in progress;
// the token file follows, and a restart sweeps what expired while down.
func TestHTTPBotExpiry(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	file := t.TempDir() + "/bots.jsonl"
	var logMu sync.Mutex
	var logs strings.Builder
	logf := func(format string, a ...any) { logMu.Lock(); fmt.Fprintf(&logs, format+"\n", a...); logMu.Unlock() }
	s, _, base := startHTTP(t, server.Config{Now: clock, Log: wiretest.LogTo(func(m string) { logf("%s", m) })}, Config{TokenFile: file})
	names := []string{"alfa", "bravo", "charlie", "delta", "echo", "foxtrot"}
	c := map[string]*apiClient{}
	for _, n := range names {
		c[n] = newAPIClient(t, base)
		c[n].register(n)
	}
	for _, n := range []string{"alfa", "charlie", "delta", "echo", "foxtrot"} {
		c[n].call("GET", "/game/mine/active", nil, 200, nil) // bravo never uses its token
	}
	var g struct {
		ID   string `json:"game_id"`
		Code string `json:"game_code"`
	}
	c["charlie"].call("POST", "/game/create", createWild16(), 201, nil) // waiting
	c["delta"].call("POST", "/game/create", createWild16(), 201, &g)
	c["echo"].call("POST", "/game/join/"+g.Code, nil, 200, nil) // delta and echo play

	advance(25 * time.Hour)
	c["foxtrot"].call("GET", "/health", nil, 200, nil) // any request sweeps
	c["bravo"].wantErr("GET", "/game/mine/active", nil, 401, "")
	c["alfa"].call("GET", "/game/mine/active", nil, 200, nil)
	if b, _ := os.ReadFile(file); strings.Contains(string(b), `"bravo"`) || !strings.Contains(string(b), `"alfa"`) {
		t.Fatalf("token file after bravo expired:\n%s", b)
	}

	advance(30*24*time.Hour - time.Minute) // alfa was seen a day later than the others
	c["foxtrot"].call("GET", "/health", nil, 200, nil)
	for _, n := range []string{"charlie", "delta", "echo", "foxtrot"} {
		s.Lock()
		gone := s.door.bots[n] == nil
		s.Unlock()
		want := n == "foxtrot" // idle, but charlie waits and delta and echo play
		if gone != want {
			t.Errorf("%s removed: %v, want %v", n, gone, want)
		}
	}
	c["alfa"].call("GET", "/game/mine/active", nil, 200, nil) // seen a day later: not yet
	newAPIClient(t, base).register("bravo")                   // the expired name is free again
	logMu.Lock()
	for _, want := range []string{"bot bravo removed: its token was never used in 24h0m0s", "bot foxtrot removed: no request for 720h0m0s"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	logMu.Unlock()

	s.Close()
	advance(31 * 24 * time.Hour)
	_, _, base2 := startHTTP(t, server.Config{Now: clock}, Config{TokenFile: file})
	for _, n := range []string{"alfa", "charlie"} {
		c[n].base = base2
		c[n].wantErr("GET", "/game/mine/active", nil, 401, "")
	}
}

// TestHTTPVariantRefusedLogged: the site's bots create berkeley_any lobby
// games unless told otherwise (their default body, or no rule_variant at
// all); the door refuses them and says why in its log, once per bot and
// variant.
func TestHTTPVariantRefusedLogged(t *testing.T) {
	var mu sync.Mutex
	var logs strings.Builder
	logf := func(format string, a ...any) { mu.Lock(); fmt.Fprintf(&logs, format+"\n", a...); mu.Unlock() }
	_, _, base := startHTTP(t, server.Config{Log: wiretest.LogTo(func(m string) { logf("%s", m) })}, Config{})
	c := newAPIClient(t, base)
	c.register("kilo")
	body := map[string]any{"rule_variant": "berkeley_any", "play_as": "random", "time_control": "rapid", "opponent_type": "human"}
	c.wantErr("POST", "/game/create", body, 400, "RULE_VARIANT_UNSUPPORTED")
	c.wantErr("POST", "/game/create", body, 400, "RULE_VARIANT_UNSUPPORTED")
	c.wantErr("POST", "/game/create", `{}`, 400, "RULE_VARIANT_UNSUPPORTED")
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(logs.String(), `bot kilo asks for a "berkeley_any" lobby game`); n != 1 {
		t.Fatalf("%d log lines about the variant, want 1:\n%s", n, logs.String())
	}
}

// TestHTTPBotExpiryOldFile: a token file written before last_seen was kept
// does not make every bot look unused (which would remove all registered
// more than a day ago at the first start): they count as seen at start.
func TestHTTPBotExpiryOldFile(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	id, token := kshttp.NewToken()
	file := t.TempDir() + "/bots.jsonl"
	line := fmt.Sprintf(`{"bot_id":"%s","username":"oldie","display_name":"Old bot","owner_email":"o@x","description":"","listed":true,`+
		`"supported_rule_variants":["wild16"],"token_id":"%s","token_sha256":"%s","created_at":"2026-01-01T00:00:00Z"}`+"\n",
		kshttp.RandomHex(24), id, tokenDigest(token))
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, base := startHTTP(t, server.Config{Now: clock}, Config{TokenFile: file})
	c := newAPIClient(t, base)
	c.token = token
	advance(29 * 24 * time.Hour)
	c.call("GET", "/health", nil, 200, nil)
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"oldie"`) || !strings.Contains(string(b), `"last_seen":"2026-03-01T12:00:00Z"`) {
		t.Fatalf("the old bot after 29 days: %s", b)
	}
	advance(2 * 24 * time.Hour)
	c.wantErr("GET", "/game/mine/active", nil, 401, "")
}
