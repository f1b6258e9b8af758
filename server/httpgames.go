package server

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol/ksapi"
	"kriegbot/server/kshttp"
)

// The HTTP door's games: the lobby (a bot's waiting game is a seek ad,
// and every automatic seek ad is a lobby game) and the game routes; the
// JSON views of games are in httpview.go.

// newGameID returns a game_id (24 hex) and a game_code (6 characters)
// that no seek or game kept has.
func (web *httpDoor) newGameID() (id, code string) {
	for {
		id = randomHex(24)
		var b [kshttp.CodeLen]byte
		rand.Read(b[:])
		for i := range b {
			b[i] = kshttp.CodeAlphabet[int(b[i])%len(kshttp.CodeAlphabet)]
		}
		code = string(b[:])
		if sk, g := web.lookupKey(id, kshttp.RefID); sk == nil && g == nil {
			if sk, g := web.lookupKey(code, kshttp.RefCode); sk == nil && g == nil {
				return id, code
			}
		}
	}
}

// lookup finds a game reference among the seek ads, the games in
// progress and the finished games kept.
func (web *httpDoor) lookup(ref string) (*seek, *game) {
	key, kind := kshttp.ParseRef(ref)
	if kind == kshttp.RefBad {
		return nil, nil
	}
	return web.lookupKey(key, kind)
}

func (web *httpDoor) lookupKey(key string, kind kshttp.RefKind) (*seek, *game) {
	s := web.s
	match := func(id, code string) bool {
		return kind == kshttp.RefID && id == key || kind == kshttp.RefCode && code == key
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

func (web *httpDoor) waitingOf(bot *webBot) *seek {
	s := web.s
	for _, sk := range s.seeks {
		if sk.bot == bot {
			return sk
		}
	}
	return nil
}

func (web *httpDoor) activeCount(bot *webBot) int {
	s := web.s
	n := 0
	for _, g := range s.games {
		if _, ok := g.seatOf(bot); ok {
			n++
		}
	}
	return n
}

// noteVariant logs, once per bot and variant, a lobby game of a variant
// this server does not play: the site's Python bots create berkeley_any
// games by default, and a refused create aborts their whole poll round
// (they then play nothing), which the operator can only see here.
func (web *httpDoor) noteVariant(bot *webBot, variant string) {
	s := web.s
	s.mu.Lock()
	seen := bot.refusedVariant == variant
	bot.refusedVariant = variant
	s.mu.Unlock()
	if !seen {
		s.cfg.Log("http: bot %s asks for a %q lobby game; only wild16 is played here (a site bot needs KRIEGSPIEL_AUTO_CREATE_RULE_VARIANT=wild16)", bot.username, variant)
	}
}

// apiGame runs the game routes but the event stream.
func (web *httpDoor) apiGame(req *request) *kshttp.Error {
	s := web.s
	bot := req.bot
	switch req.route {
	case kshttp.RouteMineActive, kshttp.RouteMineArchived, kshttp.RouteMine:
		return web.apiMine(req)
	case kshttp.RouteOpen:
		return web.apiOpen(req)
	case kshttp.RouteCreate:
		var body ksapi.CreateGame
		if e := kshttp.DecodeBody(req.r, &body); e != nil {
			return e
		}
		color, e := kshttp.CheckCreate(&body)
		if e != nil {
			if e.Code == ksapi.CodeRuleVariantUnsupported {
				v := "berkeley_any" // the site's default
				if body.RuleVariant != nil {
					v = *body.RuleVariant
				}
				web.noteVariant(bot, v)
			}
			return e
		}
		return web.apiCreate(req, color)
	case kshttp.RouteJoin:
		return web.apiJoin(req)
	case kshttp.RouteMove:
		var body ksapi.MoveRequest
		if e := kshttp.DecodeBody(req.r, &body); e != nil {
			return e
		}
		if len(body.UCI) < 4 || len(body.UCI) > 5 { // absent or null too
			return kshttp.Invalid("uci", "4 or 5 characters")
		}
		return web.apiMove(req, body.UCI)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := web.lookup(req.param)
	if sk == nil && g == nil {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
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
	if req.route == kshttp.RouteMeta {
		if g != nil {
			kshttp.WriteJSON(req.w, 200, web.gameMeta(g))
		} else {
			kshttp.WriteJSON(req.w, 200, web.seekMeta(sk))
		}
		return nil
	}
	if !player {
		return kshttp.GameError(403, ksapi.CodeForbidden, "You are not a participant of this game")
	}
	switch req.route {
	case kshttp.RouteDelete:
		if g != nil {
			return kshttp.GameError(409, ksapi.CodeGameNotWaiting, "Only a waiting game can be deleted")
		}
		ev := s.newEvents()
		s.removeSeek(ev, sk, 3)
		ev.flush()
		web.endStreams(sk.id)
		req.w.WriteHeader(204)
		return nil
	case kshttp.RouteState:
		if g == nil {
			kshttp.WriteJSON(req.w, 200, waitingStateFor(sk))
			return nil
		}
		if g.result == "" {
			ev := s.newEvents()
			s.checkFlag(ev, g)
			ev.flush()
		}
		kshttp.WriteJSON(req.w, 200, web.gameStateFor(g, col))
		return nil
	case kshttp.RouteAskAny:
		if g == nil || g.result != "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		return kshttp.GameError(400, ksapi.CodeActionNotAvailable, "wild16 has no ask-any")
	case kshttp.RouteResign:
		if g == nil || g.result != "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		ev := s.newEvents()
		s.endGame(ev, g, "Res", scoreFor(1-col), g.names[col]+" resigns")
		ev.flush()
		kshttp.WriteJSON(req.w, 200, ksapi.Resigned{Result: resultOf(g)})
		return nil
	case kshttp.RouteMoves:
		if g == nil || g.result == "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "The transcript is shown once the game is over")
		}
		kshttp.WriteJSON(req.w, 200, transcript(g, col))
		return nil
	}
	return kshttp.DetailError(404, "Not Found")
}

func (web *httpDoor) apiMine(req *request) *kshttp.Error {
	s := web.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var list []ksapi.Metadata
	if req.route != kshttp.RouteMineArchived {
		if sk := web.waitingOf(req.bot); sk != nil {
			list = append(list, web.seekMeta(sk))
		}
		var live []*game
		for _, g := range s.games {
			if _, ok := g.seatOf(req.bot); ok {
				live = append(live, g)
			}
		}
		slices.SortFunc(live, func(a, b *game) int { return b.number - a.number })
		for _, g := range live {
			list = append(list, web.gameMeta(g))
		}
	}
	if req.route != kshttp.RouteMineActive {
		for i := len(s.finished) - 1; i >= 0 && len(list) < 20; i-- {
			if _, ok := s.finished[i].seatOf(req.bot); ok {
				list = append(list, web.gameMeta(s.finished[i]))
			}
		}
	}
	if len(list) > 20 {
		list = list[:20]
	}
	if list == nil {
		list = []ksapi.Metadata{}
	}
	kshttp.WriteJSON(req.w, 200, ksapi.Games{Games: list})
	return nil
}

// apiOpen lists the lobby: every automatic seek ad, a bot's or a telnet
// player's, newest first.
func (web *httpDoor) apiOpen(req *request) *kshttp.Error {
	s := web.s
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
			CreatedAt: kshttp.ISOTime(sk.posted), AvailableColor: avail})
	}
	kshttp.WriteJSON(req.w, 200, ksapi.OpenGames{Games: list})
	return nil
}

func (web *httpDoor) apiCreate(req *request, color string) *kshttp.Error {
	s := web.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if web.waitingOf(req.bot) != nil {
		return kshttp.GameError(409, ksapi.CodeBotAlreadyHasOpenGame, "You already have a waiting game")
	}
	cfg := &web.cfg
	sk := &seek{bot: req.bot, minutes: cfg.Minutes, inc: cfg.Inc, color: color, posted: s.cfg.Now()}
	ev := s.newEvents()
	s.postSeek(ev, sk)
	ev.flush()
	sk.expiry = time.AfterFunc(cfg.WaitingTTL, func() { web.expireSeek(sk) })
	kshttp.WriteJSON(req.w, 201, ksapi.Created{GameID: sk.id, GameCode: sk.code, PlayAs: color, RuleVariant: "wild16",
		State: "waiting", JoinURL: "/join/" + sk.code, OpponentType: "human"})
	return nil
}

// expireSeek removes a bot's waiting game nobody joined (no event, as on
// the site; its streams end).
func (web *httpDoor) expireSeek(sk *seek) {
	s := web.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seeks[sk.index] != sk {
		return
	}
	ev := s.newEvents()
	s.removeSeek(ev, sk, 3)
	ev.flush()
	web.endStreams(sk.id)
}

func (web *httpDoor) apiJoin(req *request) *kshttp.Error {
	s := web.s
	code, kind := kshttp.ParseRef(req.param)
	if kind != kshttp.RefCode {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := web.lookupKey(code, kshttp.RefCode)
	now := s.cfg.Now()
	bot, cfg := req.bot, &web.cfg
	switch {
	case g != nil:
		return kshttp.GameError(409, ksapi.CodeGameFull, "Game already has two players")
	case sk == nil:
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	case sk.bot == bot:
		return kshttp.GameError(409, ksapi.CodeCannotJoinOwnGame, "You cannot join your own game")
	case sk.manual || sk.seat().busy():
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "Game cannot be joined")
	case sk.rated && (s.rating(bot.username) < sk.minR || s.rating(bot.username) > sk.maxR):
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "Your rating is outside the game's range")
	case cfg.JoinCooldown > 0 && !bot.lastJoin.IsZero() && now.Sub(bot.lastJoin) < cfg.JoinCooldown:
		return kshttp.GameError(409, ksapi.CodeBotJoinCooldown, "Bots may join one game per minute")
	case web.activeCount(bot) >= cfg.MaxActivePerBot:
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "You are playing too many games")
	}
	ev := s.newEvents()
	g = s.takeSeek(ev, sk, seat{bot: bot})
	ev.flush()
	bot.lastJoin = now
	col, _ := g.seatOf(bot)
	kshttp.WriteJSON(req.w, 200, ksapi.Joined{GameID: g.id, GameCode: g.code, PlayAs: kshttp.ColorWord(col),
		RuleVariant: "wild16", State: "active", GameURL: "/game/" + g.id})
	return nil
}

// apiMove referees POST /game/{ref}/move: a UCI outside allowed_moves is
// refused (ILLEGAL_MOVE, or INVALID_UCI when it does not parse) without
// troubling the umpire or the record; the rest goes to the umpire.
func (web *httpDoor) apiMove(req *request, uci string) *kshttp.Error {
	s := web.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, g := web.lookup(req.param)
	if sk == nil && g == nil {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	}
	var col chess.Color
	var player bool
	if g != nil {
		col, player = g.seatOf(req.bot)
	} else {
		player = sk.bot == req.bot
	}
	if !player {
		return kshttp.GameError(403, ksapi.CodeForbidden, "You are not a participant of this game")
	}
	if g == nil || g.result != "" {
		return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
	}
	ev := s.newEvents()
	defer ev.flush()
	if s.checkFlag(ev, g) {
		return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game timed out")
	}
	if g.ump.Side() != col {
		return kshttp.GameError(400, ksapi.CodeNotYourTurn, "It is not your turn")
	}
	var r ksapi.MoveResult
	m, err := chess.ParseUCI(strings.ToLower(uci))
	switch {
	case err != nil:
		r = ksapi.MoveResult{Announcement: ksapi.InvalidUCI, Checks: []string{}}
		s.changed(g)
	case !slices.Contains(allowedMoves(g), m.String()):
		r = ksapi.MoveResult{Announcement: ksapi.IllegalMove, Checks: []string{}}
		s.changed(g)
	default:
		a, out := s.attemptIn(ev, g, col, m, m.String())
		if out != attemptJudged {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		r = kshttp.MoveReply(a)
	}
	r.Turn = strp(kshttp.ColorWord(g.ump.Side())) // the board's side to move, after the end too, as the site
	r.GameOver = g.result != ""
	r.Clock = web.clockOf(g)
	kshttp.WriteJSON(req.w, 200, r)
	return nil
}

// transcript is GET /game/{ref}/moves for a finished game: every
// attempt, the opponent's illegal ones too (as the site shows them once a
// wild16 game is over).
func transcript(g *game, viewer chess.Color) ksapi.Transcript {
	moves := []ksapi.TranscriptMove{}
	ply := 0
	for _, a := range g.answers {
		ans := kshttp.MoveReply(a)
		moves = append(moves, ksapi.TranscriptMove{Ply: ply + 1, Color: kshttp.ColorWord(a.Mover), QuestionType: ksapi.QuestionCommon,
			UCI: strp(a.Attempt.String()), MoveDone: a.Legal,
			Answer: &ksapi.TranscriptAnswer{Main: ans.Announcement, CaptureSquare: ans.CaptureSquare, CapturedPiece: ans.CapturedPiece,
				Special: ans.SpecialAnnouncement, Checks: ans.Checks, NextTurnPawnTries: ans.NextTurnPawnTries}})
		if a.Legal {
			ply++
		}
	}
	return ksapi.Transcript{GameID: g.id, RuleVariant: "wild16", ViewerColor: kshttp.ColorWord(viewer), Moves: moves}
}
