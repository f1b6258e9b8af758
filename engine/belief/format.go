package belief

import (
	"fmt"
	"io"
	"strings"

	"kriegbot/engine/chess"
)

// Format writes the belief as three boards side by side (king, pawns, other
// pieces; rank 8 on top): our men by their letters, squares outside the
// class's support as '.', and elsewhere the chance in percent ("++" at 100).
// It is for people (logs, replay), not for machines.
func (s *State) Format(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s's belief after %d opponent moves: %d men besides the king, pawns %.2f (at most %d)\n",
		s.me, s.oppMoves, s.units, s.pawnExp, s.pawnMax)
	sb.WriteString("   king                        pawns                       pieces\n")
	for r := 7; r >= 0; r-- {
		for c := range s.p {
			fmt.Fprintf(&sb, "%d ", r+1)
			for f := range 8 {
				sq := chess.NewSquare(f, r)
				switch {
				case s.own[0].Has(sq):
					fmt.Fprintf(&sb, " %c ", chess.MakePiece(s.me, s.typeAt(sq)).Letter())
				case !s.supp[c].Has(sq):
					sb.WriteString(" . ")
				default:
					v := s.p[c][sq] * 100
					if v >= 99.5 {
						sb.WriteString(" ++")
					} else {
						fmt.Fprintf(&sb, "%3.0f", v)
					}
				}
			}
			sb.WriteString("  ")
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("   a  b  c  d  e  f  g  h       a  b  c  d  e  f  g  h       a  b  c  d  e  f  g  h\n")
	_, err := io.WriteString(w, sb.String())
	return err
}
