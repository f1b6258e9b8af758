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

// TestKnowledgeHearsVariants: what Knowledge makes of the answers wild 16
// does not have: the opponent's public refusal and its "Any?" change
// nothing of ours; english's en passant, announced on the capturing pawn's
// destination, takes our pawn beside it; "has pawn captures" lists only
// pawn tries until a refused try releases it (english), and "no pawn
// captures" lists none.
func TestKnowledgeHearsVariants(t *testing.T) {
	v, err := umpire.ParseVariant("english")
	if err != nil {
		t.Fatal(err)
	}
	// White, to move: king e1, pawns d4 e2.
	pos, err := chess.ParseFEN("4k3/8/8/8/3P4/8/4P3/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var k Knowledge
	k.Start(&Game{Color: chess.White, Rules: umpire.Site(v), Start: &pos})
	if k.Tries != -1 || !k.CanAskAny() {
		t.Fatalf("english start: tries %d, can ask %v", k.Tries, k.CanAskAny())
	}
	k.Asked(chess.NullMove)
	k.Hear(umpire.View{Heard: true, Own: true, Verdict: umpire.HasAny, PawnTries: -1})
	var l chess.MoveList
	k.Askable(&l)
	if l.N == 0 || !k.MustPawn || k.CanAskAny() {
		t.Fatalf("after has-any: %v, must %v, can ask %v", l.Slice(), k.MustPawn, k.CanAskAny())
	}
	for _, m := range l.Slice() {
		if !k.IsPawnTry(m) {
			t.Fatalf("after has-any %v is listed", m)
		}
	}
	refused := l.Moves[0]
	k.Asked(refused)
	k.Hear(umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1})
	k.Askable(&l)
	if k.MustPawn || l.Contains(refused) || !l.Contains(chess.NewMove(chess.E1, chess.D1, chess.NoPieceType)) {
		t.Fatalf("after the refused try (released): must %v, list %v", k.MustPawn, l.Slice())
	}
	// Our double step e2e4; the opponent's turn: a public refusal, its
	// "Any?", then its en passant capture of our e4 pawn, announced on e3.
	e2, e3, e4 := chess.NewSquare(4, 1), chess.NewSquare(4, 2), chess.NewSquare(4, 3)
	k.Asked(chess.NewMove(e2, e4, chess.NoPieceType))
	k.Hear(umpire.View{Heard: true, Own: true, Move: chess.NewMove(e2, e4, chess.NoPieceType), PawnTries: -1})
	men := k.Board.Men()
	k.Hear(umpire.View{Heard: true, Illegal: true, PawnTries: -1})
	k.Hear(umpire.View{Heard: true, Verdict: umpire.NoAny, PawnTries: -1})
	if k.Board.Men() != men || k.TheirRefused != 1 || k.TheirAny != umpire.NoAny || k.Plies != 1 {
		t.Fatalf("the opponent's refusal and Any?: men %x (was %x), refused %d, any %v, plies %d", k.Board.Men(), men, k.TheirRefused, k.TheirAny, k.Plies)
	}
	k.Hear(umpire.View{Heard: true, Capture: umpire.Capture{Square: e3, Kind: umpire.ManCaptured}, EnPassant: true, PawnTries: -1})
	if k.Board.At(e4) != chess.NoPieceType || k.Board.At(chess.NewSquare(3, 3)) != chess.Pawn || k.TheirCapture != e3 {
		t.Fatalf("after their en passant on e3: men %x, their capture at %v", k.Board.Men(), k.TheirCapture)
	}
	// Our turn: "no pawn captures" takes every pawn try off the list.
	k.Asked(chess.NullMove)
	k.Hear(umpire.View{Heard: true, Own: true, Verdict: umpire.NoAny, PawnTries: -1})
	k.Askable(&l)
	for _, m := range l.Slice() {
		if k.IsPawnTry(m) {
			t.Fatalf("after no-any %v is listed", m)
		}
	}
}
