package bench

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
	"kriegbot/protocol"
)

// gameStream renders what a bot hears over a few random wild 16 games, as
// our server writes it with level1=5 and the bot's datagrams: per attempt a
// unit holding DG 24 (our move, or the opponent's hidden "?"/"?x<sq>"), the
// referee's lines, DG 56 for both clocks and DG 139, or DG 42 and "Illegal
// move" for a refused attempt. It is the realistic input of the protocol
// figure.
func gameStream(seed uint64, games int) []byte {
	rng := rand.New(rand.NewPCG(seed, 16))
	u := umpire.New(umpire.Olympiad())
	var out []byte
	var list chess.MoveList
	for g := 1; g <= games; g++ {
		u.Reset(chess.StartPosition())
		n := strconv.Itoa(g)
		clock := [2]int{300000, 300000}
		for u.Ending() == umpire.NotOver && u.Plies() < 400 {
			u.Askable(&list)
			if list.N == 0 {
				break
			}
			m := list.Moves[rng.IntN(list.N)]
			before := u.Position()
			a, err := u.Attempt(m)
			if err != nil {
				break
			}
			out = protocol.AppendUnitBegin(out, 1, "*", "")
			if !a.Legal {
				out = protocol.AppendDatagram(out, protocol.DGIllegalMove, n, m.String(), "2")
				out = append(out, "Illegal move ("+m.String()+").\r\n"...)
				out = protocol.AppendUnitEnd(out)
				continue
			}
			side := a.Mover
			clock[side] -= 1000 + rng.IntN(3000)
			alg, smith := before.SAN(m), m.String()
			if side == chess.Black { // we are White: Black's moves are hidden
				alg, smith = "?", "?"
				if a.Capture.Kind != umpire.NoCapture {
					smith = "?x" + a.Capture.Square.String()
				}
			}
			out = protocol.AppendDatagram(out, protocol.DGSendMoves, n, alg, smith, "2", strconv.Itoa(clock[side]/1000))
			if a.Capture.Kind == umpire.PawnCaptured {
				out = append(out, "Game "+n+": Pawn at "+a.Capture.Square.String()+" captured\r\n"...)
			} else if a.Capture.Kind == umpire.PieceCaptured {
				out = append(out, "Game "+n+": Piece at "+a.Capture.Square.String()+" captured\r\n"...)
			}
			for _, k := range a.Checks {
				if k != chess.NoCheck {
					out = append(out, "Game "+n+": "+umpire.CheckWords(k)+"\r\n"...)
				}
			}
			if a.PawnTries >= 0 {
				out = append(out, "Game "+n+": "+umpire.TriesWords(a.PawnTries)+"\r\n"...)
			}
			out = protocol.AppendDatagram(out, protocol.DGMsec, n, "W", strconv.Itoa(clock[0]), boolStr(side == chess.Black))
			out = protocol.AppendDatagram(out, protocol.DGMsec, n, "B", strconv.Itoa(clock[1]), boolStr(side == chess.White))
			out = protocol.AppendDatagram(out, protocol.DGMyTurn, n)
			out = protocol.AppendUnitEnd(out)
		}
	}
	return out
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// streamConsumer is the bot's hot path over the wire: tokenize, decode the
// datagrams (DG 24 and 56 without allocating), parse referee text.
type streamConsumer struct {
	r    protocol.Reader
	dec  protocol.Decoder
	anns []protocol.Announcement
	sink int
}

func newStreamConsumer() *streamConsumer {
	return &streamConsumer{dec: protocol.Decoder{Moves: protocol.MoveFieldsFor([]int{protocol.DGMoveAlgebraic, protocol.DGMoveSmith, protocol.DGMoveTime, protocol.DGMoveClock}),
		Intern: protocol.NewInterner(4096)}, anns: make([]protocol.Announcement, 0, 16)}
}

// consume feeds stream in 4 KiB reads, as a socket would deliver it.
func (c *streamConsumer) consume(stream []byte) error {
	for off := 0; off < len(stream); off += 4096 {
		c.r.Feed(stream[off:min(off+4096, len(stream))])
		for {
			ev, ok := c.r.NextRef()
			if !ok {
				break
			}
			switch ev.Kind {
			case protocol.Datagram:
				switch ev.DG {
				case protocol.DGSendMoves:
					m, err := c.dec.DecodeMove(ev.Fields)
					if err != nil {
						return err
					}
					c.sink += m.Clock
				case protocol.DGMsec:
					m, err := protocol.DecodeMsec(ev.Fields)
					if err != nil {
						return err
					}
					c.sink += m.Msec
				case protocol.DGMyTurn:
					m, err := protocol.DecodeMyTurn(ev.Fields)
					if err != nil {
						return err
					}
					c.sink += m.Game
				case protocol.DGIllegalMove:
					m, err := c.dec.DecodeIllegalMove(ev.Fields)
					if err != nil {
						return err
					}
					c.sink += m.Reason
				default:
					if _, err := c.dec.Decode(ev.DG, ev.Fields); err != nil {
						return err
					}
				}
			case protocol.Text:
				c.anns, _, _ = protocol.ParseAnnouncements(c.anns[:0], ev.Text)
				c.sink += len(c.anns)
			case protocol.Error:
				return fmt.Errorf("reader: %s", ev.Err)
			}
		}
	}
	return nil
}

func protocolFigure(min time.Duration) (Figure, error) {
	stream := gameStream(1, 20)
	c := newStreamConsumer()
	v, err := repeat(min, func() (uint64, error) {
		return uint64(len(stream)), c.consume(stream)
	})
	return Figure{"protocol", v / 1e6, "MB/s"}, err
}
