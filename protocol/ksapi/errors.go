package ksapi

import "encoding/json"

// Error replies (docs/kriegspiel-org-api.md §9): the game routes' envelope
// {"error":{"code","message","details"}}, and FastAPI's {"detail": ...}
// elsewhere, whose detail is a string, a {code, message} object or a list
// of validation errors.

// ErrorBody is the game routes' error.
type ErrorBody struct {
	Code    string         `json:"code"`
	Details map[string]any `json:"details"`
	Message string         `json:"message"`
}

// GameError is the game routes' error envelope.
type GameError struct {
	Error ErrorBody `json:"error"`
}

// NewGameError is the envelope of code and message, with empty details.
func NewGameError(code, message string) GameError {
	return GameError{Error: ErrorBody{Code: code, Details: map[string]any{}, Message: message}}
}

// Detail is FastAPI's error reply; Detail is a string, a *CodedDetail or
// a []Invalid.
type Detail struct {
	Detail any `json:"detail"`
}

// CodedDetail is a detail naming a code (409 USERNAME_TAKEN).
type CodedDetail struct {
	Code    string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Invalid is one validation error of a 422 detail.
type Invalid struct {
	Loc  []string `json:"loc"`
	Msg  string   `json:"msg"`
	Type string   `json:"type"`
}

// maxErrorBody bounds the bytes of an error reply read.
const maxErrorBody = 64 << 10

// ParseError reads an error reply's code and message: the envelope's, a
// string detail's (code ""), or a coded detail's. Anything else, JSON or
// not, gives "", "": an error reply is never refused, only not understood.
func ParseError(b []byte) (code, message string) {
	if len(b) > maxErrorBody {
		b = b[:maxErrorBody]
	}
	var env struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(b, &env) != nil {
		return "", ""
	}
	if env.Error != nil {
		return env.Error.Code, env.Error.Message
	}
	var s string
	if json.Unmarshal(env.Detail, &s) == nil {
		return "", s
	}
	var d struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(env.Detail, &d) == nil {
		return d.Code, d.Message
	}
	return "", ""
}

// Error codes of the game routes (docs/kriegspiel-org-api.md §9), and the 409 detail's
// USERNAME_TAKEN.
const (
	CodeGameNotFound           = "GAME_NOT_FOUND"
	CodeGameFull               = "GAME_FULL"
	CodeGameNotJoinable        = "GAME_NOT_JOINABLE"
	CodeCannotJoinOwnGame      = "CANNOT_JOIN_OWN_GAME"
	CodeGameNotWaiting         = "GAME_NOT_WAITING"
	CodeBotJoinCooldown        = "BOT_JOIN_COOLDOWN"
	CodeBotAlreadyHasOpenGame  = "BOT_ALREADY_HAS_OPEN_GAME"
	CodeForbidden              = "FORBIDDEN"
	CodeNotYourTurn            = "NOT_YOUR_TURN"
	CodeGameNotActive          = "GAME_NOT_ACTIVE"
	CodeActionNotAvailable     = "ACTION_NOT_AVAILABLE"
	CodeBotCreateRequiresHuman = "BOT_CREATE_REQUIRES_HUMAN_OPPONENT"
	CodeRuleVariantUnsupported = "RULE_VARIANT_UNSUPPORTED" // this project's server: a variant the bot's profile lacks
	CodeUsernameTaken          = "USERNAME_TAKEN"
)

// Question types of an entry or a transcript attempt.
const (
	QuestionCommon = "COMMON"
	QuestionAskAny = "ASK_ANY"
)
