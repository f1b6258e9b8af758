package server

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol/ksapi"
)

// The HTTP door's games: the lobby (a bot's waiting game is a seek ad,
// and every automatic seek ad is a lobby game), the game routes, and the
// referee's answers projected as kriegspiel.org shows them.

// newGameID returns a game_id (24 hex) and a game_code (6 characters)
// that no seek or game kept has.
func (s *Server) newGameID() (id, code string) {
	for {
		id = randomHex(24)
		var b [codeLen]byte
		rand.Read(b[:])
		for i := range b {
			b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
		}
		code = string(b[:])
		if sk, g := s.lookupKey(id, refID); sk == nil && g == nil {
			if sk, g := s.lookupKey(code, refCode); sk == nil && g == nil {
				return id, code
			}
		}
	}
}

// lookup finds a game reference among the seek ads, the games in
// progress and the finished games kept.
func (s *Server) lookup(ref string) (*seek, *game) {
	key, kind := parseRef(ref)
	if kind == refBad {
		return nil, nil
	}
	return s.lookupKey(key, kind)
}

func (s *Server) lookupKey(key string, kind refKind) (*seek, *game) {
	match := func(id, code string) bool {
		return kind == refID && id == key || kind == refCode && code == key
	}
	for _, sk := range s.seeks {
		if match(sk.id, sk.code) {
			return sk, nil
		}
	}
	for _, g := range s.games {
		if match(g.id, g.code) {
			return nil, g
		}
	}
	for i := len(s.finished) - 1; i >= 0; i-- {
		if g := s.finished[i]; match(g.id, g.code) {
			return nil, g
		}
	}
	return nil, nil
}

// seatOf returns the colour bot plays in g.
func (g *game) seatOf(bot *webBot) (chess.Color, bool) {
	for col, b := range g.bots {
		if b != nil && b == bot {
			return chess.Color(col), true
		}
	}
	return 0, false
}

func (s *Server) waitingOf(bot *webBot) *seek {
	for _, sk := range s.seeks {
		if sk.bot == bot {
			return sk
		}
	}
	return nil
}

func (s *Server) activeCount(bot *webBot) int {
	n := 0
	for _, g := range s.games {
		if _, ok := g.seatOf(bot); ok {
			n++
		}
	}
	return n
}

func strp(s string) *string { return &s }

func colorWord(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// checkName is the site's name of a check kind.
func checkName(k chess.CheckKind) string {
	switch k {
	case chess.CheckRank:
		return "CHECK_RANK"
	case chess.CheckFile:
		return "CHECK_FILE"
	case chess.CheckLongDiagonal:
		return "CHECK_LONG_DIAGONAL"
	case chess.CheckShortDiagonal:
		return "CHECK_SHORT_DIAGONAL"
	case chess.CheckKnight:
		return "CHECK_KNIGHT"
	}
	return ""
}

// checkText is the site's human text of a check kind.
func checkText(k chess.CheckKind) string {
	switch k {
	case chess.CheckRank:
		return "Check on rank"
	case chess.CheckFile:
		return "Check on file"
	case chess.CheckLongDiagonal:
		return "Check on long diagonal"
	case chess.CheckShortDiagonal:
		return "Check on short diagonal"
	case chess.CheckKnight:
		return "Check by knight"
	}
	return ""
}

// endingSpecial is the special announcement of a move that ends the game.
func endingSpecial(e umpire.Ending, mover chess.Color) string {
	switch e {
	case umpire.Checkmate:
		return "CHECKMATE_" + strings.ToUpper(colorWord(mover)) + "_WINS"
	case umpire.Stalemate:
		return "DRAW_STALEMATE"
	case umpire.InsufficientMaterial, umpire.DeadMaterial:
		return "DRAW_INSUFFICIENT"
	case umpire.FiftyMoves, umpire.TooManyReversible:
		return "DRAW_TOOMANYREVERSIBLEMOVES"
	case umpire.Repetition:
		return "DRAW_REPETITION"
	}
	return ""
}

// endingText is the site's human text of a game-ending move ("" for an
// ending the site has no words for).
func endingText(e umpire.Ending, mover chess.Color) string {
	switch e {
	case umpire.Checkmate:
		return "Checkmate — " + colorName(mover) + " wins"
	case umpire.Stalemate:
		return "Draw by stalemate"
	case umpire.InsufficientMaterial, umpire.DeadMaterial:
		return "Draw by insufficient material"
	case umpire.FiftyMoves, umpire.TooManyReversible:
		return "Draw by too many reversible moves"
	case umpire.Repetition:
		return "Draw by repetition"
	}
	return ""
}

// triesText is the status text of a pawn-try count.
func triesText(n int) string {
	if n == 0 {
		return "No pawn captures"
	}
	return umpire.TriesWords(n)
}

// answerJSON projects an umpire answer as MoveResponse (the clock and
// turn are added by the caller).
func answerJSON(a umpire.Answer) ksapi.MoveResult {
	r := ksapi.MoveResult{Checks: []string{}}
	if !a.Legal {
		r.Announcement = "ILLEGAL_MOVE"
		return r
	}
	r.MoveDone = true
	r.Announcement = "REGULAR_MOVE"
	if a.Capture.Kind != umpire.NoCapture {
		r.Announcement = "CAPTURE_DONE"
		r.CaptureSquare = strp(a.Capture.Square.String())
		r.CapturedPiece = strp("PIECE")
		if a.Capture.Kind == umpire.PawnCaptured {
			r.CapturedPiece = strp("PAWN")
		}
	}
	var checks []string
	for _, k := range a.Checks {
		if k != chess.NoCheck {
			checks = append(checks, checkName(k))
		}
	}
	// ks-game fills check_1 and check_2, which become "checks", for a
	// double check only: a single check is named by the special alone,
	// and a mate by its ending.
	switch {
	case a.Ending != umpire.NotOver:
		if sp := endingSpecial(a.Ending, a.Mover); sp != "" {
			r.SpecialAnnouncement = strp(sp)
		}
		r.GameOver = true
	case len(checks) == 2:
		r.SpecialAnnouncement = strp("CHECK_DOUBLE")
		r.Checks = checks
	case len(checks) == 1:
		r.SpecialAnnouncement = strp(checks[0])
	}
	if a.Ending == umpire.NotOver && a.PawnTries >= 0 {
		n := a.PawnTries
		r.NextTurnPawnTries = &n
	}
	return r
}

// entry is what viewer's scoresheet shows of answer a, as ks-backend's
// state projection words it (prompt "Move attempt" or "Opponent move",
// the main announcement, then the special ones); nil for the opponent's
// illegal attempt, which wild16 hides.
func entry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	own := a.Mover == viewer
	if !a.Legal && !own {
		return nil
	}
	e := &ksapi.Entry{Kind: "move", Actor: "opponent", Prompt: "Opponent move", QuestionType: "COMMON"}
	if own {
		e.Actor, e.Prompt, e.MoveUCI = "self", "Move attempt", strp(a.Attempt.String())
	}
	switch {
	case !a.Legal:
		e.Kind = "illegal_move"
		e.Messages = []string{"Illegal move"}
	case a.Capture.Kind != umpire.NoCapture:
		e.Kind = "capture"
		word := "Piece"
		if a.Capture.Kind == umpire.PawnCaptured {
			word = "Pawn"
		}
		e.Messages = []string{word + " captured at " + strings.ToUpper(a.Capture.Square.String())}
	default:
		e.Messages = []string{"Move complete"}
	}
	if a.Legal {
		if a.Ending != umpire.NotOver {
			if t := endingText(a.Ending, a.Mover); t != "" {
				e.Messages = append(e.Messages, t)
			}
		} else if a.NumChecks() > 0 {
			if a.NumChecks() == 2 {
				e.Messages = append(e.Messages, "Double check")
			}
			for _, k := range a.Checks {
				if k != chess.NoCheck {
					e.Messages = append(e.Messages, checkText(k))
				}
			}
		}
	}
	e.Message = e.Prompt + " — " + strings.Join(e.Messages, " · ")
	return e
}

// statusEntry is the pawn-try status that follows a legal move not
// ending the game, in the column of the side to move next.
func statusEntry(a umpire.Answer, viewer chess.Color) *ksapi.Entry {
	if !a.Legal || a.Ending != umpire.NotOver || a.PawnTries < 0 {
		return nil
	}
	msg := triesText(a.PawnTries)
	actor := "opponent"
	if a.Mover.Other() == viewer {
		actor = "self"
	}
	return &ksapi.Entry{Kind: "status", Actor: actor, Message: msg, Messages: []string{msg}}
}

// scoresheet builds viewer's scoresheet turns and the flat referee log
// made from them (ply = 2*(turn-1) + 1 for White's column, + 2 for
// Black's; announcement = the entry's message).
func scoresheet(g *game, viewer chess.Color) ([]ksapi.Turn, []ksapi.LogEntry) {
	turns := []ksapi.Turn{}
	at := func(t int) *ksapi.Turn {
		for len(turns) == 0 || turns[len(turns)-1].Turn < t {
			turns = append(turns, ksapi.Turn{Turn: turns0(turns) + 1, White: []ksapi.Entry{}, Black: []ksapi.Entry{}})
		}
		return &turns[t-1]
	}
	ply := 0
	for _, a := range g.answers {
		t := ply/2 + 1
		if e := entry(a, viewer); e != nil {
			col := at(t)
			if a.Mover == chess.White {
				col.White = append(col.White, *e)
			} else {
				col.Black = append(col.Black, *e)
			}
		}
		if e := statusEntry(a, viewer); e != nil {
			if a.Mover == chess.White {
				at(t).Black = append(at(t).Black, *e)
			} else {
				at(t + 1).White = append(at(t+1).White, *e)
			}
		}
		if a.Legal {
			ply++
		}
	}
	kept := turns[:0]
	for _, t := range turns {
		if len(t.White)+len(t.Black) > 0 {
			kept = append(kept, t)
		}
	}
	logs := []ksapi.LogEntry{}
	for _, t := range kept {
		for i, col := range [2][]ksapi.Entry{t.White, t.Black} {
			for _, e := range col {
				logs = append(logs, ksapi.LogEntry{Ply: 2*(t.Turn-1) + 1 + i, Announcement: e.Message})
			}
		}
	}
	return kept, logs
}

// turns0 is the number of the last turn in turns (0 for none).
func turns0(turns []ksapi.Turn) int {
	if len(turns) == 0 {
		return 0
	}
	return turns[len(turns)-1].Turn
}

// ownFEN is the site's your_fen before the end: only viewer's men,
// "<board> w|b - - 0 1".
func ownFEN(pos *chess.Position, viewer chess.Color) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := pos.PieceAt(chess.NewSquare(file, rank))
			if p == chess.NoPiece || p.Color() != viewer {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(p.Letter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + string(pos.Side().Letter()) + " - - 0 1")
	return b.String()
}

// resultOf is the site's result of a finished game; nil while it runs.
func resultOf(g *game) *ksapi.Result {
	if g.result == "" {
		return nil
	}
	r := &ksapi.Result{}
	switch g.result {
	case "1-0":
		r.Winner = strp("white")
	case "0-1":
		r.Winner = strp("black")
	}
	switch g.endCode {
	case "Mat":
		r.Reason = "checkmate"
	case "Sta":
		r.Reason = "stalemate"
	case "NM":
		r.Reason = "insufficient"
		if g.ump.Ending() == umpire.NotOver { // a flag fell, the winner had no mating material
			r.Reason = "timeout"
		}
	case "50":
		r.Reason = "too_many_reversible_moves"
	case "Res":
		r.Reason = "resignation"
	case "Fla":
		r.Reason = "timeout"
	case "Rep":
		r.Reason = "repetition"
	case "Dis":
		r.Reason = "disconnection"
	case "Agr":
		r.Reason = "agreement"
	case "Abo":
		r.Reason = "aborted"
	default: // "Adj": the server's adjudication
		r.Reason = "move_limit"
		if g.ump.Ending() == umpire.DeadMaterial {
			r.Reason = "insufficient"
		}
	}
	return r
}

func (s *Server) clockOf(g *game) *ksapi.Clock {
	now := s.cfg.Now()
	white, black := max(0, g.remaining(chess.White, now).Seconds()), max(0, g.remaining(chess.Black, now).Seconds())
	c := &ksapi.Clock{WhiteRemaining: &white, BlackRemaining: &black}
	if g.result == "" && !g.idleClock {
		c.ActiveColor = strp(colorWord(g.ump.Side()))
	}
	return c
}

func gameState(g *game) string {
	if g.result != "" {
		return "completed"
	}
	return "active"
}

func (s *Server) playerOf(g *game, col chess.Color) *ksapi.Seat {
	return &ksapi.Seat{Username: g.names[col], Connected: g.bots[col] != nil || g.players[col] != nil,
		Role: "bot", Elo: g.ratings[col], Ratings: map[string]any{}}
}

func (s *Server) gameMeta(g *game) ksapi.Metadata {
	m := ksapi.Metadata{GameID: g.id, GameCode: g.code, RuleVariant: "wild16", State: gameState(g), OpponentType: "human",
		White: s.playerOf(g, chess.White), Black: s.playerOf(g, chess.Black), MoveNumber: g.ump.Plies() + 1,
		CreatedAt: isoTime(g.started), UpdatedAt: isoTime(g.updated), Result: resultOf(g)}
	if g.result == "" {
		m.Turn = strp(colorWord(g.ump.Side()))
	}
	return m
}

func (s *Server) seekMeta(sk *seek) ksapi.Metadata {
	p := sk.seat()
	pl := &ksapi.Seat{Username: p.name(), Connected: true, Role: "bot", Elo: s.rating(p.name()), Ratings: map[string]any{}}
	m := ksapi.Metadata{GameID: sk.id, GameCode: sk.code, RuleVariant: "wild16", State: "waiting", OpponentType: "human",
		MoveNumber: 1, CreatedAt: isoTime(sk.posted), UpdatedAt: isoTime(sk.posted)}
	if sk.color == "black" {
		m.Black = pl
	} else {
		m.White = pl
	}
	return m
}

// gameStateFor is GET /state's answer for the player of colour col.
func (s *Server) gameStateFor(g *game, col chess.Color) ksapi.State {
	pos := g.ump.Position()
	turns, logs := scoresheet(g, col)
	st := ksapi.State{GameID: g.id, State: gameState(g), MoveNumber: g.ump.Plies() + 1, YourColor: colorWord(col),
		AllowedMoves: []string{}, PossibleActions: []string{}, Result: resultOf(g), Clock: s.clockOf(g),
		Scoresheet:   ksapi.Scoresheet{ViewerColor: colorWord(col), LastMoveNumber: g.ump.Plies()/2 + 1, Turns: turns},
		RefereeTurns: turns, RefereeLog: logs, Reserve: emptyReserve(), Material: material(&pos)}
	if g.result == "" {
		st.Turn = strp(colorWord(g.ump.Side()))
		st.YourFEN = ownFEN(&pos, col)
		if g.ump.Side() == col {
			st.AllowedMoves = allowedMoves(g)
			st.PossibleActions = []string{"move"}
		}
	} else {
		st.YourFEN = pos.FEN()
	}
	return st
}

// allowedMoves lists the attempts the side to move may make: the
// umpire's askable list, less the attempts refused this turn, sorted.
func allowedMoves(g *game) []string {
	pos := g.ump.Position()
	var l chess.MoveList
	umpire.Askable(&pos, g.ump.PawnTries(), g.ump.Refused(), &l)
	out := make([]string, 0, l.N)
	for _, m := range l.Slice() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

func material(pos *chess.Position) *ksapi.MaterialSummary {
	side := func(c chess.Color) ksapi.SideMaterial {
		return ksapi.SideMaterial{PiecesRemaining: pos.ByColor(c).Count()}
	}
	return &ksapi.MaterialSummary{White: side(chess.White), Black: side(chess.Black)}
}

func emptyReserve() *ksapi.ReserveSummary { return &ksapi.ReserveSummary{} }

// waitingStateFor is GET /state's answer for a bot's waiting game.
func waitingStateFor(sk *seek) ksapi.State {
	col := chess.White
	if sk.color == "black" {
		col = chess.Black
	}
	pos := chess.StartPosition()
	return ksapi.State{GameID: sk.id, State: "waiting", Turn: strp("white"), MoveNumber: 1, YourColor: colorWord(col),
		YourFEN: ownFEN(&pos, col), AllowedMoves: []string{}, PossibleActions: []string{}, Material: material(&pos),
		Reserve: emptyReserve(), Scoresheet: ksapi.Scoresheet{ViewerColor: colorWord(col), Turns: []ksapi.Turn{}},
		RefereeTurns: []ksapi.Turn{}, RefereeLog: []ksapi.LogEntry{},
		Clock: &ksapi.Clock{WhiteRemaining: new(float64(sk.minutes * 60)), BlackRemaining: new(float64(sk.minutes * 60))}}
}

// checkCreate validates POST /game/create's body and returns the colour
// asked for.
func checkCreate(b *ksapi.CreateGame) (string, *apiError) {
	variant, playAs, tc, opp := "berkeley_any", "random", "rapid", "human"
	for _, f := range []struct {
		p   *string
		dst *string
	}{{b.RuleVariant, &variant}, {b.PlayAs, &playAs}, {b.TimeControl, &tc}, {b.OpponentType, &opp}} {
		if f.p != nil {
			*f.dst = *f.p
		}
	}
	switch {
	case !isRuleVariant(variant):
		return "", validation("rule_variant", "unknown rule variant")
	case playAs != "white" && playAs != "black" && playAs != "random":
		return "", validation("play_as", "white, black or random")
	case tc != "rapid":
		return "", validation("time_control", "only rapid")
	case opp != "human" && opp != "bot":
		return "", validation("opponent_type", "human or bot")
	case opp == "bot":
		return "", errGame(400, "BOT_CREATE_REQUIRES_HUMAN_OPPONENT", "Bots must create open lobby games")
	case variant != "wild16":
		return "", errGame(400, "RULE_VARIANT_UNSUPPORTED", "This server plays only wild16")
	}
	if playAs == "random" {
		var r [1]byte
		rand.Read(r[:])
		playAs = []string{"white", "black"}[r[0]&1]
	}
	return playAs, nil
}

// noteVariant logs, once per bot and variant, a lobby game of a variant
// this server does not play: the site's Python bots create berkeley_any
// games by default, and a refused create aborts their whole poll round
// (they then play nothing), which the operator can only see here.
func (s *Server) noteVariant(bot *webBot, variant string) {
	s.mu.Lock()
	seen := bot.refusedVariant == variant
	bot.refusedVariant = variant
	s.mu.Unlock()
	if !seen {
		s.cfg.Log("http: bot %s asks for a %q lobby game; only wild16 is played here (a site bot needs KRIEGSPIEL_AUTO_CREATE_RULE_VARIANT=wild16)", bot.username, variant)
	}
}

// apiGame runs the game routes but the event stream.
func (s *Server) apiGame(req *request) *apiError {
	bot := req.bot
	switch req.route {
	case rtMineActive, rtMineArchived, rtMine:
		return s.apiMine(req)
	case rtOpen:
		return s.apiOpen(req)
	case rtCreate:
		var body ksapi.CreateGame
		if e := decodeBody(req.r, &body); e != nil {
			return e
		}
		color, e := checkCreate(&body)
		if e != nil {
			if e.code == "RULE_VARIANT_UNSUPPORTED" {
				v := "berkeley_any" // the site's default
				if body.RuleVariant != nil {
					v = *body.RuleVariant
				}
				s.noteVariant(bot, v)
			}
			return e
		}
		return s.apiCreate(req, color)
	case rtJoin:
		return s.apiJoin(req)
	case rtMove:
		var body ksapi.MoveRequest
		if e := decodeBody(req.r, &body); e != nil {
			return e
		}
		if len(body.UCI) < 4 || len(body.UCI) > 5 { // absent or null too
			return validation("uci", "4 or 5 characters")
		}
		return s.apiMove(req, body.UCI)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := s.lookup(req.param)
	if sk == nil && g == nil {
		return errGame(404, "GAME_NOT_FOUND", "Game not found")
	}
	col, player := chess.White, false
	if g != nil {
		col, player = g.seatOf(bot)
	} else if sk.bot == bot {
		player = true
		if sk.color == "black" {
			col = chess.Black
		}
	}
	if req.route == rtMeta {
		if g != nil {
			writeJSON(req.w, 200, s.gameMeta(g))
		} else {
			writeJSON(req.w, 200, s.seekMeta(sk))
		}
		return nil
	}
	if !player {
		return errGame(403, "FORBIDDEN", "You are not a participant of this game")
	}
	switch req.route {
	case rtDelete:
		if g != nil {
			return errGame(409, "GAME_NOT_WAITING", "Only a waiting game can be deleted")
		}
		ev := s.newEvents()
		s.removeSeek(ev, sk, 3)
		ev.flush()
		s.endStreams(sk.id)
		req.w.WriteHeader(204)
		return nil
	case rtState:
		if g == nil {
			writeJSON(req.w, 200, waitingStateFor(sk))
			return nil
		}
		if g.result == "" {
			ev := s.newEvents()
			s.checkFlag(ev, g)
			ev.flush()
		}
		writeJSON(req.w, 200, s.gameStateFor(g, col))
		return nil
	case rtAskAny:
		if g == nil || g.result != "" {
			return errGame(400, "GAME_NOT_ACTIVE", "Game is not active")
		}
		return errGame(400, "ACTION_NOT_AVAILABLE", "wild16 has no ask-any")
	case rtResign:
		if g == nil || g.result != "" {
			return errGame(400, "GAME_NOT_ACTIVE", "Game is not active")
		}
		ev := s.newEvents()
		s.endGame(ev, g, "Res", scoreFor(1-col), g.names[col]+" resigns")
		ev.flush()
		writeJSON(req.w, 200, ksapi.Resigned{Result: resultOf(g)})
		return nil
	case rtMoves:
		if g == nil || g.result == "" {
			return errGame(400, "GAME_NOT_ACTIVE", "The transcript is shown once the game is over")
		}
		writeJSON(req.w, 200, transcript(g, col))
		return nil
	}
	return errDetail(404, "Not Found")
}

func (s *Server) apiMine(req *request) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	var list []ksapi.Metadata
	if req.route != rtMineArchived {
		if sk := s.waitingOf(req.bot); sk != nil {
			list = append(list, s.seekMeta(sk))
		}
		var live []*game
		for _, g := range s.games {
			if _, ok := g.seatOf(req.bot); ok {
				live = append(live, g)
			}
		}
		slices.SortFunc(live, func(a, b *game) int { return b.number - a.number })
		for _, g := range live {
			list = append(list, s.gameMeta(g))
		}
	}
	if req.route != rtMineActive {
		for i := len(s.finished) - 1; i >= 0 && len(list) < 20; i-- {
			if _, ok := s.finished[i].seatOf(req.bot); ok {
				list = append(list, s.gameMeta(s.finished[i]))
			}
		}
	}
	if len(list) > 20 {
		list = list[:20]
	}
	if list == nil {
		list = []ksapi.Metadata{}
	}
	writeJSON(req.w, 200, ksapi.Games{Games: list})
	return nil
}

// apiOpen lists the lobby: every automatic seek ad, a bot's or a telnet
// player's, newest first.
func (s *Server) apiOpen(req *request) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	ads := s.sortedSeeks()
	list := []ksapi.OpenGame{}
	for i := len(ads) - 1; i >= 0 && len(list) < 20; i-- {
		sk := ads[i]
		if sk.manual {
			continue
		}
		avail := "random"
		switch sk.color {
		case "white":
			avail = "black"
		case "black":
			avail = "white"
		}
		list = append(list, ksapi.OpenGame{GameCode: sk.code, RuleVariant: "wild16", CreatedBy: sk.seat().name(),
			CreatedAt: isoTime(sk.posted), AvailableColor: avail})
	}
	writeJSON(req.w, 200, ksapi.OpenGames{Games: list})
	return nil
}

func (s *Server) apiCreate(req *request, color string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waitingOf(req.bot) != nil {
		return errGame(409, "BOT_ALREADY_HAS_OPEN_GAME", "You already have a waiting game")
	}
	cfg := &s.http.cfg
	sk := &seek{bot: req.bot, minutes: cfg.Minutes, inc: cfg.Inc, color: color, posted: s.cfg.Now()}
	ev := s.newEvents()
	s.postSeek(ev, sk)
	ev.flush()
	sk.expiry = time.AfterFunc(cfg.WaitingTTL, func() { s.expireSeek(sk) })
	writeJSON(req.w, 201, ksapi.Created{GameID: sk.id, GameCode: sk.code, PlayAs: color, RuleVariant: "wild16",
		State: "waiting", JoinURL: "/join/" + sk.code, OpponentType: "human"})
	return nil
}

// expireSeek removes a bot's waiting game nobody joined (no event, as on
// the site; its streams end).
func (s *Server) expireSeek(sk *seek) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seeks[sk.index] != sk {
		return
	}
	ev := s.newEvents()
	s.removeSeek(ev, sk, 3)
	ev.flush()
	s.endStreams(sk.id)
}

func (s *Server) apiJoin(req *request) *apiError {
	code, kind := parseRef(req.param)
	if kind != refCode {
		return errGame(404, "GAME_NOT_FOUND", "Game not found")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := s.lookupKey(code, refCode)
	now := s.cfg.Now()
	bot, cfg := req.bot, &s.http.cfg
	switch {
	case g != nil:
		return errGame(409, "GAME_FULL", "Game already has two players")
	case sk == nil:
		return errGame(404, "GAME_NOT_FOUND", "Game not found")
	case sk.bot == bot:
		return errGame(409, "CANNOT_JOIN_OWN_GAME", "You cannot join your own game")
	case sk.manual || sk.seat().busy():
		return errGame(409, "GAME_NOT_JOINABLE", "Game cannot be joined")
	case sk.rated && (s.rating(bot.username) < sk.minR || s.rating(bot.username) > sk.maxR):
		return errGame(409, "GAME_NOT_JOINABLE", "Your rating is outside the game's range")
	case cfg.JoinCooldown > 0 && !bot.lastJoin.IsZero() && now.Sub(bot.lastJoin) < cfg.JoinCooldown:
		return errGame(409, "BOT_JOIN_COOLDOWN", "Bots may join one game per minute")
	case s.activeCount(bot) >= cfg.MaxActivePerBot:
		return errGame(409, "GAME_NOT_JOINABLE", "You are playing too many games")
	}
	ev := s.newEvents()
	g = s.takeSeek(ev, sk, seat{bot: bot})
	ev.flush()
	bot.lastJoin = now
	col, _ := g.seatOf(bot)
	writeJSON(req.w, 200, ksapi.Joined{GameID: g.id, GameCode: g.code, PlayAs: colorWord(col),
		RuleVariant: "wild16", State: "active", GameURL: "/game/" + g.id})
	return nil
}

// apiMove referees POST /game/{ref}/move: a UCI outside allowed_moves is
// refused (ILLEGAL_MOVE, or INVALID_UCI when it does not parse) without
// troubling the umpire or the record; the rest goes to the umpire.
func (s *Server) apiMove(req *request, uci string) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := s.lookup(req.param)
	if sk == nil && g == nil {
		return errGame(404, "GAME_NOT_FOUND", "Game not found")
	}
	var col chess.Color
	var player bool
	if g != nil {
		col, player = g.seatOf(req.bot)
	} else {
		player = sk.bot == req.bot
	}
	if !player {
		return errGame(403, "FORBIDDEN", "You are not a participant of this game")
	}
	if g == nil || g.result != "" {
		return errGame(400, "GAME_NOT_ACTIVE", "Game is not active")
	}
	ev := s.newEvents()
	defer ev.flush()
	if s.checkFlag(ev, g) {
		return errGame(400, "GAME_NOT_ACTIVE", "Game timed out")
	}
	if g.ump.Side() != col {
		return errGame(400, "NOT_YOUR_TURN", "It is not your turn")
	}
	var r ksapi.MoveResult
	m, err := chess.ParseUCI(strings.ToLower(uci))
	switch {
	case err != nil:
		r = ksapi.MoveResult{Announcement: "INVALID_UCI", Checks: []string{}}
		s.webChanged(g)
	case !slices.Contains(allowedMoves(g), m.String()):
		r = ksapi.MoveResult{Announcement: "ILLEGAL_MOVE", Checks: []string{}}
		s.webChanged(g)
	default:
		a, out := s.attemptIn(ev, g, col, m, m.String())
		if out != attemptJudged {
			return errGame(400, "GAME_NOT_ACTIVE", "Game is not active")
		}
		r = answerJSON(a)
	}
	r.Turn = strp(colorWord(g.ump.Side())) // the board's side to move, after the end too, as the site
	r.GameOver = g.result != ""
	r.Clock = s.clockOf(g)
	writeJSON(req.w, 200, r)
	return nil
}

// transcript is GET /game/{ref}/moves for a finished game: every
// attempt, the opponent's illegal ones too (as the site shows them once a
// wild16 game is over).
func transcript(g *game, viewer chess.Color) ksapi.Transcript {
	moves := []ksapi.TranscriptMove{}
	ply := 0
	for _, a := range g.answers {
		ans := answerJSON(a)
		moves = append(moves, ksapi.TranscriptMove{Ply: ply + 1, Color: colorWord(a.Mover), QuestionType: "COMMON",
			UCI: strp(a.Attempt.String()), MoveDone: a.Legal,
			Answer: &ksapi.TranscriptAnswer{Main: ans.Announcement, CaptureSquare: ans.CaptureSquare, CapturedPiece: ans.CapturedPiece,
				Special: ans.SpecialAnnouncement, Checks: ans.Checks, NextTurnPawnTries: ans.NextTurnPawnTries}})
		if a.Legal {
			ply++
		}
	}
	return ksapi.Transcript{GameID: g.id, RuleVariant: "wild16", ViewerColor: colorWord(viewer), Moves: moves}
}
