package live

import (
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
)

// Snapshot is everything the page shows, copied out of the daemon.
type Snapshot struct {
	// Updated is when the daemon published it.
	Updated time.Time `json:"updated"`
	// Account is our handle; Server where we play.
	Account string `json:"account"`
	Server  string `json:"server"`
	// Status is what the bot does when no game runs ("waiting for a game").
	Status string `json:"status"`
	// Tourney is the bot's part in computer tournaments ("" when in none):
	// the events, their scores, the pairing or the paired game.
	Tourney  string     `json:"tourney,omitempty"`
	Score    Score      `json:"score"`
	Games    []Game     `json:"games"`
	Finished []Finished `json:"finished"`
}

// Score counts finished games from our side.
type Score struct {
	Finished int `json:"finished"`
	Wins     int `json:"wins"`
	Losses   int `json:"losses"`
	Draws    int `json:"draws"`
}

// Game is a game in progress.
type Game struct {
	Number   int    `json:"number"`
	Opponent string `json:"opponent"`
	// Us is "white" or "black".
	Us      string `json:"us"`
	Control string `json:"control"` // "1+1" (minutes + seconds)
	Ply     int    `json:"ply"`
	// ClockUs and ClockThem are milliseconds left.
	ClockUs   int64 `json:"clock_us_ms"`
	ClockThem int64 `json:"clock_them_ms"`
	// State is "our turn", "thinking" or "their turn".
	State string `json:"state"`
	// Value is the player's last value (-1 lost .. +1 won), when it has one.
	Value    float64 `json:"value"`
	HasValue bool    `json:"has_value"`
	// Own are our men by piece type (index chess.Pawn..chess.King), as
	// bitboards; Heat the belief's chance per square of the opponent's king,
	// pawns and other pieces, when the player has a belief.
	Own     [chess.King + 1]uint64           `json:"own"`
	Heat    [oppmodel.NumClasses][64]float32 `json:"heat"`
	HasHeat bool                             `json:"has_heat"`
	// Candidates are the most visited attempts of our search in the
	// position after CandidatesPly plies; the daemon leaves them out once
	// the game has moved on from that position.
	Candidates    []Candidate `json:"candidates"`
	CandidatesPly int         `json:"candidates_ply"`
	// Heard are the last referee answers, newest last.
	Heard []string `json:"heard"`
	// Rules name a variant other than wild 16 and what it announces
	// ("berkeley_any: Any? may be asked; ..."); Turn says what the turn
	// stands on (the obligation, our pawn news, the opponent's last turn)
	// and Pockets, in crazykrieg, the men each side may drop. A wild 16
	// game has none of them.
	Rules   string   `json:"rules,omitempty"`
	Turn    []string `json:"turn,omitempty"`
	Pockets string   `json:"pockets,omitempty"`
}

// Candidate is one attempt of the last search.
type Candidate struct {
	Move     string  `json:"move"`
	Visits   int64   `json:"visits"`
	Value    float64 `json:"value"` // pawns
	PIllegal float64 `json:"p_illegal"`
	PCapture float64 `json:"p_capture"`
	PCheck   float64 `json:"p_check"`
	// The root's chances: it mates, leaves a mate in one, draws by repetition.
	PMate   float64 `json:"p_mate"`
	PMated  float64 `json:"p_mated"`
	PRepeat float64 `json:"p_repeat"`
}

// Finished is a finished game.
type Finished struct {
	Number   int    `json:"number"`
	Opponent string `json:"opponent"`
	Us       string `json:"us"`
	Result   string `json:"result"`
	Reason   string `json:"reason"`
	Plies    int    `json:"plies"`
	// Record is the game record's file name (under the log folder's
	// games/), "" when records are off; the page links its replay.
	Record string `json:"record"`
}
