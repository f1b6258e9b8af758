package kshttp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// playVariant plays the attempts ("any" asks) under the site's rules for
// variant, and returns the answers a game keeps (a refusal off the list
// is kept nowhere, as on the site) and the last answer given.
func playVariant(t *testing.T, variant string, attempts ...string) ([]umpire.Answer, umpire.Answer) {
	t.Helper()
	v, err := umpire.ParseVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	u := umpire.New(umpire.Site(v))
	var kept []umpire.Answer
	var a umpire.Answer
	for _, s := range attempts {
		if s == "any" {
			a, err = u.AskAny()
		} else {
			m, perr := umpire.ParseMoveText(s)
			if perr != nil {
				t.Fatal(perr)
			}
			a, err = u.Attempt(m)
		}
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if a.Legal || a.Verdict == umpire.IllegalMove || a.Verdict == umpire.HasAny || a.Verdict == umpire.NoAny {
			kept = append(kept, a)
		}
	}
	return kept, a
}

// sheet is viewer's referee log, "<ply> <message>" a line.
func sheet(answers []umpire.Answer, viewer chess.Color) []string {
	_, logs := Scoresheet(answers, viewer)
	var out []string
	for _, l := range logs {
		out = append(out, fmt.Sprintf("%d %s", l.Ply, l.Announcement))
	}
	return out
}

// TestVariantScoresheets: each variant's scoresheet, word for word as
// ks-backend's state projection writes it: the opponent's illegal
// attempts (public but in wild16), the ask-any question, untyped and
// exact captures, drops, and the next mover's pawn news.
func TestVariantScoresheets(t *testing.T) {
	for _, tc := range []struct {
		variant  string
		attempts []string
		want     map[chess.Color][]string
	}{
		{"cincinnati", []string{"e2e4", "e7e5", "e4e5", "g1f3", "d7d5"}, map[chess.Color][]string{
			chess.White: {"1 Move attempt — Move complete", "2 No pawn captures", "2 Opponent move — Move complete",
				"3 No pawn captures", "3 Move attempt — Illegal move", "3 Move attempt — Move complete",
				"4 No pawn captures", "4 Opponent move — Move complete", "5 Has pawn capture"},
			chess.Black: {"1 Opponent move — Move complete", "2 No pawn captures", "2 Move attempt — Move complete",
				"3 No pawn captures", "3 Opponent move — Illegal move", "3 Opponent move — Move complete",
				"4 No pawn captures", "4 Move attempt — Move complete", "5 Has pawn capture"},
		}},
		{"berkeley_any", []string{"e2e4", "d7d5", "any", "g1f3", "e4d5"}, map[chess.Color][]string{
			chess.White: {"1 Move attempt — Move complete", "2 Opponent move — Move complete",
				"3 Ask any pawn captures — Has pawn captures", "3 Move attempt — Capture done at D5"},
			chess.Black: {"1 Opponent move — Move complete", "2 Move attempt — Move complete",
				"3 Opponent asked any pawn captures — Has pawn captures", "3 Opponent move — Capture done at D5"},
		}},
		{"rand", []string{"e2e4", "d7d5", "b1c3", "c7c5"}, map[chess.Color][]string{
			chess.White: {"1 Move attempt — Move complete", "2 No pawn captures", "2 Opponent move — Move complete",
				"3 Pawn try from E4", "3 Move attempt — Move complete", "4 Pawn try from D5", "4 Opponent move — Move complete",
				"5 Pawn try from E4"},
		}},
		{"crazykrieg", []string{"e2e4", "d7d5", "e4d5", "d8d5", "P@e4"}, map[chess.Color][]string{
			chess.White: {"1 Move attempt — Move complete", "2 Opponent move — Move complete",
				"3 Move attempt — Pawn captured at D5", "4 Opponent move — Pawn captured at D5",
				"5 Move attempt — Move complete · Pawn dropped"},
		}},
		{"english", []string{"e2e4", "a7a6", "e4e5", "d7d5", "any", "e5d6"}, map[chess.Color][]string{
			chess.Black: {"1 Opponent move — Move complete", "2 Move attempt — Move complete",
				"3 Opponent move — Move complete", "4 Move attempt — Move complete",
				"5 Opponent asked any pawn captures — Has pawn captures", "5 Opponent move — En passant capture at D6"},
		}},
	} {
		answers, _ := playVariant(t, tc.variant, tc.attempts...)
		for col, want := range tc.want {
			if got := sheet(answers, col); !slices.Equal(got, want) {
				t.Errorf("%s, %v's referee log:\n%s\nwant:\n%s", tc.variant, col, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestVariantMoveReplies: each variant's move and ask-any replies, field
// for field as ks-game answers them.
func TestVariantMoveReplies(t *testing.T) {
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	for _, tc := range []struct {
		variant  string
		attempts []string
		want     string
	}{
		{"berkeley", []string{"e2e4", "d7d5", "e4d5"}, "CAPTURE_DONE d5 null tries=<nil> has=<nil> from=[]"},
		{"berkeley", []string{"e2e5"}, "IMPOSSIBLE_TO_ASK null null tries=<nil> has=<nil> from=[]"},
		{"cincinnati", []string{"e2e5"}, "NONSENSE null null tries=<nil> has=<nil> from=[]"},
		{"english", []string{"e2e5"}, "ILLEGAL_MOVE null null tries=<nil> has=<nil> from=[]"},
		{"cincinnati", []string{"e2e4", "d7d5", "e4d5"}, "CAPTURE_DONE d5 PAWN tries=<nil> has=false from=[]"},
		{"rand", []string{"e2e4", "d7d5"}, "REGULAR_MOVE null null tries=<nil> has=<nil> from=[e4]"},
		{"crazykrieg", []string{"e2e4", "d7d5", "e4d5", "d8d5"}, "CAPTURE_DONE d5 PAWN tries=<nil> has=<nil> from=[]"},
		{"crazykrieg", []string{"b1c3", "d7d5", "c3d5", "d8d5"}, "CAPTURE_DONE d5 KNIGHT tries=<nil> has=<nil> from=[]"},
		{"wild16", []string{"e2e4", "d7d5"}, "REGULAR_MOVE null null tries=1 has=<nil> from=[]"},
	} {
		_, a := playVariant(t, tc.variant, tc.attempts...)
		r := MoveReply(a)
		got := fmt.Sprintf("%s %s %s tries=%v has=%v from=%v", r.Announcement, str(r.CaptureSquare), str(r.CapturedPiece),
			deref(r.NextTurnPawnTries), deref(r.NextTurnHasPawnCapture), r.NextTurnPawnTrySquares)
		if got != tc.want {
			t.Errorf("%s %v: got %s, want %s", tc.variant, tc.attempts, got, tc.want)
		}
	}
	// Ask-any, a drop, en passant and a won stalemate.
	if _, a := playVariant(t, "berkeley_any", "e2e4", "e7e5", "any"); MoveReply(a).HasAny == nil || *MoveReply(a).HasAny || MoveReply(a).Announcement != "NO_ANY" {
		t.Errorf("ask-any: %+v", MoveReply(a))
	}
	if _, a := playVariant(t, "crazykrieg", "e2e4", "d7d5", "e4d5", "d8d5", "P@e4"); str(MoveReply(a).DroppedPiece) != "PAWN" {
		t.Errorf("drop: %+v", MoveReply(a))
	}
	if _, a := playVariant(t, "english", "e2e4", "a7a6", "e4e5", "d7d5", "e5d6"); MoveReply(a).EnPassant == nil || str(MoveReply(a).CaptureSquare) != "d6" {
		t.Errorf("en passant: %+v", MoveReply(a))
	}
	// The scoresheet names an announced en passant too, as ks-backend's
	// state projection does (_format_public_announcement, at the commit
	// the site runs): "Capture done at D6" would have the opponent lose a
	// man on d6.
	if kept, _ := playVariant(t, "english", "e2e4", "a7a6", "e4e5", "d7d5", "e5d6"); !slices.Contains(sheet(kept, chess.Black), "5 Opponent move — En passant capture at D6") {
		t.Errorf("en passant: Black's scoresheet %v", sheet(kept, chess.Black))
	}
	won := umpire.Answer{Mover: chess.White, Legal: true, Verdict: umpire.MoveDone, Ending: umpire.Stalemate, Result: "1-0"}
	if r := MoveReply(won); str(r.SpecialAnnouncement) != "STALEMATE_WHITE_WINS" || !r.GameOver {
		t.Errorf("rand's stalemate: %+v", r)
	}
	if got := sheet([]umpire.Answer{won}, chess.Black); !slices.Equal(got, []string{"1 Opponent move — Move complete · Stalemate — White wins"}) {
		t.Errorf("rand's stalemate: %v", got)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestReserve: crazykrieg's reserve_summary counts each side's pocket.
func TestReserve(t *testing.T) {
	v, err := umpire.ParseVariant("crazykrieg")
	if err != nil {
		t.Fatal(err)
	}
	u := umpire.New(umpire.Site(v))
	for _, s := range []string{"b1c3", "d7d5", "c3d5", "d8d5"} {
		if a, err := u.Attempt(mustUCI(t, s)); err != nil || !a.Legal {
			t.Fatalf("%s: %v %v", s, a, err)
		}
	}
	r := Reserve(u.Pockets())
	if r.White.Pawns != 1 || r.Black.Knights != 1 || r.White.Knights+r.Black.Pawns+r.White.Queens != 0 {
		t.Errorf("reserve %+v", r)
	}
	if *Reserve(umpire.Pockets{}) != *EmptyReserve() {
		t.Error("an empty pocket is not the empty reserve")
	}
}
