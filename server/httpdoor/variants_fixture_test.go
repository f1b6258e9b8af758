package httpdoor

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/engine/umpire/fixture"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
)

// fixtureGames reads the first n games of a variant's fixture file
// (engine/umpire/testdata/variants) that start from the initial position.
func fixtureGames(t *testing.T, variant string, n int) []*fixture.VariantGame {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "engine", "umpire", "testdata", "variants", variant+".jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := fixture.NewVariantReader(zr)
	start := chess.StartPosition()
	board := strings.Fields(start.FEN())[0]
	var out []*fixture.VariantGame
	for len(out) < n {
		g, err := r.Next()
		if err != nil {
			t.Fatalf("%s: %v", variant, err)
		}
		if strings.HasPrefix(g.StartFEN, board) {
			out = append(out, g)
		}
	}
	return out
}

// TestHTTPReplaysVariantFixtures plays games of ks-game's fixtures of
// each variant through the HTTP door, two bots attempting the fixture's
// attempts in turn, and checks every reply's words against the site's
// referee: the announcement, the capture (square and what is said of the
// man), drop, en passant and promotion, checks, the next mover's pawn
// news, has_any; and before each attempt the mover's allowed_moves (as
// many as the site's askable list) and ask_any in possible_actions. At
// the end each side's scoresheet holds the opponent's illegal attempts
// and questions the site tells it.
func TestHTTPReplaysVariantFixtures(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	// The site's rules whole: the fixtures' games run as long as ks-game let them.
	_, _, base := startHTTP(t, server.Config{Rules: umpire.Olympiad()}, Config{MaxActivePerBot: 100})
	white, black := newAPIClient(t, base), newAPIClient(t, base)
	all := []string{"berkeley", "berkeley_any", "cincinnati", "english", "rand", "crazykrieg"}
	white.registerPlaying("fixwhite", all...)
	black.registerPlaying("fixblack", all...)
	for _, variant := range all {
		for _, fg := range fixtureGames(t, variant, games) {
			t.Run(fg.ID, func(t *testing.T) { replayFixture(t, white, black, variant, fg) })
		}
	}
}

func replayFixture(t *testing.T, white, black *apiClient, variant string, fg *fixture.VariantGame) {
	white.t, black.t = t, t
	var created struct {
		GameID   string `json:"game_id"`
		GameCode string `json:"game_code"`
	}
	white.call("POST", "/game/create", map[string]any{"rule_variant": variant, "play_as": "white"}, 201, &created)
	black.call("POST", "/game/join/"+created.GameCode, nil, 200, nil)
	path := "/game/" + created.GameID
	heard := map[byte][2]int{} // by the hearer: the opponent's illegal attempts, questions
	for i, fa := range fg.Attempts {
		mover := white
		if fa.Color == 'b' {
			mover = black
		}
		where := fmt.Sprintf("%s attempt %d (%s %s)", fg.ID, i, string(fa.Color), fa.Move)
		var st tState
		mover.call("GET", path+"/state", nil, 200, &st)
		if len(st.AllowedMoves) != fa.Possible {
			t.Fatalf("%s: %d allowed moves, the site %d: %v", where, len(st.AllowedMoves), fa.Possible, st.AllowedMoves)
		}
		if fa.AnyAskable != nil && slices.Contains(st.PossibleActions, "ask_any") != *fa.AnyAskable {
			t.Fatalf("%s: possible actions %v, ask-any askable %v", where, st.PossibleActions, *fa.AnyAskable)
		}
		var r ksapi.MoveResult
		if fa.Move == "any" {
			mover.call("POST", path+"/ask-any", nil, 200, &r)
		} else {
			mover.call("POST", path+"/move", map[string]string{"uci": fa.Move}, 200, &r)
		}
		if got := replyWords(r); got != fixtureWords(fa) {
			t.Fatalf("%s:\n got %s\nwant %s", where, got, fixtureWords(fa))
		}
		if fa.Heard && (fa.Answer == "ILLEGAL_MOVE" || fa.Move == "any") {
			other := byte('w' + 'b' - fa.Color)
			n := heard[other]
			if fa.Move == "any" {
				n[1]++
			} else {
				n[0]++
			}
			heard[other] = n
		}
	}
	for col, c := range map[byte]*apiClient{'w': white, 'b': black} {
		var st tState
		c.call("GET", path+"/state", nil, 200, &st)
		var got [2]int
		for _, turn := range st.Scoresheet.Turns {
			for _, e := range slices.Concat(turn.White, turn.Black) {
				switch {
				case e.Actor == "opponent" && e.Kind == "illegal_move":
					got[0]++
				case e.Actor == "opponent" && e.Kind == "ask_any":
					got[1]++
				}
			}
		}
		if got != heard[col] {
			t.Errorf("%s: %c heard %v of the opponent's illegal attempts and questions, want %v", fg.ID, col, got, heard[col])
		}
	}
}

// replyWords are the referee's words in a reply, in one line.
func replyWords(r ksapi.MoveResult) string {
	w := []string{r.Announcement}
	if r.CaptureSquare != nil {
		piece := "-"
		if r.CapturedPiece != nil {
			piece = strings.ToLower(*r.CapturedPiece)
		}
		w = append(w, "capture "+*r.CaptureSquare+" "+piece)
	}
	if r.DroppedPiece != nil {
		w = append(w, "drop "+strings.ToLower(*r.DroppedPiece))
	}
	if r.EnPassant != nil && *r.EnPassant {
		w = append(w, "en passant")
	}
	if r.Promotion != nil && *r.Promotion {
		w = append(w, "promotion")
	}
	var checks []string
	switch {
	case r.GameOver:
		w = append(w, "over")
	case r.SpecialAnnouncement != nil && *r.SpecialAnnouncement == "CHECK_DOUBLE":
		checks = r.Checks
	case r.SpecialAnnouncement != nil:
		checks = []string{*r.SpecialAnnouncement}
	}
	for _, c := range checks {
		w = append(w, "check "+strings.ToLower(strings.TrimPrefix(c, "CHECK_")))
	}
	if r.NextTurnPawnTries != nil {
		w = append(w, fmt.Sprint("tries ", *r.NextTurnPawnTries))
	}
	if r.NextTurnHasPawnCapture != nil {
		w = append(w, fmt.Sprint("has ", *r.NextTurnHasPawnCapture))
	}
	if r.NextTurnPawnTrySquares != nil {
		w = append(w, "from ["+strings.Join(r.NextTurnPawnTrySquares, " ")+"]")
	}
	if r.HasAny != nil {
		w = append(w, fmt.Sprint("has_any ", *r.HasAny))
	}
	return strings.Join(w, "; ")
}

// fixtureWords are the site's words for a fixture attempt, as replyWords
// writes a reply's.
func fixtureWords(a fixture.VariantAttempt) string {
	w := []string{a.Answer}
	if a.Capture != nil {
		piece := a.Capture.Kind
		if piece == "" {
			piece = "-"
		}
		w = append(w, "capture "+a.Capture.Square+" "+piece)
	}
	if a.Drop != "" {
		w = append(w, "drop "+a.Drop)
	}
	if a.EnPassant {
		w = append(w, "en passant")
	}
	if a.Promotion {
		w = append(w, "promotion")
	}
	if a.GameOver != "" {
		w = append(w, "over")
	} else if a.Moved() {
		checks := slices.Clone(a.Checks)
		for _, c := range checks {
			w = append(w, "check "+c)
		}
	}
	if a.GameOver == "" {
		if a.PawnTries != nil {
			w = append(w, fmt.Sprint("tries ", *a.PawnTries))
		}
		if a.HasPawnCapture != nil {
			w = append(w, fmt.Sprint("has ", *a.HasPawnCapture))
		}
		if a.PawnTrySquares != nil {
			w = append(w, "from ["+strings.Join(*a.PawnTrySquares, " ")+"]")
		}
	}
	if a.Move == "any" {
		w = append(w, fmt.Sprint("has_any ", a.Answer == "HAS_ANY"))
	}
	return strings.Join(w, "; ")
}
