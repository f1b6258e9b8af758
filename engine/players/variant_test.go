package players

import (
	"fmt"
	"slices"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// TestVariantsPlayOnTheList plays every kind in every variant of the site
// through the umpire and checks, before every attempt, that what the
// player knows gives the umpire's askable list (board attempts and drops,
// apart from the en passant step it cannot know of), its pocket and its
// obligation; and after every answer that no attempt was off the list
// (ImpossibleToAsk or NonsenseMove): the players ask only what they may,
// "Any?" included, and obey "has pawn captures". It counts what the
// variants bring, so that each of them is seen played.
func TestVariantsPlayOnTheList(t *testing.T) {
	pairs := [][2]string{{"random", "heuristic"}, {"heuristic", "random"}, {"mcts:mem=8", "random"}}
	for _, v := range umpire.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			rules := umpire.Site(v)
			rules.MaxPlies = 100
			var asks, hasAny, drops, public, checks int
			for g := range 6 {
				pair := pairs[g%len(pairs)]
				w, b := mustNew(t, pair[0]), mustNew(t, pair[1])
				if g%2 == 1 {
					w, b = b, w
				}
				var mine, theirs chess.MoveList
				var myDrops, theirDrops []chess.Move
				check := func(u *umpire.Umpire, k *Knowledge) {
					checks++
					pos := u.Position()
					us := u.Side()
					at := fmt.Sprintf("game %d ply %d (%s)", g, u.Plies(), pos.FEN())
					if k.Board.Men() != pos.ByColor(us) {
						t.Fatalf("%s: player's men %x, true %x", at, k.Board.Men(), pos.ByColor(us))
					}
					if k.MustPawn != u.MustTryPawns() || k.CanAskAny() != u.CanAskAny() {
						t.Fatalf("%s: player must-pawn %v ask %v, umpire %v %v", at, k.MustPawn, k.CanAskAny(), u.MustTryPawns(), u.CanAskAny())
					}
					if want := u.Pockets()[us]; k.Pocket != want {
						t.Fatalf("%s: pocket %v, umpire's %v", at, k.Pocket, want)
					}
					k.Askable(&mine)
					u.Askable(&theirs)
					for _, m := range theirs.Slice() {
						if !mine.Contains(m) && m.To() != pos.EnPassant() {
							t.Fatalf("%s: umpire's askable %v missing from the player's", at, m)
						}
					}
					for _, m := range mine.Slice() {
						if !theirs.Contains(m) {
							t.Fatalf("%s: player's %v is not on the umpire's list", at, m)
						}
					}
					myDrops = k.AskableDrops(myDrops[:0])
					theirDrops = u.AskableDrops(theirDrops[:0])
					if !slices.Equal(myDrops, theirDrops) {
						t.Fatalf("%s: drops %v, umpire's %v", at, myDrops, theirDrops)
					}
				}
				hear := func(a *umpire.Answer) {
					switch {
					case a.Verdict == umpire.ImpossibleToAsk || a.Verdict == umpire.NonsenseMove:
						t.Fatalf("game %d: %v: an attempt off the list", g, a)
					case a.Verdict == umpire.HasAny:
						asks++
						hasAny++
					case a.Verdict == umpire.NoAny:
						asks++
					case !a.Legal && a.Public:
						public++
					case umpire.IsDrop(a.Attempt) && a.Legal:
						drops++
					}
				}
				playRules(t, rules, w, b, uint64(g), Budget{Nodes: 40}, check, hear)
			}
			if checks < 100 || v.PublicIllegal && public == 0 || v.AskAny && (asks == 0 || hasAny == 0) || v.Drops && drops == 0 {
				t.Errorf("%s: %d attempts checked, %d public refusals, %d asks (%d has-any), %d drops: the variant was not played through",
					v.Name, checks, public, asks, hasAny, drops)
			}
		})
	}
}
