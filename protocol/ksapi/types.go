package ksapi

import (
	"encoding/json"
	"strings"
)

// JSON shapes of docs/kriegspiel-org-api.md §3-§8. A field that the
// site may send as null is a pointer (or a slice); "" and 0 are real
// values.

// Clock is the clock field of a state or a move reply: seconds left,
// projected to the reply's time; ActiveColor is null while the clock is
// idle (before White's first move, and after the end).
type Clock struct {
	WhiteRemaining *float64 `json:"white_remaining"`
	BlackRemaining *float64 `json:"black_remaining"`
	ActiveColor    *string  `json:"active_color"`
}

// Result is a finished game's result; Winner is null for a draw.
type Result struct {
	Winner *string `json:"winner"`
	Reason string  `json:"reason"`
}

// An entry's kind, actor and prompt.
const (
	EntryMove     = "move"
	EntryCapture  = "capture"
	EntryIllegal  = "illegal_move"
	EntryStatus   = "status" // the next mover's pawn tries
	EntryAskAny   = "ask_any"
	ActorSelf     = "self"
	ActorOpponent = "opponent"
	// PromptOwn and PromptOpponent head an entry's message.
	PromptOwn      = "Move attempt"
	PromptOpponent = "Opponent move"
)

// Entry is one scoresheet entry. Prompt and QuestionType are "" where
// the site sends null (a status entry), and are written back as null.
type Entry struct {
	Kind         string   `json:"kind"`
	Actor        string   `json:"actor"`
	Prompt       string   `json:"prompt"`
	Message      string   `json:"message"`
	Messages     []string `json:"messages"`
	MoveUCI      *string  `json:"move_uci"`
	QuestionType string   `json:"question_type"`
}

// entryWire is Entry as written: the empty strings as null.
type entryWire struct {
	Kind         string   `json:"kind"`
	Actor        string   `json:"actor"`
	Prompt       *string  `json:"prompt"`
	Message      string   `json:"message"`
	Messages     []string `json:"messages"`
	MoveUCI      *string  `json:"move_uci"`
	QuestionType *string  `json:"question_type"`
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// MarshalJSON writes an entry, an empty prompt or question type as null.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryWire{Kind: e.Kind, Actor: e.Actor, Prompt: nullIfEmpty(e.Prompt), Message: e.Message,
		Messages: e.Messages, MoveUCI: e.MoveUCI, QuestionType: nullIfEmpty(e.QuestionType)})
}

// UnmarshalJSON reads an entry, or an older site's plain string entry
// ("e2e4 — Move complete"), whose kind is guessed from its words.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = Entry{Message: s}
		low := strings.ToLower(s)
		switch {
		case strings.Contains(low, "illegal move"):
			e.Kind = EntryIllegal
		case strings.Contains(low, "capture"):
			e.Kind = EntryCapture
		default:
			e.Kind = EntryMove
		}
		return nil
	}
	var w entryWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*e = Entry{Kind: w.Kind, Actor: w.Actor, Message: w.Message, Messages: w.Messages, MoveUCI: w.MoveUCI}
	if w.Prompt != nil {
		e.Prompt = *w.Prompt
	}
	if w.QuestionType != nil {
		e.QuestionType = *w.QuestionType
	}
	return nil
}

// Texts are the entry's referee texts: messages, or else message split
// after its prompt.
func (e Entry) Texts() []string {
	if len(e.Messages) > 0 {
		return e.Messages
	}
	m := e.Message
	if _, rest, ok := strings.Cut(m, PromptSeparator); ok {
		m = rest
	}
	if strings.TrimSpace(m) == "" {
		return nil
	}
	return strings.Split(m, TextSeparator)
}

// Separators of an entry's message: "<prompt> — <text> · <text>".
const (
	PromptSeparator = " — "
	TextSeparator   = " · "
)

// EntryMessage is an entry's message: its prompt, then its texts.
func EntryMessage(prompt string, texts []string) string {
	return prompt + PromptSeparator + strings.Join(texts, TextSeparator)
}

// Turn is one full move of the scoresheet.
type Turn struct {
	Turn  int     `json:"turn"`
	White []Entry `json:"white"`
	Black []Entry `json:"black"`
}

// Scoresheet is a player's private referee history.
type Scoresheet struct {
	ViewerColor    string `json:"viewer_color"`
	LastMoveNumber int    `json:"last_move_number"`
	Turns          []Turn `json:"turns"`
}

// LogEntry is an item of the flat referee_log: Announcement is an
// entry's human message.
type LogEntry struct {
	Ply                 int     `json:"ply"`
	Announcement        string  `json:"announcement"`
	SpecialAnnouncement *string `json:"special_announcement"`
	CaptureSquare       *string `json:"capture_square"`
	Timestamp           *string `json:"timestamp"`
}

// SideMaterial is one side's public material count.
type SideMaterial struct {
	PawnsCaptured   *int `json:"pawns_captured"`
	PiecesRemaining int  `json:"pieces_remaining"`
}

// MaterialSummary is a state's material_summary.
type MaterialSummary struct {
	Black SideMaterial `json:"black"`
	White SideMaterial `json:"white"`
}

// Reserve is one side's men in hand (crazykrieg).
type Reserve struct {
	Bishops int `json:"bishops"`
	Knights int `json:"knights"`
	Pawns   int `json:"pawns"`
	Queens  int `json:"queens"`
	Rooks   int `json:"rooks"`
}

// ReserveSummary is a state's reserve_summary.
type ReserveSummary struct {
	Black Reserve `json:"black"`
	White Reserve `json:"white"`
}

// State is GET /game/{ref}/state (docs/kriegspiel-org-api.md §4).
type State struct {
	GameID          string           `json:"game_id"`
	State           string           `json:"state"`
	Turn            *string          `json:"turn"`
	MoveNumber      int              `json:"move_number"`
	YourColor       string           `json:"your_color"`
	YourFEN         string           `json:"your_fen"`
	AllowedMoves    []string         `json:"allowed_moves"`
	PossibleActions []string         `json:"possible_actions"`
	Material        *MaterialSummary `json:"material_summary"`
	Reserve         *ReserveSummary  `json:"reserve_summary"`
	Scoresheet      Scoresheet       `json:"scoresheet"`
	RefereeTurns    []Turn           `json:"referee_turns"`
	RefereeLog      []LogEntry       `json:"referee_log"`
	Result          *Result          `json:"result"`
	Clock           *Clock           `json:"clock"`
}

// MoveRequest is the body of POST /game/{ref}/move.
type MoveRequest struct {
	UCI string `json:"uci"`
}

// MoveResult is the reply to POST /game/{ref}/move and ask-any (docs/kriegspiel-org-api.md §5).
type MoveResult struct {
	MoveDone               bool     `json:"move_done"`
	Announcement           string   `json:"announcement"`
	SpecialAnnouncement    *string  `json:"special_announcement"`
	Checks                 []string `json:"checks"`
	CaptureSquare          *string  `json:"capture_square"`
	CapturedPiece          *string  `json:"captured_piece_announcement"`
	DroppedPiece           *string  `json:"dropped_piece_announcement"`
	EnPassant              *bool    `json:"en_passant_announced"`
	Promotion              *bool    `json:"promotion_announced"`
	NextTurnPawnTries      *int     `json:"next_turn_pawn_tries"`
	NextTurnHasPawnCapture *bool    `json:"next_turn_has_pawn_capture"`
	NextTurnPawnTrySquares []string `json:"next_turn_pawn_try_squares"`
	Turn                   *string  `json:"turn"`
	GameOver               bool     `json:"game_over"`
	Clock                  *Clock   `json:"clock"`
}

// Resigned is the reply to POST /game/{ref}/resign.
type Resigned struct {
	Result *Result `json:"result"`
}

// Seat is one side of a game's metadata.
type Seat struct {
	Username  string         `json:"username"`
	Connected bool           `json:"connected"`
	Role      string         `json:"role"`
	Elo       int            `json:"elo"`
	Ratings   map[string]any `json:"ratings"`
}

// Metadata is GameMetadata: an item of /game/mine/active, or GET /game/{ref}.
type Metadata struct {
	GameID         string  `json:"game_id"`
	GameCode       string  `json:"game_code"`
	RuleVariant    string  `json:"rule_variant"`
	State          string  `json:"state"`
	OpponentType   string  `json:"opponent_type"`
	White          *Seat   `json:"white"`
	Black          *Seat   `json:"black"`
	Turn           *string `json:"turn"`
	MoveNumber     int     `json:"move_number"`
	CreatedAt      string  `json:"created_at"`
	UpdatedAt      string  `json:"updated_at"`
	Result         *Result `json:"result"`
	RatingSnapshot any     `json:"rating_snapshot"`
}

// Ref is how the game is named in paths: its id, else its code.
func (m Metadata) Ref() string {
	if m.GameID != "" {
		return m.GameID
	}
	return m.GameCode
}

// Games is GET /game/mine/active (and /game/mine, /game/mine/archived).
type Games struct {
	Games []Metadata `json:"games"`
}

// OpenGame is an item of GET /game/open.
type OpenGame struct {
	AvailableColor string `json:"available_color"`
	CreatedAt      string `json:"created_at"`
	CreatedBy      string `json:"created_by"`
	GameCode       string `json:"game_code"`
	RuleVariant    string `json:"rule_variant"`
}

// OpenGames is GET /game/open.
type OpenGames struct {
	Games []OpenGame `json:"games"`
}

// CreateGame is the body of POST /game/create; a field left nil takes
// the site's default.
type CreateGame struct {
	BotID        *string `json:"bot_id,omitempty"`
	OpponentType *string `json:"opponent_type,omitempty"`
	PlayAs       *string `json:"play_as,omitempty"`
	RuleVariant  *string `json:"rule_variant,omitempty"`
	TimeControl  *string `json:"time_control,omitempty"`
}

// Created is the reply to POST /game/create; a client reads the reply
// to POST /game/join/{code} (Joined) into it too.
type Created struct {
	Bot          any     `json:"bot"`
	GameCode     string  `json:"game_code"`
	GameID       string  `json:"game_id"`
	GameURL      *string `json:"game_url"`
	JoinURL      string  `json:"join_url"`
	OpponentType string  `json:"opponent_type"`
	PlayAs       string  `json:"play_as"`
	RuleVariant  string  `json:"rule_variant"`
	State        string  `json:"state"`
}

// Joined is the reply to POST /game/join/{code}.
type Joined struct {
	GameCode    string `json:"game_code"`
	GameID      string `json:"game_id"`
	GameURL     string `json:"game_url"`
	PlayAs      string `json:"play_as"`
	RuleVariant string `json:"rule_variant"`
	State       string `json:"state"`
}

// User is GET /user/{name}.
type User struct {
	DisplayName string         `json:"display_name"`
	Elo         int            `json:"elo"`
	IsBot       bool           `json:"is_bot"`
	Ratings     map[string]any `json:"ratings"`
	Role        string         `json:"role"`
	Stats       map[string]any `json:"stats"`
	Username    string         `json:"username"`
}

// Bot is an item of GET /bots.
type Bot struct {
	BotID        string         `json:"bot_id"`
	Description  string         `json:"description"`
	DisplayName  string         `json:"display_name"`
	Elo          int            `json:"elo"`
	Ratings      map[string]any `json:"ratings"`
	RuleVariants []string       `json:"supported_rule_variants"`
	Username     string         `json:"username"`
}

// Bots is GET /bots.
type Bots struct {
	Bots []Bot `json:"bots"`
}

// Profile is the body of POST /bots/profile.
type Profile struct {
	RuleVariants []string `json:"supported_rule_variants"`
}

// ProfileSaved is the reply to POST /bots/profile.
type ProfileSaved struct {
	OK           bool     `json:"ok"`
	RuleVariants []string `json:"supported_rule_variants"`
}

// OK is a bare {"ok": true} reply (POST /bots/availability).
type OK struct {
	OK bool `json:"ok"`
}

// Health is GET /health.
type Health struct {
	DB      string `json:"db"`
	Status  string `json:"status"`
	Version string `json:"version"`
}

// Registration is the body of POST /auth/bots/register; nil is a field
// not sent (Listed then takes the site's default).
type Registration struct {
	Username     *string  `json:"username"`
	DisplayName  *string  `json:"display_name"`
	OwnerEmail   *string  `json:"owner_email"`
	Description  *string  `json:"description"`
	Listed       *bool    `json:"listed,omitempty"`
	RuleVariants []string `json:"supported_rule_variants"`
}

// Registered is the reply to POST /auth/bots/register: the token is shown
// only there.
type Registered struct {
	APIToken    string `json:"api_token"`
	BotID       string `json:"bot_id"`
	DisplayName string `json:"display_name"`
	Message     string `json:"message"`
	OwnerEmail  string `json:"owner_email"`
	Username    string `json:"username"`
}

// TranscriptAnswer is the referee's answer to one transcript attempt.
type TranscriptAnswer struct {
	CaptureSquare          *string  `json:"capture_square"`
	CapturedPiece          *string  `json:"captured_piece_announcement"`
	Checks                 []string `json:"checks"`
	DroppedPiece           *string  `json:"dropped_piece_announcement"`
	EnPassant              *bool    `json:"en_passant_announced"`
	Main                   string   `json:"main"`
	NextTurnHasPawnCapture *bool    `json:"next_turn_has_pawn_capture"`
	NextTurnPawnTries      *int     `json:"next_turn_pawn_tries"`
	NextTurnPawnTrySquares []string `json:"next_turn_pawn_try_squares"`
	Promotion              *bool    `json:"promotion_announced"`
	Special                *string  `json:"special"`
}

// TranscriptMove is one attempt of a transcript.
type TranscriptMove struct {
	Answer       *TranscriptAnswer `json:"answer"`
	Color        string            `json:"color"`
	MoveDone     bool              `json:"move_done"`
	Ply          int               `json:"ply"`
	QuestionType string            `json:"question_type"`
	ReplayFEN    any               `json:"replay_fen"`
	Timestamp    *string           `json:"timestamp"`
	UCI          *string           `json:"uci"`
}

// Transcript is GET /game/{ref}/moves (docs/kriegspiel-org-api.md §6).
type Transcript struct {
	GameID      string           `json:"game_id"`
	Moves       []TranscriptMove `json:"moves"`
	RuleVariant string           `json:"rule_variant"`
	// ViewerColor is the asker's colour, null for one who did not play.
	ViewerColor *string `json:"viewer_color"`
}

// GameEvent is an event stream's data (docs/kriegspiel-org-api.md §7): a ping saying the game
// changed; the state is fetched after it.
type GameEvent struct {
	Type       string  `json:"type"`
	GameID     string  `json:"game_id"`
	GameCode   string  `json:"game_code"`
	State      string  `json:"state"`
	Turn       *string `json:"turn"`
	MoveNumber int     `json:"move_number"`
	UpdatedAt  string  `json:"updated_at"`
}

// Shutdown is the data of the "shutdown" event.
type Shutdown struct {
	Type string `json:"type"`
}

// UserGame is an item of GET /user/{name}/games: one archived game seen
// from that user's side.
type UserGame struct {
	GameID      string `json:"game_id"`
	GameCode    string `json:"game_code"`
	RuleVariant string `json:"rule_variant"`
	Opponent    string `json:"opponent"`
	// OpponentRole is "user", "guest" or "bot".
	OpponentRole string `json:"opponent_role"`
	// PlayAs is the user's colour, "white" or "black".
	PlayAs string `json:"play_as"`
	// Result is the user's: "win", "loss" or "draw".
	Result    string `json:"result"`
	Reason    string `json:"reason"`
	MoveCount int    `json:"move_count"`
	TurnCount int    `json:"turn_count"`
	PlayedAt  string `json:"played_at"`
	EloBefore *int   `json:"elo_before"`
	EloAfter  *int   `json:"elo_after"`
	EloDelta  *int   `json:"elo_delta"`
}

// Pagination is the paging of a long list.
type Pagination struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total"`
	Pages   int `json:"pages"`
}

// UserGames is GET /user/{name}/games?page=&per_page=: archived games only,
// newest first.
type UserGames struct {
	Games      []UserGame `json:"games"`
	Pagination Pagination `json:"pagination"`
}
