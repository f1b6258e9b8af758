package oppmodel

import (
	"fmt"

	"kriegbot/engine/chess"
)

// MassScale is the weight one game adds to a row of Counts.Mass: every unit
// of a class adds MassScale/k to its square when the side has k units of that
// class, so a row always sums to MassScale times its coverage. 720720 is the
// least common multiple of 1..16, so the division is exact for any count a
// side can have (at most 8 pawns, at most 15 pieces), and the sums stay exact
// integers whatever order games are added in.
const MassScale = 720720

// Horizon bounds, in full moves after the start.
const (
	// DefaultHorizon is the number of moves a built model records per game.
	// Kriegspiel games are long (60 moves is common), and data past this point
	// is too thin to be worth keeping.
	DefaultHorizon = 100
	// MaxHorizon is the largest horizon the file reader accepts.
	MaxHorizon = 400
)

// Per-side bounds on what the mover tables are indexed by.
const (
	maxPawns  = 8
	maxPieces = 15 // 7 pieces plus 8 promotions
)

// PawnStep is what one pawn did during one move of its side: the steps of
// the paper's one-way Markov chain.
type PawnStep uint8

// Pawn steps. West is toward the a-file, east toward the h-file, whatever the
// pawn's colour. A promotion counts as the push or capture that made it.
const (
	PawnStay PawnStep = iota
	PawnPush
	PawnDouble
	PawnCaptureWest
	PawnCaptureEast
	NumPawnSteps
)

var pawnStepNames = [...]string{"stay", "push", "double", "capture-west", "capture-east"}

// String returns the step's name.
func (s PawnStep) String() string {
	if s < NumPawnSteps {
		return pawnStepNames[s]
	}
	return "unknown"
}

// Event names a behaviour the model counts to fit Params. Events are counted
// for the side that replies (or moves), so a per-opponent model counts only
// that opponent's answers.
type Event uint8

// Events. A reply to a capture that also gave check counts as a trial of
// both the first two events.
const (
	// EventRecapture: the other side's last move captured; a hit when this
	// reply captures on the square the capturer moved to (Params.RecaptureFirst).
	EventRecapture Event = iota
	// EventCheckerCaptured: the other side's last move gave check; a hit when
	// this reply captures a checking unit (Params.CheckerCaptured).
	EventCheckerCaptured
	// EventCaptureOnMove: any other move; a hit when it captures
	// (Params.CaptureOnMove).
	EventCaptureOnMove
	NumEvents
)

var eventNames = [...]string{"recapture", "checker-captured", "capture-on-move"}

// String returns the event's name.
func (e Event) String() string {
	if e < NumEvents {
		return eventNames[e]
	}
	return "unknown"
}

// Tally is a count of trials and of the hits among them.
type Tally struct {
	Trials, Hits uint64
}

// Meta says where a model's data came from. Both strings are free text of
// printable UTF-8, at most MaxMetaLen bytes each. There is no date, so the
// same input always gives the same file.
type Meta struct {
	// Builder names the program and version that wrote the counts.
	Builder string
	// Source says what games the counts come from, in words a reader of the
	// file can check (for the default model: the exact command).
	Source string
}

// MaxMetaLen bounds each Meta string.
const MaxMetaLen = 4096

// Counts are the sufficient statistics of an opponent model: integer tallies
// that add up game by game, so models merge exactly and a per-opponent model
// grows by one game at a time. A Model is derived from Counts. The file
// format stores Counts.
//
// All arrays are indexed by the colour whose behaviour they record, then as
// named. Move number t runs from 0 (the start position) to Horizon; the
// position "after move t" of a colour is the one right after that colour
// made its t-th move.
type Counts struct {
	Meta    Meta
	Horizon int
	// Games is the number of games each colour was recorded in.
	Games [2]uint64
	// Plies is the number of moves each colour made in those games (all of
	// them, also past the horizon).
	Plies [2]uint64
	// Coverage[c][cls][t] is the number of games in which colour c still had
	// at least one unit of class cls after its move t.
	Coverage [2][NumClasses][]uint64
	// Mass[c][cls][t][sq] sums, over those games, MassScale/k when one of the k
	// units of that class stood on sq.
	Mass [2][NumClasses][][64]uint64
	// Pawn[c][sq][step] counts what a pawn of colour c on sq did during one
	// move of its side.
	Pawn [2][64][NumPawnSteps]uint64
	// Movers[c][pawns][pieces][cls] counts which class colour c moved when it
	// had that many pawns and pieces (other than the king).
	Movers [2][maxPawns + 1][maxPieces + 1][NumClasses]uint64
	// Events[c][e] counts the behaviours Params are fitted from.
	Events [2][NumEvents]Tally
	// Material[c] sums, after each recorded move of colour c that left it
	// pieces, the shares of its pieces that move like a rook, like a bishop
	// and like a knight (LineFactor and KnightFactor of Params).
	Material [2]MaterialTally
}

// MaterialTally sums piece shares over positions. Each position with k > 0
// pieces (other than king and pawns) adds MassScale/k per rook or queen to
// Straight, per bishop or queen to Diagonal and per knight to Knight (exact,
// as for Mass), and 1 to Positions.
type MaterialTally struct {
	Positions, Straight, Diagonal, Knight uint64
}

// NewCounts returns empty counts recording horizon moves per game.
func NewCounts(horizon int) *Counts {
	if horizon < 1 || horizon > MaxHorizon {
		panic(fmt.Sprintf("opponent: horizon %d out of range 1..%d", horizon, MaxHorizon))
	}
	c := &Counts{Horizon: horizon}
	for col := range 2 {
		for cls := range NumClasses {
			c.Coverage[col][cls] = make([]uint64, horizon+1)
			c.Mass[col][cls] = make([][64]uint64, horizon+1)
		}
	}
	return c
}

// TotalGames returns the number of games recorded, counting a game recorded
// for both colours once per colour. (The tests' and tools' summary; the
// daemon reads Games directly.)
func (c *Counts) TotalGames() uint64 { return c.Games[0] + c.Games[1] }

// TotalPlies returns the number of moves recorded.
func (c *Counts) TotalPlies() uint64 { return c.Plies[0] + c.Plies[1] }

// IllegalMoveError says which move of a game record is not legal.
type IllegalMoveError struct {
	Ply  int // 0-based index into the move list
	Move chess.Move
	FEN  string
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("move %d (%s %s): illegal in %s", e.Ply/2+1, plySide(e.Ply), e.Move, e.FEN)
}

func plySide(ply int) string {
	if ply%2 == 0 {
		return "white"
	}
	return "black"
}

// AddGame records one game played from the standard start position, given
// as its full list of legal moves, for the colours whose record[c] is true.
// A game with an illegal move is refused as a whole (an *IllegalMoveError)
// and leaves c unchanged.
func (c *Counts) AddGame(moves []chess.Move, record [2]bool) error {
	pos := chess.StartPosition()
	for i, m := range moves {
		if !pos.IsLegal(m) {
			return &IllegalMoveError{Ply: i, Move: m, FEN: pos.FEN()}
		}
		pos.Make(m)
	}
	pos = chess.StartPosition()
	for col := range chess.Color(2) {
		if record[col] {
			c.Games[col]++
			c.addOccupancy(&pos, col, 0)
		}
	}
	var (
		lastTo   = chess.NoSquare // where the other side's last capturing unit stands
		checkers chess.Bitboard   // units giving check to the side to move
	)
	for _, m := range moves {
		side := pos.Side()
		t := pos.FullmoveNumber()
		capSq := pos.CapturedSquare(m)
		if record[side] {
			c.Plies[side]++
			c.addPawnSteps(&pos, side, m)
			c.addMover(&pos, side, m)
			c.addEvents(side, lastTo, checkers, capSq)
		}
		pos.Make(m)
		if record[side] {
			c.addMaterial(&pos, side)
			if t <= c.Horizon {
				c.addOccupancy(&pos, side, t)
			}
		}
		lastTo = chess.NoSquare
		if capSq != chess.NoSquare {
			lastTo = m.To()
		}
		checkers = pos.Checkers()
	}
	return nil
}

func (c *Counts) addEvents(side chess.Color, lastTo chess.Square, checkers chess.Bitboard, capSq chess.Square) {
	ev := &c.Events[side]
	hit := func(e Event, ok bool) {
		ev[e].Trials++
		if ok {
			ev[e].Hits++
		}
	}
	if lastTo != chess.NoSquare {
		hit(EventRecapture, capSq == lastTo)
	}
	if checkers != 0 {
		hit(EventCheckerCaptured, capSq != chess.NoSquare && checkers.Has(capSq))
	}
	if lastTo == chess.NoSquare && checkers == 0 {
		hit(EventCaptureOnMove, capSq != chess.NoSquare)
	}
}

// classBoard returns colour col's units of class cls.
func classBoard(pos *chess.Position, col chess.Color, cls Class) chess.Bitboard {
	switch cls {
	case King:
		return pos.Pieces(col, chess.King)
	case Pawn:
		return pos.Pieces(col, chess.Pawn)
	}
	return pos.ByColor(col) &^ pos.Pieces(col, chess.King) &^ pos.Pieces(col, chess.Pawn)
}

func (c *Counts) addOccupancy(pos *chess.Position, col chess.Color, t int) {
	for cls := range NumClasses {
		bb := classBoard(pos, col, cls)
		k := bb.Count()
		if k == 0 {
			continue
		}
		c.Coverage[col][cls][t]++
		row := &c.Mass[col][cls][t]
		w := uint64(MassScale / k)
		for bb != 0 {
			row[bb.PopFirst()] += w
		}
	}
}

func (c *Counts) addMaterial(pos *chess.Position, col chess.Color) {
	k := classBoard(pos, col, Piece).Count()
	if k == 0 {
		return
	}
	w := uint64(MassScale / k)
	q := uint64(pos.Pieces(col, chess.Queen).Count())
	mt := &c.Material[col]
	mt.Positions++
	mt.Straight += w * (q + uint64(pos.Pieces(col, chess.Rook).Count()))
	mt.Diagonal += w * (q + uint64(pos.Pieces(col, chess.Bishop).Count()))
	mt.Knight += w * uint64(pos.Pieces(col, chess.Knight).Count())
}

func (c *Counts) addMover(pos *chess.Position, side chess.Color, m chess.Move) {
	pawns := min(pos.Pieces(side, chess.Pawn).Count(), maxPawns)
	pieces := min(classBoard(pos, side, Piece).Count(), maxPieces)
	cls := ClassOf(pos.PieceAt(m.From()).Type())
	c.Movers[side][pawns][pieces][cls]++
}

// addPawnSteps records what each of side's pawns did during move m.
func (c *Counts) addPawnSteps(pos *chess.Position, side chess.Color, m chess.Move) {
	bb := pos.Pieces(side, chess.Pawn)
	for bb != 0 {
		sq := bb.PopFirst()
		step := PawnStay
		if sq == m.From() {
			step = pawnStepOf(m)
		}
		c.Pawn[side][sq][step]++
	}
}

func pawnStepOf(m chess.Move) PawnStep {
	df := m.To().File() - m.From().File()
	dr := m.To().Rank() - m.From().Rank()
	switch {
	case df < 0:
		return PawnCaptureWest
	case df > 0:
		return PawnCaptureEast
	case dr == 2 || dr == -2:
		return PawnDouble
	}
	return PawnPush
}

// Add adds all of o's tallies to c. Both must have the same horizon. The
// metadata of c is kept.
func (c *Counts) Add(o *Counts) error {
	if c.Horizon != o.Horizon {
		return fmt.Errorf("opponent: cannot add counts with horizon %d to counts with horizon %d", o.Horizon, c.Horizon)
	}
	for col := range 2 {
		c.Games[col] += o.Games[col]
		c.Plies[col] += o.Plies[col]
		for cls := range NumClasses {
			for t := range c.Coverage[col][cls] {
				c.Coverage[col][cls][t] += o.Coverage[col][cls][t]
				for sq := range 64 {
					c.Mass[col][cls][t][sq] += o.Mass[col][cls][t][sq]
				}
			}
		}
		for sq := range 64 {
			for s := range NumPawnSteps {
				c.Pawn[col][sq][s] += o.Pawn[col][sq][s]
			}
		}
		for p := range c.Movers[col] {
			for q := range c.Movers[col][p] {
				for cls := range NumClasses {
					c.Movers[col][p][q][cls] += o.Movers[col][p][q][cls]
				}
			}
		}
		for e := range NumEvents {
			c.Events[col][e].Trials += o.Events[col][e].Trials
			c.Events[col][e].Hits += o.Events[col][e].Hits
		}
		m, om := &c.Material[col], &o.Material[col]
		m.Positions += om.Positions
		m.Straight += om.Straight
		m.Diagonal += om.Diagonal
		m.Knight += om.Knight
	}
	return nil
}

// WithHorizon returns a copy of c recording h moves: rows past h are
// dropped, rows past c.Horizon are empty (no record reached them as far as
// the counts know).
func (c *Counts) WithHorizon(h int) *Counts {
	out := NewCounts(h)
	tables := *c
	tables.Coverage, tables.Mass = out.Coverage, out.Mass
	tables.Horizon = h
	*out = tables
	for col := range 2 {
		for cls := range NumClasses {
			copy(out.Coverage[col][cls], c.Coverage[col][cls])
			copy(out.Mass[col][cls], c.Mass[col][cls])
		}
	}
	return out
}
