package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// Version is the record schema's version, written on the game line as "v".
// Records without "v" are version 1 (the same lines, before it was written).
// Version 2 writes the referee's answer as data (AnswerLine's capture,
// checks, tries, ending) where version 1 wrote ICC's English words
// ("referee"); both are read.
const Version = 2

// Line types, the "type" field of each line.
const (
	TypeGame    = "game"
	TypeAttempt = "attempt"
	TypeAnswer  = "answer"
	TypeClock   = "clock"
	TypeResync  = "resync"
	TypeResult  = "result"
	TypeMoves   = "moves"
	TypePonder  = "ponder"
)

// GameLine is a record's first line: the game, and what rebuilds the player
// (Seed and Player).
type GameLine struct {
	Type    string `json:"type"`
	V       int    `json:"v,omitempty"`
	Game    int    `json:"game"`
	White   string `json:"white"`
	Black   string `json:"black"`
	Us      string `json:"us"` // "white" or "black"
	BaseMin int    `json:"base_min"`
	IncS    int    `json:"inc_s"`
	Rated   bool   `json:"rated"`
	// Wild is ICC's wild number (16: Kriegspiel); a game of another
	// variant (Variant) has none, and writes none.
	Wild   int    `json:"wild,omitempty"`
	Seed   Seed   `json:"seed"`
	Player string `json:"player"`
	Start  string `json:"start"` // RFC 3339, UTC
	// Build names the program that played (its build identity).
	Build string `json:"build,omitempty"`
	// OpponentModel names the per-opponent model the player was given.
	OpponentModel string `json:"opponent_model,omitempty"`
	// OpponentCounts is the file, beside the record, holding the counts
	// that model was blended from (an opponent-model file), and
	// OpponentCountsSHA256 its SHA-256 in hex, so a replay gives the
	// player the same model and knows it is the same.
	OpponentCounts       string `json:"opponent_counts,omitempty"`
	OpponentCountsSHA256 string `json:"opponent_counts_sha256,omitempty"`
	// BaseModel names the model of the game's variant the player was given
	// when it was not the embedded default (a file `kriegbot model build`
	// wrote: its path, hash and source); a per-opponent model is blended
	// over it. BaseCounts is that file's copy beside the record and
	// BaseCountsSHA256 its SHA-256, as for OpponentCounts.
	BaseModel        string `json:"base_model,omitempty"`
	BaseCounts       string `json:"base_counts,omitempty"`
	BaseCountsSHA256 string `json:"base_counts_sha256,omitempty"`
	// Rules name the referee's rules the player was given ("icc" when
	// absent, as in records written before it was), with the server's
	// adjudications: the move cap, the reversible-move cap and dead
	// material.
	Rules string `json:"rules,omitempty"`
	// Variant is the rule variant by the site's identifier (umpire.Variant;
	// absent: wild 16).
	Variant       string `json:"variant,omitempty"`
	MaxPlies      int    `json:"max_plies,omitempty"`
	MaxReversible int    `json:"max_reversible,omitempty"`
	DeadMaterial  bool   `json:"dead_material,omitempty"`
	// TC is the time control in PGN's form ("10+0.1", seconds) when
	// base_min and inc_s cannot say it (a match's clock); FEN the set-up
	// position the game began from (a match's -positions), and HiddenKing
	// that the players did not know where the opponent's king stood in it.
	TC         string `json:"tc,omitempty"`
	FEN        string `json:"fen,omitempty"`
	HiddenKing bool   `json:"hidden_king,omitempty"`
}

// SetRules fills the rules fields from r; a variant other than wild 16
// takes the wild number off (a berkeley game is no wild 16).
func (l *GameLine) SetRules(r umpire.Rules) {
	l.Rules, l.MaxPlies, l.MaxReversible, l.DeadMaterial = r.Name, r.MaxPlies, r.MaxReversible, r.DeadMaterial
	l.Variant = r.Variant.Name
	if !r.Variant.IsWild16() {
		l.Wild = 0
	}
}

// ParseRules returns the rules named name ("" for ICC's) under the variant
// named variant ("" for wild 16), as a game line or a match file names them.
func ParseRules(name, variant string) (umpire.Rules, error) {
	r := umpire.ICC()
	if name != "" {
		var err error
		if r, err = umpire.ParseRules(name); err != nil {
			return r, err
		}
	}
	if variant != "" {
		v, err := umpire.ParseVariant(variant)
		if err != nil {
			return r, err
		}
		r.Variant = v
	}
	return r, nil
}

// MoveText writes an attempt as records spell it: UCI, "N@e4" for a drop
// (umpire.MoveText), "any" for the "Any?" question (chess.NullMove).
func MoveText(m chess.Move) string {
	if m == chess.NullMove {
		return AskAny
	}
	return umpire.MoveText(m)
}

// SAN writes the legal move m of pos in SAN, a drop as "N@e4".
func SAN(pos *chess.Position, m chess.Move) string {
	if umpire.IsDrop(m) {
		return umpire.MoveText(m)
	}
	return pos.SAN(m)
}

// AskAny is the "Any?" question as an attempt line spells it.
const AskAny = "any"

// AttemptLine is an attempt we sent, with the search behind it.
type AttemptLine struct {
	Type   string      `json:"type"`
	Move   string      `json:"move"` // UCI
	T      string      `json:"t"`
	Search *SearchLine `json:"search,omitempty"`
}

// SearchLine is a recorded search.
type SearchLine struct {
	// Iterations is exactly the iterations run: a replay re-runs this many.
	Iterations int64 `json:"iterations"`
	// Trees is each tree's iterations when the player searched several
	// trees in parallel (their sum is Iterations): a replay repeats each.
	Trees []int64 `json:"trees,omitempty"`
	Nodes int64   `json:"nodes"`
	// Boards is the number of boards the root counted its mate chances on,
	// sized to the search's budget: a replay counts on as many (absent in
	// records before the count was sized, which counted on 32).
	Boards int `json:"boards,omitempty"`
	// Score is Value in the users' unit: the expected result, -1..+1.
	Score  float64 `json:"score"`
	Value  float64 `json:"value"`
	Proven bool    `json:"proven"`
	// Critical says the search planned to its clock's maximum: the choice
	// was critical (in check, mate chances, a likely capture).
	Critical bool            `json:"critical,omitempty"`
	Top      []CandidateLine `json:"top"`
}

// CandidateLine is one of the root's most visited attempts.
type CandidateLine struct {
	Move     string  `json:"move"`
	Visits   int64   `json:"visits"`
	Score    float64 `json:"score"` // -1..+1, as SearchLine.Score
	Value    float64 `json:"value"`
	PIllegal float64 `json:"p_illegal"`
	PCapture float64 `json:"p_capture"`
	PCheck   float64 `json:"p_check"`
	// The root's chances that the attempt mates, leaves a mate in one,
	// draws by repetition (absent when 0; records before them have none).
	PMate   float64 `json:"p_mate,omitempty"`
	PMated  float64 `json:"p_mated,omitempty"`
	PRepeat float64 `json:"p_repeat,omitempty"`
}

// AnswerLine is a referee answer as we heard it.
type AnswerLine struct {
	Type string `json:"type"`
	Own  *bool  `json:"own"`
	// Move (UCI) and Legal are set on our own answers only; a refusal is
	// legal: false, with no announcement.
	Move  string `json:"move,omitempty"`
	Legal *bool  `json:"legal,omitempty"`
	// What the referee announced on a legal move (version 2).
	Announced
	// Referee is version 1's answer: ICC's words ("Pawn at d5 captured").
	Referee []string `json:"referee,omitempty"`
	T       string   `json:"t"`
}

// Announced is what the referee announced on a legal move, as data: the
// square of a capture and what was captured ("pawn" or "piece"), the checks
// (rank, file, long_diagonal, short_diagonal, knight, in the referee's
// order), the pawn tries when announced (0 included), and the ending the
// move brought ("checkmate", ...). An answer line and a referee line
// (referee.go) both hold it, spelled alike.
//
// The variants beyond wild 16 (umpire.Variant) add: what was captured as
// the variant says it ("man" untyped, "knight" ... "queen" exact),
// en_passant and promotion when announced, drop (the dropped man's type),
// the next mover's pawn news (has_pawn_capture, or try_from: the squares
// of the pawns that can capture, space-separated, "" for none); and on an
// answer that plays no move (legal: false), has_any (the answer to "Any?")
// or refusal (IMPOSSIBLE_TO_ASK or NONSENSE, a refusal off the referee's
// list; without either it is an "Illegal move").
type Announced struct {
	Capture        string   `json:"capture,omitempty"`
	Captured       string   `json:"captured,omitempty"`
	EnPassant      bool     `json:"en_passant,omitempty"`
	Promotion      bool     `json:"promotion,omitempty"`
	Drop           string   `json:"drop,omitempty"`
	Checks         []string `json:"checks,omitempty"`
	Tries          *int     `json:"tries,omitempty"`
	HasPawnCapture *bool    `json:"has_pawn_capture,omitempty"`
	TryFrom        *string  `json:"try_from,omitempty"`
	Ending         string   `json:"ending,omitempty"`
	HasAny         *bool    `json:"has_any,omitempty"`
	Refusal        string   `json:"refusal,omitempty"`
}

// PonderLine is what the player thought during the opponent's turn, written
// when the opponent's move came (before its answer line): a replay repeats
// the ponder with these counts before it hands the player that answer.
type PonderLine struct {
	Type       string  `json:"type"`
	Iterations int64   `json:"iterations"`
	Trees      []int64 `json:"trees,omitempty"`
	T          string  `json:"t"`
}

// ClockLine is both clocks as the player was told them.
type ClockLine struct {
	Type     string `json:"type"`
	OursMs   *int64 `json:"ours_ms"`
	TheirsMs *int64 `json:"theirs_ms"`
	T        string `json:"t"`
}

// ResyncLine marks where the player was rebuilt from the server's move list.
type ResyncLine struct {
	Type  string `json:"type"`
	Plies int    `json:"plies"`
	Why   string `json:"why"`
	T     string `json:"t"`
}

// ResultLine is how the game ended.
type ResultLine struct {
	Type    string `json:"type"`
	Result  string `json:"result"`
	Code    string `json:"code"`
	Reason  string `json:"reason"`
	Plies   int    `json:"plies"`
	Illegal int    `json:"illegal"`
	LagMs   int64  `json:"lag_ms"`
	T       string `json:"t"`
}

// MovesLine is the whole game in SAN, revealed after its end: the last line.
type MovesLine struct {
	Type string   `json:"type"`
	SAN  []string `json:"san"`
}

// Seed is a 64-bit seed. It is written as a JSON number and read from a
// number or a string of digits (match files write strings, since readers
// that turn numbers into doubles lose its last digits).
type Seed uint64

// MarshalJSON writes the seed as a number.
func (s Seed) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(s), 10), nil }

// UnmarshalJSON reads a number or a string of digits.
func (s *Seed) UnmarshalJSON(b []byte) error {
	str := string(b)
	if len(str) >= 2 && str[0] == '"' && str[len(str)-1] == '"' {
		str = str[1 : len(str)-1]
	}
	u, err := strconv.ParseUint(str, 10, 64)
	if err != nil {
		return fmt.Errorf("seed: %.40s is not an unsigned 64-bit number", b)
	}
	*s = Seed(u)
	return nil
}

// typeOf reads a line's "type" field.
func typeOf(line []byte) (string, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := decode(line, &head); err != nil {
		return "", err
	}
	if head.Type == "" {
		return "", errors.New("no type")
	}
	return head.Type, nil
}

// decode unmarshals one JSON object and says what is wrong in a line's terms.
func decode(line []byte, v any) error {
	if len(line) == 0 || line[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := json.Unmarshal(line, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fmt.Errorf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("not valid JSON: %v", err)
		}
		return err // a field's own check (Seed)
	}
	return nil
}
