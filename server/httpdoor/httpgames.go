package httpdoor

import (
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/kshttp"
)

// The HTTP door's games: the lobby (a bot's waiting game is a seek ad,
// and every automatic seek ad is a lobby game) and the game routes; the
// JSON views of games are in httpview.go.

// lookup finds a game reference among the seek ads, the games in
// progress and the finished games kept.
func (web *Door) lookup(ref string) (*server.Seek, *server.Game) {
	key, kind := kshttp.ParseRef(ref)
	if kind == kshttp.RefBad {
		return nil, nil
	}
	return web.s.FindKey(key, kind == kshttp.RefCode)
}

func (web *Door) waitingOf(bot *webBot) *server.Seek {
	s := web.s
	for _, sk := range s.SeekAds() {
		if sk.Bot() == bot {
			return sk
		}
	}
	return nil
}

func (web *Door) activeCount(bot *webBot) int {
	s := web.s
	n := 0
	for _, g := range s.GamesInProgress() {
		if _, ok := g.SeatOf(bot); ok {
			n++
		}
	}
	return n
}

// noteVariant logs, once per bot and variant, a lobby game of a variant
// this server does not play: the site's Python bots create berkeley_any
// games by default, and a refused create aborts their whole poll round
// (they then play nothing), which the operator can only see here.
func (web *Door) noteVariant(bot *webBot, variant string) {
	s := web.s
	s.Lock()
	seen := bot.refusedVariant == variant
	bot.refusedVariant = variant
	s.Unlock()
	if !seen {
		s.Note().Msgf("http: bot %s asks for a %q lobby game; only wild16 is played here (a site bot needs KRIEGSPIEL_AUTO_CREATE_RULE_VARIANT=wild16)", bot.username, variant)
	}
}

// apiGame runs the game routes but the event stream.
func (web *Door) apiGame(req *request) *kshttp.Error {
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
	s.Lock()
	defer s.Unlock()
	sk, g := web.lookup(req.param)
	if sk == nil && g == nil {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	}
	col, player := chess.White, false
	if g != nil {
		col, player = g.SeatOf(bot)
	} else if sk.Bot() == bot {
		player = true
		if sk.Color() == "black" {
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
	if req.route == kshttp.RouteMoves && !player && g != nil && g.Result() != "" {
		// A finished game's transcript is for any signed-in user, as on
		// the site (model fetch reads games it did not play).
		kshttp.WriteJSON(req.w, 200, transcript(g, nil))
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
		ev := s.NewEvents()
		s.RemoveSeek(ev, sk, 3)
		ev.Flush()
		web.endStreams(sk.ID())
		req.w.WriteHeader(204)
		return nil
	case kshttp.RouteState:
		if g == nil {
			kshttp.WriteJSON(req.w, 200, waitingStateFor(sk))
			return nil
		}
		if g.Result() == "" {
			ev := s.NewEvents()
			s.CheckFlag(ev, g)
			ev.Flush()
		}
		kshttp.WriteJSON(req.w, 200, web.gameStateFor(g, col))
		return nil
	case kshttp.RouteAskAny:
		if g == nil || g.Result() != "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		return kshttp.GameError(400, ksapi.CodeActionNotAvailable, "wild16 has no ask-any")
	case kshttp.RouteResign:
		if g == nil || g.Result() != "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		ev := s.NewEvents()
		s.Resign(ev, g, col)
		ev.Flush()
		kshttp.WriteJSON(req.w, 200, ksapi.Resigned{Result: resultOf(g)})
		return nil
	case kshttp.RouteMoves:
		if g == nil || g.Result() == "" {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "The transcript is shown once the game is over")
		}
		kshttp.WriteJSON(req.w, 200, transcript(g, strp(kshttp.ColorWord(col))))
		return nil
	}
	return kshttp.DetailError(404, "Not Found")
}

func (web *Door) apiMine(req *request) *kshttp.Error {
	s := web.s
	s.Lock()
	defer s.Unlock()
	var list []ksapi.Metadata
	if req.route != kshttp.RouteMineArchived {
		if sk := web.waitingOf(req.bot); sk != nil {
			list = append(list, web.seekMeta(sk))
		}
		var live []*server.Game
		for _, g := range s.GamesInProgress() {
			if _, ok := g.SeatOf(req.bot); ok {
				live = append(live, g)
			}
		}
		slices.SortFunc(live, func(a, b *server.Game) int { return b.Number() - a.Number() })
		for _, g := range live {
			list = append(list, web.gameMeta(g))
		}
	}
	if req.route != kshttp.RouteMineActive {
		done := s.GamesFinished()
		for i := len(done) - 1; i >= 0 && len(list) < 20; i-- {
			if _, ok := done[i].SeatOf(req.bot); ok {
				list = append(list, web.gameMeta(done[i]))
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
func (web *Door) apiOpen(req *request) *kshttp.Error {
	s := web.s
	s.Lock()
	defer s.Unlock()
	ads := s.SeekAds()
	list := []ksapi.OpenGame{}
	for i := len(ads) - 1; i >= 0 && len(list) < 20; i-- {
		sk := ads[i]
		if sk.Manual() {
			continue
		}
		avail := "random"
		switch sk.Color() {
		case "white":
			avail = "black"
		case "black":
			avail = "white"
		}
		list = append(list, ksapi.OpenGame{GameCode: sk.Code(), RuleVariant: "wild16", CreatedBy: sk.OwnerName(),
			CreatedAt: kshttp.ISOTime(sk.PostedAt()), AvailableColor: avail})
	}
	kshttp.WriteJSON(req.w, 200, ksapi.OpenGames{Games: list})
	return nil
}

func (web *Door) apiCreate(req *request, color string) *kshttp.Error {
	s := web.s
	s.Lock()
	defer s.Unlock()
	if web.waitingOf(req.bot) != nil {
		return kshttp.GameError(409, ksapi.CodeBotAlreadyHasOpenGame, "You already have a waiting game")
	}
	cfg := &web.cfg
	ev := s.NewEvents()
	sk := s.PostBotSeek(ev, req.bot, cfg.Minutes, cfg.Inc, color)
	ev.Flush()
	sk.SetExpiry(time.AfterFunc(cfg.WaitingTTL, func() { web.expireSeek(sk) }))
	kshttp.WriteJSON(req.w, 201, ksapi.Created{GameID: sk.ID(), GameCode: sk.Code(), PlayAs: color, RuleVariant: "wild16",
		State: "waiting", JoinURL: "/join/" + sk.Code(), OpponentType: "human"})
	return nil
}

// expireSeek removes a bot's waiting game nobody joined (no event, as on
// the site; its streams end).
func (web *Door) expireSeek(sk *server.Seek) {
	s := web.s
	s.Lock()
	defer s.Unlock()
	if !s.HasSeek(sk) {
		return
	}
	ev := s.NewEvents()
	s.RemoveSeek(ev, sk, 3)
	ev.Flush()
	web.endStreams(sk.ID())
}

func (web *Door) apiJoin(req *request) *kshttp.Error {
	s := web.s
	code, kind := kshttp.ParseRef(req.param)
	if kind != kshttp.RefCode {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	}
	s.Lock()
	defer s.Unlock()
	sk, g := s.FindKey(code, true)
	now := s.Now()
	bot, cfg := req.bot, &web.cfg
	switch {
	case g != nil:
		return kshttp.GameError(409, ksapi.CodeGameFull, "Game already has two players")
	case sk == nil:
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	case sk.Bot() == bot:
		return kshttp.GameError(409, ksapi.CodeCannotJoinOwnGame, "You cannot join your own game")
	case sk.Manual() || sk.OwnerBusy():
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "Game cannot be joined")
	case sk.Rated() && !inRange(s.Rating(bot.username), sk):
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "Your rating is outside the game's range")
	case cfg.JoinCooldown > 0 && !bot.lastJoin.IsZero() && now.Sub(bot.lastJoin) < cfg.JoinCooldown:
		return kshttp.GameError(409, ksapi.CodeBotJoinCooldown, "Bots may join one game per minute")
	case web.activeCount(bot) >= cfg.MaxActivePerBot:
		return kshttp.GameError(409, ksapi.CodeGameNotJoinable, "You are playing too many games")
	}
	ev := s.NewEvents()
	g = s.TakeSeek(ev, sk, bot)
	ev.Flush()
	bot.lastJoin = now
	col, _ := g.SeatOf(bot)
	kshttp.WriteJSON(req.w, 200, ksapi.Joined{GameID: g.ID(), GameCode: g.Code(), PlayAs: kshttp.ColorWord(col),
		RuleVariant: "wild16", State: "active", GameURL: "/game/" + g.ID()})
	return nil
}

// apiMove referees POST /game/{ref}/move: a UCI outside allowed_moves is
// refused (ILLEGAL_MOVE, or INVALID_UCI when it does not parse) without
// troubling the umpire or the record; the rest goes to the umpire.
func (web *Door) apiMove(req *request, uci string) *kshttp.Error {
	s := web.s
	s.Lock()
	defer s.Unlock()
	sk, g := web.lookup(req.param)
	if sk == nil && g == nil {
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	}
	var col chess.Color
	var player bool
	if g != nil {
		col, player = g.SeatOf(req.bot)
	} else {
		player = sk.Bot() == req.bot
	}
	if req.route == kshttp.RouteMoves && !player && g != nil && g.Result() != "" {
		// A finished game's transcript is for any signed-in user, as on
		// the site (model fetch reads games it did not play).
		kshttp.WriteJSON(req.w, 200, transcript(g, nil))
		return nil
	}
	if !player {
		return kshttp.GameError(403, ksapi.CodeForbidden, "You are not a participant of this game")
	}
	if g == nil || g.Result() != "" {
		return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
	}
	ev := s.NewEvents()
	defer ev.Flush()
	if s.CheckFlag(ev, g) {
		return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game timed out")
	}
	if g.Umpire().Side() != col {
		return kshttp.GameError(400, ksapi.CodeNotYourTurn, "It is not your turn")
	}
	var r ksapi.MoveResult
	m, err := chess.ParseUCI(strings.ToLower(uci))
	switch {
	case err != nil:
		r = ksapi.MoveResult{Announcement: ksapi.InvalidUCI, Checks: []string{}}
		s.Changed(g)
	case !slices.Contains(allowedMoves(g), m.String()):
		r = ksapi.MoveResult{Announcement: ksapi.IllegalMove, Checks: []string{}}
		s.Changed(g)
	default:
		a, out := s.Attempt(ev, g, col, m, m.String())
		if out != server.AttemptJudged {
			return kshttp.GameError(400, ksapi.CodeGameNotActive, "Game is not active")
		}
		r = kshttp.MoveReply(a)
	}
	r.Turn = strp(kshttp.ColorWord(g.Umpire().Side())) // the board's side to move, after the end too, as the site
	r.GameOver = g.Result() != ""
	r.Clock = web.clockOf(g)
	kshttp.WriteJSON(req.w, 200, r)
	return nil
}

// transcript is GET /game/{ref}/moves for a finished game: every
// attempt, the opponent's illegal ones too (as the site shows them once a
// wild16 game is over); viewer is the asker's colour, nil for one who did
// not play.
func transcript(g *server.Game, viewer *string) ksapi.Transcript {
	moves := []ksapi.TranscriptMove{}
	ply := 0
	for _, a := range g.Answers() {
		ans := kshttp.MoveReply(a)
		moves = append(moves, ksapi.TranscriptMove{Ply: ply + 1, Color: kshttp.ColorWord(a.Mover), QuestionType: ksapi.QuestionCommon,
			UCI: strp(a.Attempt.String()), MoveDone: a.Legal,
			Answer: &ksapi.TranscriptAnswer{Main: ans.Announcement, CaptureSquare: ans.CaptureSquare, CapturedPiece: ans.CapturedPiece,
				Special: ans.SpecialAnnouncement, Checks: ans.Checks, NextTurnPawnTries: ans.NextTurnPawnTries}})
		if a.Legal {
			ply++
		}
	}
	return ksapi.Transcript{GameID: g.ID(), RuleVariant: "wild16", ViewerColor: viewer, Moves: moves}
}

// inRange reports whether rating is in sk's range of takers' ratings.
func inRange(rating int, sk *server.Seek) bool {
	lo, hi := sk.RatingRange()
	return rating >= lo && rating <= hi
}
