package belief

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/umpire"
)

// FuzzUpdates feeds a belief arbitrary event sequences, consistent with the
// rules or not (as a confused or hostile server might send): it must never
// panic, and its invariants must hold after every event.
func FuzzUpdates(f *testing.F) {
	// Seeds: a few real exchanges (1.e4 d5 2.exd5), an illegal attempt, a
	// capture of our king's square, nonsense check kinds.
	f.Add([]byte{0, 0x0c, 0x07, 0, 0, 0, 1, 0, 0, 0, 1, 0})
	f.Add([]byte{0, 0x1c, 0x09, 2, 35, 0, 1, 0, 0, 1, 0, 0})
	f.Add([]byte{1, 0, 0, 4, 4, 0, 1, 0, 0, 0x10, 9, 3})
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			s := New(c, nil)
			for i := 0; i+6 <= len(data) && i < 600; i += 6 {
				e := data[i : i+6]
				m := chess.Move(uint16(e[1]) | uint16(e[2])<<8)
				v := umpire.View{Heard: true, PawnTries: int(e[5]&15) - 1}
				switch e[3] & 3 {
				case 1:
					v.Capture = umpire.Capture{Square: chess.Square(e[4] & 127), Kind: umpire.PawnCaptured}
				case 2:
					v.Capture = umpire.Capture{Square: chess.Square(e[4] & 127), Kind: umpire.PieceCaptured}
				}
				v.Checks[0] = chess.CheckKind(e[3] >> 2 & 7)
				v.Checks[1] = chess.CheckKind(e[5] >> 4 & 7)
				if e[0]&1 == 0 {
					v.Own = true
					v.Illegal = e[0]&2 != 0
					if v.Illegal {
						v = umpire.View{Heard: true, Own: true, Illegal: true, PawnTries: -1}
					}
					s.Ours(m, v)
				} else {
					s.Theirs(v)
				}
				checkInvariants(t, &s)
				o := s.Outcomes(m)
				if sum := o.Illegal + o.Quiet + o.CapturePawn + o.CapturePiece; math.IsNaN(sum) || math.Abs(sum-1) > 1e-6 || o.Illegal < -1e-9 {
					t.Fatalf("outcomes of %s: %+v", m, o)
				}
			}
		}
	})
}

// checkInvariants verifies what every update must keep: one own king,
// nothing outside the supports, values in [floor, 1] inside them, the king's
// chances summing to 1, the men's to the known count.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	if s.own[chess.King].Count() != 1 {
		t.Fatalf("own kings: %d", s.own[chess.King].Count())
	}
	total := [3]float64{}
	for c := range s.p {
		for sq, v := range s.p[c] {
			in := s.supp[c].Has(chess.Square(sq))
			if math.IsNaN(float64(v)) || v < 0 || v > 1.0001 || (!in && v != 0) || (in && v < floor) {
				t.Fatalf("%s on %s: %g (in support %v)", oppmodel.Class(c), chess.Square(sq), v, in)
			}
			total[c] += float64(v)
		}
	}
	if s.supp[king] != 0 && math.Abs(total[king]-1) > 1e-3 {
		t.Fatalf("king chances sum to %g", total[king])
	}
	if s.supp[pawn]|s.supp[piece] != 0 && total[pawn]+total[piece] > float64(s.units)+0.01+float64((s.supp[pawn]|s.supp[piece]).Count())*floor {
		t.Fatalf("men sum to %g, %d known", total[pawn]+total[piece], s.units)
	}
	if s.supp[piece] != s.moves[jumper]|s.moves[diagonal]|s.moves[straight] {
		t.Fatal("piece support is not the union of the kinds")
	}
}

// TestCorruptedViewsKeepInvariants replays random games while corrupting a
// few of the views each side hears (pawn-try counts, checks, captures on
// random squares): the belief counts surprises but never panics, and keeps its
// invariants. KRIEGBOT_LONG=1 plays more games.
func TestCorruptedViewsKeepInvariants(t *testing.T) {
	games := 40
	if os.Getenv("KRIEGBOT_LONG") != "" {
		games = 400
	}
	rng := rand.New(rand.NewPCG(2, 2))
	stream := umpire.RandomStream(5, games, 200)
	u := umpire.New(umpire.ICC())
	surprised := 0
	for _, game := range stream.Games {
		u.Reset(stream.Start)
		bel := [2]State{New(chess.White, nil), New(chess.Black, nil)}
		for _, m := range game {
			side := u.Side()
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			for c := range bel {
				v := a.For(chess.Color(c))
				if rng.IntN(20) == 0 {
					v.PawnTries = rng.IntN(12) - 1
				}
				if rng.IntN(30) == 0 {
					v.Checks[rng.IntN(2)] = chess.CheckKind(rng.IntN(8))
				}
				if rng.IntN(40) == 0 {
					v.Capture = umpire.Capture{Square: chess.Square(rng.IntN(70)), Kind: umpire.CaptureKind(rng.IntN(4))}
				}
				if chess.Color(c) == side {
					bel[c].Ours(m, v)
				} else if a.Legal {
					bel[c].Theirs(v)
				}
				checkInvariants(t, &bel[c])
			}
		}
		surprised += bel[0].Surprises() + bel[1].Surprises()
	}
	if surprised == 0 {
		t.Error("no corrupted view was noticed")
	}
}

// FuzzVariantUpdates is FuzzUpdates with the other variants' news: answers
// to "Any?", untyped and exact captures, announced en passant and
// promotion, drops, has-pawn-capture and pawn-try squares, refusals off the
// list. Any sequence keeps the invariants and never panics.
func FuzzVariantUpdates(f *testing.F) {
	f.Add([]byte{0, 0x0c, 0x07, 0, 0, 0, 0, 0x10, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0x04, 0x21, 0, 0x1c, 0x1c, 0, 0, 0, 0x05, 0x02})
	f.Add([]byte{0, 0x1c, 0x07, 0x80, 0, 0, 0x33, 0x40, 1, 0, 0, 0x03, 35, 0, 0x08, 0x81})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(runVariantFuzz)
}

// runVariantFuzz plays one FuzzVariantUpdates input: 8 bytes an event.
func runVariantFuzz(t *testing.T, data []byte) {
	for _, c := range []chess.Color{chess.White, chess.Black} {
		s := New(c, nil)
		for i := 0; i+8 <= len(data) && i < 800; i += 8 {
			e := data[i : i+8]
			m := chess.Move(uint16(e[1]) | uint16(e[2])<<8)
			if e[7]&0x80 != 0 {
				m = umpire.DropMove(chess.PieceType(e[7]&7), chess.Square(e[1]&63))
			}
			v := umpire.View{Heard: true, PawnTries: -1}
			if k := umpire.CaptureKind(e[3] & 7); k != umpire.NoCapture {
				v.Capture = umpire.Capture{Square: chess.Square(e[4] & 127), Kind: k}
			}
			v.Checks[0] = chess.CheckKind(e[3] >> 3 & 7)
			v.Verdict = umpire.Verdict(e[5] % 7)
			v.PawnNews = umpire.PawnNews(e[6] & 3)
			v.PawnTries = int(e[6]>>2&7) - 1
			v.HasPawnCapture = e[6]&0x20 != 0
			v.TrySquares = chess.Bitboard(uint64(e[4]) << (e[6] >> 6 * 16))
			v.EnPassant = e[7]&0x08 != 0
			v.Promotion = e[7]&0x10 != 0
			if e[7]&0x20 != 0 {
				v.Drop = chess.PieceType(e[7] & 7)
			}
			if e[0]&1 == 0 {
				v.Own = true
				v.Illegal = e[0]&2 != 0
				s.Ours(m, v)
			} else {
				v.Illegal = e[0]&2 != 0
				s.Theirs(v)
			}
			checkInvariants(t, &s)
			o := s.Outcomes(m)
			if sum := o.Illegal + o.Quiet + o.CapturePawn + o.CapturePiece; math.IsNaN(sum) || math.Abs(sum-1) > 1e-6 || o.Illegal < -1e-9 {
				t.Fatalf("outcomes of %s: %+v", m, o)
			}
		}
	}
}
