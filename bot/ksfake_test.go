package bot

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// fakeSite stands in for kriegspiel.org in tests: it follows docs/kriegspiel-org-api.md (field
// names, status codes, SSE framing) and referees with engine/umpire, so
// that every answer is real. Its opponent plays random legal moves at once
// and resigns after resignAfter plies. It counts requests and records any
// breach of the bot's duties (an attempt outside allowed_moves, a refused
// attempt sent again, a transcript asked for on a live game).
type fakeSite struct {
	t     *testing.T
	token string
	me    string
	opp   string

	mu          sync.Mutex
	rng         *rand.Rand
	games       map[string]*fakeGame
	seq         int
	requests    int
	byRoute     map[string]int
	log         []string // request lines, for failure messages
	violations  []string
	resignAfter int
	// fault, when set, may answer a request itself (after counting it).
	fault func(w http.ResponseWriter, r *http.Request) bool
	// extraWords are added to the opponent's scoresheet entries.
	extraWords []string
	// clockNoise makes the clock fields disagree with each other.
	clockNoise bool
	// sse: "" normal; "drop" closes each stream after its first event;
	// "stall" sends nothing and never closes.
	sse       string
	keepalive time.Duration
	// vanishAfter deletes the game after that many plies (0: never).
	vanishAfter int
	// open lists other accounts' waiting games: code -> creator; bots
	// names the creators that are bots.
	open  map[string]string
	bots  map[string]bool
	joins []time.Time
	// noJoin leaves our lobby games waiting.
	noJoin bool
}

type fakeEntry struct {
	color   chess.Color
	turn    int
	kind    string // move, capture, illegal_move, status
	uci     string
	texts   []string
	private bool // an illegal attempt: only its mover sees it
}

type fakeGame struct {
	id, code string
	u        *umpire.Umpire
	state    string // waiting, active, completed
	bot      chess.Color
	entries  []fakeEntry
	refused  map[chess.Move]bool
	result   *ksapi.Result
	subs     []chan []byte
	moves    []ksapi.TranscriptMove
	started  time.Time
}

func newFakeSite(t *testing.T, token string) *fakeSite {
	return &fakeSite{t: t, token: token, me: "kriegbot", opp: "sparbot", rng: rand.New(rand.NewPCG(7, 8)),
		games: map[string]*fakeGame{}, byRoute: map[string]int{}, resignAfter: 30, keepalive: 15 * time.Second}
}

// serve starts the site on a loopback listener; restart stops and starts
// it again on the same address, keeping its games.
type fakeServer struct {
	site *fakeSite
	addr string
	mu   sync.Mutex
	srv  *http.Server
}

func (f *fakeSite) serve(t *testing.T) *fakeServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeServer{site: f, addr: ln.Addr().String()}
	s.start(ln)
	t.Cleanup(s.stop)
	return s
}

func (s *fakeServer) url() string { return "http://" + s.addr }

func (s *fakeServer) start(ln net.Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.srv = &http.Server{Handler: s.site, ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln)
}

func (s *fakeServer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
}

// restart takes the site down for down, then brings it back.
func (s *fakeServer) restart(t *testing.T, down time.Duration) {
	s.stop()
	s.site.mu.Lock()
	for _, g := range s.site.games {
		for _, c := range g.subs {
			close(c)
		}
		g.subs = nil
	}
	s.site.mu.Unlock()
	time.Sleep(down)
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Errorf("restarting the site on %s: %v", s.addr, err)
		return
	}
	s.start(ln)
}

func (f *fakeSite) violate(format string, a ...any) {
	f.violations = append(f.violations, fmt.Sprintf(format, a...))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, ksapi.NewGameError(code, strings.ToLower(code)))
}

func (f *fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests++
	route := r.Method + " " + routeOf(r.URL.Path)
	f.byRoute[route]++
	f.log = append(f.log, route)
	fault := f.fault
	f.mu.Unlock()
	if fault != nil && fault(w, r) {
		return
	}
	f.route(w, r)
}

// route answers a request as the site would.
func (f *fakeSite) route(w http.ResponseWriter, r *http.Request) {
	public := strings.HasPrefix(r.URL.Path, "/user/") || r.URL.Path == "/auth/bots/register"
	if !public && r.Header.Get("Authorization") != "Bearer "+f.token {
		writeJSON(w, http.StatusUnauthorized, ksapi.Detail{Detail: "Authentication required"})
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	f.mu.Lock()
	locked := true
	defer func() {
		if locked {
			f.mu.Unlock()
		}
	}()
	switch {
	case r.Method == "POST" && r.URL.Path == "/bots/profile":
		// This fake plays wild 16 only: the daemon's profile must say so
		// (runKSWith configures server.supported_rule_variants).
		var body ksapi.Profile
		json.NewDecoder(r.Body).Decode(&body)
		if fmt.Sprint(body.RuleVariants) != "[wild16]" {
			f.violate("profile with %v", body.RuleVariants)
		}
		writeJSON(w, 200, ksapi.ProfileSaved{OK: true, RuleVariants: body.RuleVariants})
	case r.Method == "GET" && r.URL.Path == "/game/mine/active":
		var list ksapi.Games
		for _, g := range f.sortedGames() {
			if g.state != "completed" {
				list.Games = append(list.Games, f.metadata(g))
			}
		}
		writeJSON(w, 200, list)
	case r.Method == "POST" && r.URL.Path == "/game/create":
		var body ksapi.CreateGame
		json.NewDecoder(r.Body).Decode(&body)
		if body.RuleVariant == nil || *body.RuleVariant != "wild16" || body.OpponentType == nil || *body.OpponentType != "human" {
			b, _ := json.Marshal(body)
			f.violate("create with %s", b)
		}
		for _, g := range f.games {
			if g.state == "waiting" {
				apiError(w, 409, ksapi.CodeBotAlreadyHasOpenGame)
				return
			}
		}
		g := f.newGame()
		writeJSON(w, 201, ksapi.Created{GameID: g.id, GameCode: g.code, PlayAs: "random", RuleVariant: "wild16",
			State: "waiting", JoinURL: "x", OpponentType: "human"})
		// The opponent joins a moment later.
		if f.noJoin {
			return
		}
		go func() {
			time.Sleep(50 * time.Millisecond)
			f.mu.Lock()
			defer f.mu.Unlock()
			if g.state == "waiting" {
				g.state, g.started = "active", time.Now()
				if g.bot == chess.Black {
					f.opponentMove(g)
				}
				f.publish(g)
			}
		}()
	case len(parts) == 3 && parts[0] == "game" && r.Method == "GET" && parts[2] == "state":
		g := f.games[parts[1]]
		if g == nil {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		writeJSON(w, 200, f.state(g))
	case len(parts) == 3 && parts[0] == "game" && r.Method == "POST" && parts[2] == "move":
		g := f.games[parts[1]]
		if g == nil {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		var body ksapi.MoveRequest
		if json.NewDecoder(r.Body).Decode(&body) != nil {
			writeJSON(w, 422, ksapi.Detail{Detail: "bad body"})
			return
		}
		f.move(w, g, body.UCI)
	case len(parts) == 3 && parts[0] == "game" && r.Method == "POST" && parts[2] == "resign":
		g := f.games[parts[1]]
		if g == nil {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		if g.state != "active" {
			apiError(w, 400, ksapi.CodeGameNotActive)
			return
		}
		f.finish(g, g.bot.Other(), "resignation")
		writeJSON(w, 200, ksapi.Resigned{Result: g.result})
	case len(parts) == 3 && parts[0] == "game" && r.Method == "GET" && parts[2] == "events":
		g := f.games[parts[1]]
		if g == nil || g.state == "completed" {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		ch := make(chan []byte, 16)
		g.subs = append(g.subs, ch)
		mode, keep := f.sse, f.keepalive
		locked = false
		f.mu.Unlock()
		f.stream(w, r, g, ch, mode, keep)
	case len(parts) == 3 && parts[0] == "game" && r.Method == "GET" && parts[2] == "moves":
		g := f.games[parts[1]]
		if g == nil {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		if g.state != "completed" {
			f.violate("transcript of live game %s asked for", g.id)
		}
		writeJSON(w, 200, ksapi.Transcript{GameID: g.id, RuleVariant: "wild16", ViewerColor: new(colorName(g.bot)), Moves: g.moves})
	case len(parts) == 2 && parts[0] == "game" && r.Method == "GET" && parts[1] != "open":
		g := f.games[parts[1]]
		if g == nil {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		writeJSON(w, 200, f.metadata(g))
	case len(parts) == 2 && parts[0] == "game" && r.Method == "DELETE":
		g := f.games[parts[1]]
		if g == nil || g.state != "waiting" {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		delete(f.games, g.id)
		w.WriteHeader(204)
	case r.Method == "GET" && r.URL.Path == "/game/open":
		var list ksapi.OpenGames
		for code, by := range f.open {
			list.Games = append(list.Games, ksapi.OpenGame{GameCode: code, RuleVariant: "wild16", CreatedBy: by,
				CreatedAt: "2026-01-01T00:00:00Z", AvailableColor: "white"})
		}
		writeJSON(w, 200, list)
	case len(parts) == 2 && parts[0] == "user" && r.Method == "GET":
		role := "user"
		if f.bots[parts[1]] {
			role = "bot"
		}
		writeJSON(w, 200, ksapi.User{Username: parts[1], Role: role, IsBot: f.bots[parts[1]], Stats: map[string]any{}})
	case len(parts) == 3 && parts[0] == "game" && parts[1] == "join" && r.Method == "POST":
		by, ok := f.open[parts[2]]
		if !ok {
			apiError(w, 404, ksapi.CodeGameNotFound)
			return
		}
		if !f.bots[by] {
			f.violate("joined %s's game: a human's", by)
			apiError(w, 403, ksapi.CodeForbidden)
			return
		}
		f.joins = append(f.joins, time.Now())
		delete(f.open, parts[2])
		g := f.newGame()
		g.state, g.started = "active", time.Now()
		if g.bot == chess.Black {
			f.opponentMove(g)
		}
		writeJSON(w, 200, ksapi.Joined{GameID: g.id, GameCode: g.code, PlayAs: colorName(g.bot), RuleVariant: "wild16", State: "active", GameURL: "x"})
	default:
		writeJSON(w, 404, ksapi.Detail{Detail: "Not Found"})
	}
}

func routeOf(p string) string {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) >= 2 && parts[0] == "game" && len(parts[1]) == 24 {
		parts[1] = "{ref}"
	}
	return "/" + strings.Join(parts, "/")
}

func (f *fakeSite) sortedGames() []*fakeGame {
	var out []*fakeGame
	for _, g := range f.games {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (f *fakeSite) newGame() *fakeGame {
	f.seq++
	g := &fakeGame{id: fmt.Sprintf("%024x", 0xabc000+f.seq), code: fmt.Sprintf("K%05d", f.seq), u: umpire.New(umpire.ICC()),
		state: "waiting", bot: chess.Color(f.rng.IntN(2)), refused: map[chess.Move]bool{}}
	f.games[g.id] = g
	return g
}

func colorName(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

func (f *fakeSite) metadata(g *fakeGame) ksapi.Metadata {
	seat := func(c chess.Color) *ksapi.Seat {
		if c == g.bot {
			return &ksapi.Seat{Username: f.me, Connected: true, Role: "bot"}
		}
		if g.state == "waiting" {
			return nil
		}
		return &ksapi.Seat{Username: f.opp, Connected: true, Role: "bot"}
	}
	m := ksapi.Metadata{GameID: g.id, GameCode: g.code, RuleVariant: "wild16", State: g.state,
		OpponentType: "human", White: seat(chess.White), Black: seat(chess.Black),
		MoveNumber: g.u.Plies() + 1, CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z", Result: g.result}
	if g.state == "active" {
		m.Turn = new(colorName(g.u.Side()))
	}
	return m
}

func (f *fakeSite) clock(g *fakeGame) *ksapi.Clock {
	el := time.Since(g.started).Seconds()
	w, b := 1500-el/2, 1500-el/2
	var active *string
	if g.state == "active" && g.u.Plies() > 0 {
		active = new(colorName(g.u.Side()))
	}
	if f.clockNoise {
		w, b = -30+float64(f.rng.IntN(4000)), 1e5*f.rng.Float64()
		active = []*string{nil, new("white"), new("black")}[f.rng.IntN(3)]
	}
	return &ksapi.Clock{WhiteRemaining: &w, BlackRemaining: &b, ActiveColor: active}
}

// allowed are the moves the bot may ask: every legal move, and its pawns'
// diagonal steps onto empty squares (askable in the dark, always illegal).
func (f *fakeSite) allowed(g *fakeGame) []string {
	pos := g.u.Position()
	var l chess.MoveList
	pos.GenerateLegal(&l)
	set := map[chess.Move]bool{}
	for _, m := range l.Slice() {
		set[m] = true
	}
	us := pos.Side()
	dir := 1
	if us == chess.Black {
		dir = -1
	}
	for bb := pos.Pieces(us, chess.Pawn); bb != 0; bb &= bb - 1 {
		s := bb.First()
		r := s.Rank() + dir
		if r < 1 || r > 6 { // promotions left out for brevity
			continue
		}
		for _, df := range []int{-1, 1} {
			fl := s.File() + df
			if fl < 0 || fl > 7 {
				continue
			}
			to := chess.NewSquare(fl, r)
			if pos.PieceAt(to) == chess.NoPiece && to != pos.EnPassant() {
				set[chess.NewMove(s, to, chess.NoPieceType)] = true
			}
		}
	}
	var out []string
	for m := range set {
		if !g.refused[m] {
			out = append(out, m.String())
		}
	}
	sort.Strings(out)
	return out
}

func (f *fakeSite) state(g *fakeGame) ksapi.State {
	var turn *string
	var allowed []string
	actions := []string{}
	if g.state == "active" {
		turn = new(colorName(g.u.Side()))
		if g.u.Side() == g.bot {
			allowed = f.allowed(g)
			actions = []string{"move"}
		}
	}
	if allowed == nil {
		allowed = []string{}
	}
	// The scoresheet from the bot's side.
	turns := map[int]*ksapi.Turn{}
	maxTurn := 0
	for _, e := range g.entries {
		own := e.color == g.bot
		if e.private && !own {
			continue
		}
		tn := turns[e.turn]
		if tn == nil {
			tn = &ksapi.Turn{Turn: e.turn, White: []ksapi.Entry{}, Black: []ksapi.Entry{}}
			turns[e.turn] = tn
		}
		maxTurn = max(maxTurn, e.turn)
		prompt, actor := ksapi.PromptOpponent, ksapi.ActorOpponent
		var uci *string
		if own {
			prompt, actor, uci = ksapi.PromptOwn, ksapi.ActorSelf, new(e.uci)
		}
		texts := e.texts
		if !own && e.kind != ksapi.EntryStatus {
			texts = append(append([]string(nil), texts...), f.extraWords...)
		}
		col := &tn.White
		if e.color == chess.Black {
			col = &tn.Black
		}
		*col = append(*col, ksapi.Entry{Kind: e.kind, Actor: actor, Prompt: prompt,
			Message: ksapi.EntryMessage(prompt, texts), Messages: texts, MoveUCI: uci, QuestionType: ksapi.QuestionCommon})
	}
	list := []ksapi.Turn{}
	for i := 1; i <= maxTurn; i++ {
		if tn := turns[i]; tn != nil {
			list = append(list, *tn)
		}
	}
	return ksapi.State{GameID: g.id, State: g.state, Turn: turn, MoveNumber: g.u.Plies() + 1,
		YourColor: colorName(g.bot), YourFEN: "8/8/8/8/8/8/8/8 w - - 0 1", AllowedMoves: allowed,
		PossibleActions: actions, Scoresheet: ksapi.Scoresheet{ViewerColor: colorName(g.bot), LastMoveNumber: maxTurn, Turns: list},
		RefereeTurns: list, RefereeLog: []ksapi.LogEntry{}, Result: g.result, Clock: f.clock(g)}
}

// winnerOf is the site's winner of a decisive result.
func winnerOf(result string) string {
	if result == "1-0" {
		return ksapi.White
	}
	return ksapi.Black
}

// record notes a legal move: entries, transcript.
func (f *fakeSite) record(g *fakeGame, a umpire.Answer) {
	turn := (g.u.Plies() + 1) / 2
	var texts []string
	kind := ksapi.EntryMove
	if a.Capture.Kind != umpire.NoCapture {
		kind = ksapi.EntryCapture
		piece := ksapi.CapturedPiece
		if a.Capture.Kind == umpire.PawnCaptured {
			piece = ksapi.CapturedPawn
		}
		texts = append(texts, ksapi.Text{Kind: ksapi.TextCapture, Square: a.Capture.Square.String(), Piece: piece}.String())
	}
	if a.Ending == umpire.NotOver {
		for _, k := range a.Checks {
			if k != chess.NoCheck {
				texts = append(texts, ksapi.CheckOf(k).Text())
			}
		}
	}
	if a.Ending == umpire.Checkmate {
		texts = append(texts, ksapi.Text{Kind: ksapi.TextEnd, Ending: ksapi.Checkmate, Winner: winnerOf(a.Result)}.String())
	}
	if len(texts) == 0 {
		texts = []string{ksapi.Text{Kind: ksapi.TextMoveComplete}.String()}
	}
	g.entries = append(g.entries, fakeEntry{color: a.Mover, turn: turn, kind: kind, uci: a.Attempt.String(), texts: texts})
	if a.Ending == umpire.NotOver {
		tries := ksapi.Text{Kind: ksapi.TextTries, Tries: max(0, a.PawnTries)}.String()
		g.entries = append(g.entries, fakeEntry{color: a.Mover, turn: turn, kind: ksapi.EntryStatus, texts: []string{tries}})
	}
	uci := a.Attempt.String()
	g.moves = append(g.moves, ksapi.TranscriptMove{Ply: g.u.Plies(), Color: colorName(a.Mover), QuestionType: ksapi.QuestionCommon,
		UCI: &uci, MoveDone: true, Answer: &ksapi.TranscriptAnswer{Main: ksapi.RegularMove}})
}

func (f *fakeSite) move(w http.ResponseWriter, g *fakeGame, uci string) {
	if g.state != "active" {
		apiError(w, 400, ksapi.CodeGameNotActive)
		return
	}
	if g.u.Side() != g.bot {
		apiError(w, 400, ksapi.CodeNotYourTurn)
		return
	}
	m, err := chess.ParseUCI(uci)
	if err != nil {
		writeJSON(w, 200, ksapi.MoveResult{Announcement: ksapi.InvalidUCI, Turn: new(colorName(g.bot)), Clock: f.clock(g)})
		return
	}
	if g.refused[m] {
		f.violate("%s sent again after move_done false", uci)
	}
	allowed := false
	for _, a := range f.allowed(g) {
		allowed = allowed || a == uci
	}
	if !allowed {
		f.violate("%s sent outside allowed_moves", uci)
	}
	a, err := g.u.Attempt(m)
	if err != nil {
		apiError(w, 400, ksapi.CodeGameNotActive)
		return
	}
	if !a.Legal {
		g.refused[m] = true
		g.entries = append(g.entries, fakeEntry{color: g.bot, turn: g.u.Plies()/2 + 1, kind: ksapi.EntryIllegal, uci: uci, texts: []string{ksapi.Text{Kind: ksapi.TextIllegal}.String()}, private: true})
		f.publish(g)
		writeJSON(w, 200, ksapi.MoveResult{Announcement: ksapi.IllegalMove, Checks: []string{}, Turn: new(colorName(g.bot)), Clock: f.clock(g)})
		return
	}
	g.refused = map[chess.Move]bool{}
	f.record(g, a)
	reply := ksapi.MoveResult{MoveDone: true, Announcement: ksapi.RegularMove, Checks: []string{},
		NextTurnPawnTries: new(a.PawnTries), GameOver: a.Ending != umpire.NotOver}
	if a.Capture.Kind != umpire.NoCapture {
		reply.Announcement = ksapi.CaptureDone
		reply.CaptureSquare = new(a.Capture.Square.String())
		reply.CapturedPiece = new(map[umpire.CaptureKind]string{umpire.PawnCaptured: ksapi.CapturedPawn, umpire.PieceCaptured: ksapi.CapturedPiece}[a.Capture.Kind])
	}
	var checks []string
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			checks = append(checks, ksapi.CheckOf(k).Code())
		}
	}
	switch {
	case a.Ending == umpire.Checkmate:
		reply.SpecialAnnouncement = new(ksapi.Special{Ending: ksapi.Checkmate, Winner: winnerOf(a.Result)}.Code())
	case a.Ending == umpire.Stalemate:
		reply.SpecialAnnouncement = new(ksapi.Special{Ending: ksapi.Stalemate}.Code())
	case a.Ending == umpire.InsufficientMaterial:
		reply.SpecialAnnouncement = new(ksapi.Special{Ending: ksapi.Insufficient}.Code())
	case len(checks) == 2:
		reply.SpecialAnnouncement = new(ksapi.Special{Double: true}.Code())
		reply.Checks = checks
	case len(checks) == 1:
		// As ks-backend: "checks" holds a double check's kinds only.
		reply.SpecialAnnouncement = new(checks[0])
	}
	if a.Ending != umpire.NotOver {
		reply.NextTurnPawnTries = nil
		f.finishBoard(g, a)
	} else if f.vanishAfter > 0 && g.u.Plies() >= f.vanishAfter {
		delete(f.games, g.id)
		f.vanishAfter = 0 // once
	} else {
		f.opponentMove(g)
	}
	if g.state == "active" {
		reply.Turn = new(colorName(g.u.Side()))
	}
	reply.Clock = f.clock(g)
	f.publish(g)
	writeJSON(w, 200, reply)
}

func (f *fakeSite) finishBoard(g *fakeGame, a umpire.Answer) {
	var winner chess.Color = 2
	switch a.Result {
	case "1-0":
		winner = chess.White
	case "0-1":
		winner = chess.Black
	}
	reason := map[umpire.Ending]string{umpire.Checkmate: "checkmate", umpire.Stalemate: "stalemate", umpire.InsufficientMaterial: "insufficient"}[a.Ending]
	if reason == "" {
		reason = "too_many_reversible_moves"
	}
	f.finish(g, winner, reason)
}

// finish ends a game; winner 2 is a draw.
func (f *fakeSite) finish(g *fakeGame, winner chess.Color, reason string) {
	g.state = "completed"
	g.result = &ksapi.Result{Reason: reason}
	if winner <= chess.Black {
		g.result.Winner = new(colorName(winner))
	}
}

// opponentMove plays the opponent's random legal move, or resigns.
func (f *fakeSite) opponentMove(g *fakeGame) {
	if g.state != "active" {
		return
	}
	if g.u.Plies() >= f.resignAfter {
		f.finish(g, g.bot, "resignation")
		return
	}
	pos := g.u.Position()
	var l chess.MoveList
	pos.GenerateLegal(&l)
	if l.N == 0 {
		return
	}
	a, err := g.u.Attempt(l.Moves[f.rng.IntN(l.N)])
	if err != nil || !a.Legal {
		f.t.Errorf("fake opponent: %v %v", a, err)
		return
	}
	f.record(g, a)
	if a.Ending != umpire.NotOver {
		f.finishBoard(g, a)
	}
}

// publish pings the game's event streams.
func (f *fakeSite) publish(g *fakeGame) {
	data, _ := json.Marshal(ksapi.GameEvent{Type: ksapi.EventGameChanged, GameID: g.id, GameCode: g.code, State: g.state,
		MoveNumber: g.u.Plies() + 1, UpdatedAt: "x"})
	for _, c := range g.subs {
		select {
		case c <- data:
		default: // a full queue drops the oldest, as the site does: here the newest
		}
	}
}

func (f *fakeSite) stream(w http.ResponseWriter, r *http.Request, g *fakeGame, ch chan []byte, mode string, keep time.Duration) {
	defer func() {
		f.mu.Lock()
		for i, c := range g.subs {
			if c == ch {
				g.subs = append(g.subs[:i], g.subs[i+1:]...)
				break
			}
		}
		f.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	fl, _ := w.(http.Flusher)
	if mode == "stall" {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	}
	hello, _ := json.Marshal(ksapi.GameEvent{Type: ksapi.EventConnected, GameID: g.id})
	w.Write(ksapi.FormatEvent(ksapi.EventConnected, hello))
	fl.Flush()
	if mode == "drop" {
		return
	}
	tick := time.NewTicker(keep)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case d, ok := <-ch:
			if !ok {
				return
			}
			w.Write(ksapi.FormatEvent(ksapi.EventGameChanged, d))
			fl.Flush()
		case <-tick.C:
			w.Write(ksapi.FormatComment(ksapi.Keepalive))
			fl.Flush()
		}
	}
}

func (f *fakeSite) snapshot() (requests int, routes map[string]int, violations []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	routes = map[string]int{}
	for k, v := range f.byRoute {
		routes[k] = v
	}
	return f.requests, routes, append([]string(nil), f.violations...)
}
