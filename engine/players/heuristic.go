package players

import (
	"context"
	"math/rand/v2"

	"kriegbot/engine/chess"
)

func heuristicKind() Kind {
	return Kind{
		Name:    "heuristic",
		Summary: "the simple-heuristics baseline: recapture, promote, take pawn tries, escape checks, long probing moves",
		Options: []string{"noise=N: random spread added to each attempt's score, 0 to 1000 (default 60)"},
		Build: func(o *Options) (func() Player, error) {
			noise := o.Int("noise", 60, 0, 1000)
			return func() Player { return &Heuristic{noise: noise} }, nil
		},
	}
}

// Heuristic scores every askable attempt with the rules of thumb that
// Kriegspiel players and simple bots use, and plays the best, ties and near
// ties broken by seeded noise:
//
//   - recapture on the square where the opponent just captured, with the
//     cheapest man;
//   - promote to a queen;
//   - take the pawn tries the referee announced;
//   - in check, move the king or land on the check's line (the rank, file or
//     diagonal the referee named, or a knight's jump from the king), where the
//     checker must be; in double check only the king;
//   - otherwise prefer long slides and moves deep into the opponent's half
//     (probes that capture or learn), castle, keep the king home;
//   - after a long slide is refused, probe the squares before the blocker;
//     avoid attempts refused in the previous turn;
//   - against a (nearly) bare king, whose possible squares KingTrack keeps,
//     play for mate: weigh each attempt by the share of those squares on
//     which it mates, stalemates, checks or hangs the man, and by how few
//     squares the king can reach afterwards (our king walks in to help);
//     where stalemate loses (rand) it is a win, weighed as a mate;
//   - where the variant has "Any?", ask it at the start of a turn when a
//     pawn of ours has a diagonal step to try; after "has pawn captures"
//     take the pawn tries, as the rules then oblige;
//   - drops (crazykrieg): block a checking line, else put the man deep into
//     the opponent's half, behind the moves of the men on the board.
type Heuristic struct {
	noise int
	know  Knowledge
	track KingTrack
	rng   *rand.Rand
	list  chess.MoveList
	drops []chess.Move
}

// NewGame starts a game.
func (h *Heuristic) NewGame(g Game) error {
	h.know.Start(&g)
	h.track.Reset(g.Color)
	if g.Start != nil {
		// A set-up position is known to both sides: the opponent's king and
		// men stand where it has them.
		opp := g.Color.Other()
		h.track.TheirMen = g.Start.ByColor(opp).Count()
		h.track.Squares = g.Start.KingSquare(opp).Bit()
	}
	h.rng = rand.New(rand.NewPCG(g.Seed, seedStreams^uint64(g.Color)))
	return nil
}

// Attempt plays the best-scored askable attempt, or asks "Any?"
// (chess.NullMove) at the start of a turn with pawn tries to make.
func (h *Heuristic) Attempt(context.Context, Budget) (chess.Move, error) {
	k := &h.know
	k.Askable(&h.list)
	if k.CanAskAny() && k.Refused.N == 0 && h.hasPawnTry() {
		k.Asked(chess.NullMove)
		return chess.NullMove, nil
	}
	h.drops = k.AskableDrops(h.drops[:0])
	if h.list.N == 0 && len(h.drops) == 0 {
		return chess.NullMove, ErrNoAttempt
	}
	var best chess.Move
	bestScore, first := 0, true
	consider := func(m chess.Move, s int) {
		if h.noise > 0 {
			s += h.rng.IntN(h.noise + 1)
		}
		if first || s > bestScore {
			best, bestScore, first = m, s, false
		}
	}
	for _, m := range h.list.Slice() {
		s := h.score(m)
		if h.track.TheirMen <= endgameMen {
			s += h.endgameScore(m)
		}
		consider(m, s)
	}
	for _, m := range h.drops {
		consider(m, h.dropScore(m))
	}
	k.Asked(best)
	return best, nil
}

// hasPawnTry reports whether the askable list (h.list) holds a pawn try.
func (h *Heuristic) hasPawnTry() bool {
	for _, m := range h.list.Slice() {
		if h.know.IsPawnTry(m) {
			return true
		}
	}
	return false
}

// Hear applies a referee answer.
func (h *Heuristic) Hear(e Event) {
	if e.Kind != Answer || !e.View.Heard {
		return
	}
	v := e.View
	before := h.know.Board
	h.know.Hear(v)
	switch {
	case v.Own && (v.Illegal || Moved(v)):
		h.track.OurMove(h.know.pending, v, &before, &h.know.Board)
	case !v.Own && Moved(v):
		h.track.TheirMove(v, &h.know.Board)
	}
}

// GameOver ends the game.
func (h *Heuristic) GameOver(Outcome) {}

// value is the usual material scale, for choosing the cheapest recapturer.
func value(pt chess.PieceType) int {
	switch pt {
	case chess.Pawn:
		return 1
	case chess.Knight, chess.Bishop:
		return 3
	case chess.Rook:
		return 5
	case chess.Queen:
		return 9
	}
	return 4 // the king recaptures when nothing else can
}

// The weights of the rules of thumb, in one place to tune by match.
const (
	wRecapture    = 800
	wPromoteQueen = 900
	wUnderPromote = -300
	wPawnTry      = 600
	wCheckKing    = 400
	wCheckLine    = 500
	wDoubleCheck  = -1000
	wCastle       = 150
	wKingWalk     = -250
	wSlide        = 12 // per square travelled
	wDepth        = 15 // per rank toward the opponent
	wEnemyHalf    = 40
	wPawnPush     = 30
	wProbeBlocker = 150
	wRefusedLast  = -150
	wDrop         = 20 // per point of the dropped man's value
	wDropPawn     = -60
)

// dropScore weighs the drop m (crazykrieg): in check, only a drop on the
// checking line can help; otherwise a drop deep in the opponent's half
// probes and threatens, and a pawn drop is worth little.
func (h *Heuristic) dropScore(m chess.Move) int {
	k := &h.know
	pt, to := m.Promotion(), m.To()
	depth := to.Rank()
	if k.Board.Color() == chess.Black {
		depth = 7 - depth
	}
	s := wDrop*value(pt) + wDepth*depth
	if pt == chess.Pawn {
		s += wDropPawn
	}
	if k.InCheck() {
		if k.Checks[1] != chess.NoCheck || !checkLine(k.Board.King(), k.Checks).Has(to) {
			s += wDoubleCheck
		} else {
			s += wCheckLine
		}
	}
	return s
}

func (h *Heuristic) score(m chess.Move) int {
	k := &h.know
	from, to := m.From(), m.To()
	pt := k.Board.At(from)
	us := k.Board.Color()
	depth := to.Rank() // ranks toward the opponent, 0..7
	if us == chess.Black {
		depth = 7 - depth
	}
	dist := max(abs(from.File()-to.File()), abs(from.Rank()-to.Rank()))
	castling := pt == chess.King && chess.Castles(from, to)
	pawnTry := pt == chess.Pawn && from.File() != to.File()
	s := 0

	if k.InCheck() {
		king := k.Board.King()
		if pt == chess.King {
			s += wCheckKing
			if castling {
				s += wDoubleCheck // never legal in check
			}
		} else if k.Checks[1] != chess.NoCheck {
			s += wDoubleCheck
		}
		if checkLine(king, k.Checks).Has(to) {
			s += wCheckLine
		}
	} else if pt == chess.King && h.track.TheirMen > endgameMen {
		if castling {
			s += wCastle
		} else {
			s += wKingWalk
		}
	}
	if pr := m.Promotion(); pr == chess.Queen {
		s += wPromoteQueen
	} else if pr != chess.NoPieceType {
		s += wUnderPromote
	}
	if to == k.TheirCapture {
		s += wRecapture - 20*value(pt)
	}
	if pawnTry && (k.Tries > 0 || k.MustPawn) {
		s += wPawnTry
	}
	switch pt {
	case chess.Bishop, chess.Rook, chess.Queen:
		s += wSlide * dist
	case chess.Pawn:
		s += wPawnPush
	}
	if pt != chess.King {
		s += wDepth * depth
		if depth >= 4 {
			s += wEnemyHalf
		}
	}
	for _, r := range k.Refused.Slice() {
		if r.From() == from && chess.Between(from, r.To()).Has(to) {
			s += wProbeBlocker
			break
		}
	}
	if k.PrevRefused.Contains(m) {
		s += wRefusedLast
	}
	return s
}

// checkLine returns the squares on which a man announced as checking king
// could stand: the king's rank or file, its long or short diagonal, or a
// knight's jump away. For a double check, the union.
func checkLine(king chess.Square, checks [2]chess.CheckKind) chess.Bitboard {
	var out chess.Bitboard
	rising, falling := chess.DiagonalLengths(king)
	for _, c := range checks {
		switch c {
		case chess.CheckRank:
			out |= chess.RankMask(king.Rank())
		case chess.CheckFile:
			out |= chess.FileMask(king.File())
		case chess.CheckLongDiagonal, chess.CheckShortDiagonal:
			// The long diagonal is the one with more squares; equal lengths
			// make both candidates.
			risingLong := rising >= falling
			fallingLong := falling >= rising
			wantLong := c == chess.CheckLongDiagonal
			if risingLong == wantLong || rising == falling {
				out |= diagonal(king, 1)
			}
			if fallingLong == wantLong || rising == falling {
				out |= diagonal(king, -1)
			}
		case chess.CheckKnight:
			out |= chess.KnightAttacks(king)
		}
	}
	return out &^ king.Bit()
}

// diagonal returns the diagonal through s going up-right (dir 1) or up-left
// (dir -1), s included.
func diagonal(s chess.Square, dir int) chess.Bitboard {
	var out chess.Bitboard
	for _, step := range [2]int{1, -1} {
		f, r := s.File(), s.Rank()
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			out |= chess.NewSquare(f, r).Bit()
			f, r = f+step*dir, r+step
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// endgameMen is the opponent's man count from which the heuristic plays to
// mate its king (exact when bare, approximate with a few men left).
const endgameMen = 3

// Weights of the mating play.
const (
	wMate      = 5000
	wStalemate = -20000
	wGiveCheck = 300
	wRoom      = -15  // per square the king may reach after its reply
	wHang      = -100 // per point of material left next to the king undefended
)

// endgameScore weighs attempt m against each square the opponent's king may
// stand on, taken as equally likely: with the opponent (nearly) bare, our
// men and that square are the whole position.
func (h *Heuristic) endgameScore(m chess.Move) int {
	S := h.track.Squares
	n := S.Count()
	before := &h.know.Board
	after := *before
	after.Play(m)
	occ := after.Men()
	att := after.AttackMap(occ)
	block := blockers(m, before)
	to := m.To()
	moved := after.At(to)
	var legal, mate, stale, check, hang int
	var quiet chess.Bitboard // king squares where m is legal and no check
	for b := S; b != 0; {
		k := b.PopFirst()
		if block.Has(k) {
			continue
		}
		legal++
		escapes := chess.KingAttacks(k) &^ att
		switch inCheck := att.Has(k); {
		case inCheck && escapes == 0:
			mate++
		case inCheck:
			check++
		case escapes == 0:
			stale++
		default:
			quiet |= k.Bit()
		}
		if moved != chess.King && chess.KingAttacks(k).Has(to) && !att.Has(to) {
			hang++
		}
	}
	if legal == 0 {
		return -wMate // certainly refused: learns where the king is, nothing more
	}
	room := (spread(quiet) &^ att &^ occ).Count()
	wStale := wStalemate
	if h.know.Variant.StalemateLoses {
		wStale = wMate // the stalemated side loses (rand)
	}
	s := (wMate*mate + wStale*stale + wGiveCheck*check + wHang*value(moved)*hang) / n
	return s + wRoom*room
}
