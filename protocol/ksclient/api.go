package ksclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/protocol/ksapi"
)

// Limits on what is read from the site, so that a broken or hostile reply
// costs bounded memory.
const (
	// MaxBody is the largest JSON reply read; a completed game's transcript
	// is the largest, about 1 kB per attempt.
	MaxBody = 4 << 20
	// maxMoves bounds lists of moves (allowed_moves, transcripts).
	maxMoves = 5000
	// maxGames bounds game lists (the site returns at most 20).
	maxGames = 200
	// maxBots bounds GET /bots (a server of ours holds at most 10,000).
	maxBots = 20000
)

// ErrGarbage wraps a reply that is not the JSON the API documents.
var ErrGarbage = errors.New("ksclient: reply not understood")

// The site's JSON, declared in protocol/ksapi; the names stay here so that
// callers read ksclient.State as before.
type (
	Clock          = ksapi.Clock
	Result         = ksapi.Result
	Entry          = ksapi.Entry
	Turn           = ksapi.Turn
	Scoresheet     = ksapi.Scoresheet
	State          = ksapi.State
	MoveResult     = ksapi.MoveResult
	Seat           = ksapi.Seat
	Metadata       = ksapi.Metadata
	Games          = ksapi.Games
	OpenGame       = ksapi.OpenGame
	OpenGames      = ksapi.OpenGames
	Created        = ksapi.Created
	User           = ksapi.User
	UserGame       = ksapi.UserGame
	UserGames      = ksapi.UserGames
	Pagination     = ksapi.Pagination
	Bot            = ksapi.Bot
	Bots           = ksapi.Bots
	TranscriptMove = ksapi.TranscriptMove
	Transcript     = ksapi.Transcript
	Registered     = ksapi.Registered
	GameEvent      = ksapi.GameEvent
)

// decodeInto decodes a reply into v; any error wraps ErrGarbage.
func decodeInto(b []byte, v any) error {
	if len(b) > MaxBody {
		return fmt.Errorf("%w: %d bytes", ErrGarbage, len(b))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %v", ErrGarbage, err)
	}
	return nil
}

func garbage(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrGarbage}, a...)...)
}

func validColor(s string) bool { return s == "white" || s == "black" }

func validGameState(s string) bool { return s == "waiting" || s == "active" || s == "completed" }

// validRef accepts a 24-hex id or a 6-character code: only characters that
// are safe in a path.
func validRef(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func checkClock(c *Clock) error {
	if c == nil {
		return nil
	}
	for _, v := range []*float64{c.WhiteRemaining, c.BlackRemaining} {
		if v != nil && !(*v >= -1e6 && *v <= 1e7) { // also NaN
			return garbage("clock value %v", *v)
		}
	}
	if c.ActiveColor != nil && *c.ActiveColor != "" && !validColor(*c.ActiveColor) {
		return garbage("clock active_color %q", *c.ActiveColor)
	}
	return nil
}

// ParseState decodes and checks a state reply.
func ParseState(b []byte) (State, error) {
	var s State
	if err := decodeInto(b, &s); err != nil {
		return State{}, err
	}
	switch {
	case !validGameState(s.State):
		return State{}, garbage("state %q", s.State)
	case !validColor(s.YourColor):
		return State{}, garbage("your_color %q", s.YourColor)
	case s.Turn != nil && *s.Turn != "" && !validColor(*s.Turn):
		return State{}, garbage("turn %q", *s.Turn)
	case s.MoveNumber < 0 || s.MoveNumber > 100000:
		return State{}, garbage("move_number %d", s.MoveNumber)
	case len(s.AllowedMoves) > maxMoves:
		return State{}, garbage("%d allowed moves", len(s.AllowedMoves))
	case len(s.Scoresheet.Turns) > maxMoves || len(s.RefereeTurns) > maxMoves:
		return State{}, garbage("scoresheet of %d turns", len(s.Scoresheet.Turns))
	}
	for _, m := range s.AllowedMoves {
		if _, err := ParseAttempt(m); err != nil {
			return State{}, garbage("allowed move %q", m)
		}
	}
	if len(s.Scoresheet.Turns) == 0 && len(s.RefereeTurns) > 0 {
		s.Scoresheet.Turns = s.RefereeTurns
	}
	if s.Result != nil && s.Result.Winner != nil && *s.Result.Winner != "" && !validColor(*s.Result.Winner) {
		return State{}, garbage("winner %q", *s.Result.Winner)
	}
	return s, checkClock(s.Clock)
}

// ParseMoveResult decodes and checks a move reply.
func ParseMoveResult(b []byte) (MoveResult, error) {
	var r MoveResult
	if err := decodeInto(b, &r); err != nil {
		return MoveResult{}, err
	}
	if r.Announcement == "" {
		return MoveResult{}, garbage("no announcement")
	}
	if r.CaptureSquare != nil && *r.CaptureSquare != "" {
		if _, ok := chess.ParseSquare(strings.ToLower(*r.CaptureSquare)); !ok {
			return MoveResult{}, garbage("capture_square %q", *r.CaptureSquare)
		}
	}
	if r.NextTurnPawnTries != nil && (*r.NextTurnPawnTries < 0 || *r.NextTurnPawnTries > 64) {
		return MoveResult{}, garbage("next_turn_pawn_tries %d", *r.NextTurnPawnTries)
	}
	if len(r.Checks) > 4 {
		return MoveResult{}, garbage("%d checks", len(r.Checks))
	}
	return r, checkClock(r.Clock)
}

// ParseGames decodes /game/mine/active, keeping only well-formed games.
func ParseGames(b []byte) (Games, error) {
	var g Games
	if err := decodeInto(b, &g); err != nil {
		return Games{}, err
	}
	if len(g.Games) > maxGames {
		return Games{}, garbage("%d games", len(g.Games))
	}
	ok := g.Games[:0]
	for _, m := range g.Games {
		if validRef(m.Ref()) && validGameState(m.State) {
			ok = append(ok, m)
		}
	}
	g.Games = ok
	return g, nil
}

// ParseMetadata decodes GET /game/{ref}.
func ParseMetadata(b []byte) (Metadata, error) {
	var m Metadata
	if err := decodeInto(b, &m); err != nil {
		return Metadata{}, err
	}
	if !validRef(m.Ref()) || !validGameState(m.State) {
		return Metadata{}, garbage("game %q in state %q", m.Ref(), m.State)
	}
	return m, nil
}

// ParseOpenGames decodes /game/open, keeping only well-formed rows.
func ParseOpenGames(b []byte) (OpenGames, error) {
	var g OpenGames
	if err := decodeInto(b, &g); err != nil {
		return OpenGames{}, err
	}
	if len(g.Games) > maxGames {
		return OpenGames{}, garbage("%d open games", len(g.Games))
	}
	ok := g.Games[:0]
	for _, o := range g.Games {
		if validRef(o.GameCode) && validUsername(o.CreatedBy) {
			ok = append(ok, o)
		}
	}
	g.Games = ok
	return g, nil
}

// ParseCreated decodes the reply to create or join.
func ParseCreated(b []byte) (Created, error) {
	var c Created
	if err := decodeInto(b, &c); err != nil {
		return Created{}, err
	}
	if !validRef(c.GameID) && !validRef(c.GameCode) {
		return Created{}, garbage("no game id or code")
	}
	return c, nil
}

// ParseUser decodes GET /user/{name}.
func ParseUser(b []byte) (User, error) {
	var u User
	if err := decodeInto(b, &u); err != nil {
		return User{}, err
	}
	return u, nil
}

// MaxPerPage is the most archived games the site lists on one page.
const MaxPerPage = 100

// ParseUserGames decodes GET /user/{name}/games, keeping only rows with a
// game id, a known colour and an opponent's name.
func ParseUserGames(b []byte) (UserGames, error) {
	var g UserGames
	if err := decodeInto(b, &g); err != nil {
		return UserGames{}, err
	}
	p := g.Pagination
	switch {
	case len(g.Games) > MaxPerPage:
		return UserGames{}, garbage("%d games on a page", len(g.Games))
	case p.Page < 1 || p.PerPage < 1 || p.PerPage > MaxPerPage || p.Total < 0 || p.Pages < 0:
		return UserGames{}, garbage("pagination %+v", p)
	}
	ok := g.Games[:0]
	for _, u := range g.Games {
		if validRef(u.GameID) && validColor(u.PlayAs) && validUsername(u.Opponent) {
			ok = append(ok, u)
		}
	}
	g.Games = ok
	return g, nil
}

// ParseBots decodes GET /bots, keeping only bots with a valid name.
func ParseBots(b []byte) (Bots, error) {
	var l Bots
	if err := decodeInto(b, &l); err != nil {
		return Bots{}, err
	}
	if len(l.Bots) > maxBots {
		return Bots{}, garbage("%d bots", len(l.Bots))
	}
	ok := l.Bots[:0]
	for _, bot := range l.Bots {
		if validUsername(bot.Username) {
			ok = append(ok, bot)
		}
	}
	l.Bots = ok
	return l, nil
}

// ParseTranscript decodes a completed game's transcript.
func ParseTranscript(b []byte) (Transcript, error) {
	var t Transcript
	if err := decodeInto(b, &t); err != nil {
		return Transcript{}, err
	}
	if len(t.Moves) > 4*maxMoves {
		return Transcript{}, garbage("%d moves", len(t.Moves))
	}
	return t, nil
}

// ParseRegistered decodes the registration reply.
func ParseRegistered(b []byte) (Registered, error) {
	var r Registered
	if err := decodeInto(b, &r); err != nil {
		return Registered{}, err
	}
	if r.APIToken == "" {
		return Registered{}, garbage("no api_token in the registration reply")
	}
	return r, nil
}

// validUsername is the site's username syntax (1-33 of [A-Za-z0-9_]),
// which also makes it safe in a path.
func validUsername(s string) bool {
	if len(s) < 1 || len(s) > 33 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// ValidUsername reports whether s is a username the site accepts.
func ValidUsername(s string) bool { return validUsername(s) }

// APIError is an error reply: its status, and the code and message of the
// game routes' envelope or FastAPI's detail.
type APIError struct {
	Status  int
	Code    string
	Message string
}

// ParseError reads an error body: {"error":{"code","message"}} or
// {"detail": string | {code, message} | [...]}; anything else leaves Code
// empty.
func ParseError(status int, b []byte) *APIError {
	code, msg := ksapi.ParseError(b)
	return &APIError{Status: status, Code: code, Message: msg}
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("HTTP %d", e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		m := e.Message
		if len(m) > 200 {
			m = m[:200] + "…"
		}
		s += ": " + m
	}
	return s
}
