package replay

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/internal/turntext"
	"kriegbot/record"
)

// heardShown is how many of the latest referee answers a frame lists.
const heardShown = 8

// WriteText writes every frame and the summary line. color adds ANSI
// colours to the heat maps (for a terminal).
func WriteText(w io.Writer, res *Result, color bool) error {
	var sb strings.Builder
	writeHeader(&sb, res)
	for i := range res.Frames {
		writeFrame(&sb, res, i, color)
		if sb.Len() > 1<<16 {
			if _, err := io.WriteString(w, sb.String()); err != nil {
				return err
			}
			sb.Reset()
		}
	}
	writeFinal(&sb, res)
	sb.WriteString(Summary(res))
	sb.WriteByte('\n')
	_, err := io.WriteString(w, sb.String())
	return err
}

// Summary is the last line of a replay.
func Summary(res *Result) string {
	if res.Resized > 0 {
		return fmt.Sprintf("replay: %d attempts, %d differing choices, %d searches of another size (first at line %d)",
			res.Attempts, res.Differing, res.Resized, res.FirstResized)
	}
	return fmt.Sprintf("replay: %d attempts, %d differing choices", res.Attempts, res.Differing)
}

func writeHeader(sb *strings.Builder, res *Result) {
	g := res.Record.Game
	fmt.Fprintf(sb, "%s: game %d, %s vs %s, we play %s with %q, seed %d, %d+%d\n",
		res.Record.Name, g.Number, g.White, g.Black, colorName(g.Us), g.Player, g.Seed, g.BaseMin, g.IncS)
	if r := res.Record.Result; r != nil {
		fmt.Fprintf(sb, "result %s (%s) after %d plies, %d illegal attempts\n", r.Result, r.Reason, r.Plies, r.Illegal)
	}
	if v := g.Rules.Variant; !v.IsWild16() {
		fmt.Fprintf(sb, "rules: %s\n", turntext.Rules(v))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(sb, "warning: %s\n", w)
	}
	sb.WriteString(textLegend)
}

// textLegend explains every symbol of the terminal view.
const textLegend = `legend: boards show our men as letters (upper case White) and, per square, the belief's chance
  of their king, their pawns and their other pieces: '.' under 0.5 %, '+' under 10 %, '1'-'9' that
  many tens of percent, '#' 95 % or more (on a terminal, shades from pale yellow to dark red);
  score is the expected result from -1 (lost) to +1 (won), pawns the search's value in pawns;
  p(illegal), p(capture), p(check) the belief's chances of the referee's answer; p(mate),
  p(mated), p(repeat) the root's chances that the attempt mates, leaves a mate in one, or draws by
  repetition, weighed besides the value; '*' marks the re-run's choice, '<<< DIFFERS' an attempt
  where it chose otherwise than the record.
`

func colorName(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

// writeFrame writes frame i: header, clocks, answers heard, the four boards
// and the candidates.
func writeFrame(sb *strings.Builder, res *Result, i int, color bool) {
	f := &res.Frames[i]
	mark := ""
	if f.Differs {
		mark = "   <<< DIFFERS"
	}
	fmt.Fprintf(sb, "\n== attempt %d, ply %d, move %d (line %d)%s\n", f.Attempt, f.Ply, f.Ply/2+1, f.Line, mark)
	if f.HasClocks {
		fmt.Fprintf(sb, "clocks: ours %s, theirs %s\n", clockText(f.Clocks.Ours), clockText(f.Clocks.Theirs))
	}
	from := max(0, f.Heard-heardShown)
	if f.Heard > 0 {
		sb.WriteString("heard:")
		if from > 0 {
			sb.WriteString(" ...")
		}
		for _, h := range res.Heard[from:f.Heard] {
			sb.WriteString(" [")
			sb.WriteString(heardText(h))
			sb.WriteString("]")
		}
		sb.WriteByte('\n')
	}
	for _, l := range f.Turn {
		fmt.Fprintf(sb, "turn: %s\n", l)
	}
	if f.HasPockets {
		fmt.Fprintf(sb, "pockets: ours %s; theirs %s\n", turntext.Pocket(f.Pockets[0]), turntext.Pocket(f.Pockets[1]))
	}
	if f.HasHeat {
		writeBoards(sb, f, truthAt(res, f.Ply), color)
	}
	writeCandidates(sb, f)
}

// heardText is one answer as "e2e4: Illegal move" (our attempt, refused or
// not, by its move) or "they: 1 pawn try".
func heardText(h Heard) string {
	if h.Said != "" {
		return h.Said
	}
	who := "they"
	if h.Own {
		who = "we" // a record that does not name the attempt
		if h.Move != chess.NullMove || h.Words != nil && strings.HasSuffix(h.Words[0], "pawn captures") {
			who = record.MoveText(h.Move) // "any" for the question
		}
	}
	if len(h.Words) == 0 {
		return who + ": silent"
	}
	return who + ": " + strings.Join(h.Words, ", ")
}

func clockText(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	d = d.Round(100 * time.Millisecond)
	return fmt.Sprintf("%s%d:%02d.%d", neg, int(d/time.Minute), int(d/time.Second)%60, int(d/(100*time.Millisecond))%10)
}

// truthAt is the true position at ply, or nil.
func truthAt(res *Result, ply int) *chess.Position {
	if ply < len(res.Truth) {
		return &res.Truth[ply]
	}
	return nil
}

var classTitles = [oppmodel.NumClasses]string{"their king", "their pawns", "their pieces"}

// writeBoards writes our men and the three heat maps side by side, from our
// side of the board. Heat digits are tenths of probability ('.' below 0.5 %,
// '+' below 10 %, '#' at 95 % and above); with truth, the opponent's real
// men are listed below.
func writeBoards(sb *strings.Builder, f *Frame, truth *chess.Position, color bool) {
	fmt.Fprintf(sb, "   %-17s", "our men")
	for _, t := range classTitles {
		fmt.Fprintf(sb, "   %-17s", t)
	}
	sb.WriteByte('\n')
	for row := 7; row >= 0; row-- {
		rank := row
		if f.Us == chess.Black {
			rank = 7 - row
		}
		for b := 0; b < 4; b++ {
			fmt.Fprintf(sb, "%d  ", rank+1)
			for col := 0; col < 8; col++ {
				file := col
				if f.Us == chess.Black {
					file = 7 - col
				}
				sq := chess.NewSquare(file, rank)
				if b == 0 {
					sb.WriteByte(ownLetter(f, sq))
				} else {
					writeHeatCell(sb, f.Heat[b-1][sq], color)
				}
				sb.WriteByte(' ')
			}
			sb.WriteString("  ")
		}
		sb.WriteByte('\n')
	}
	files := "a b c d e f g h"
	if f.Us == chess.Black {
		files = "h g f e d c b a"
	}
	for b := 0; b < 4; b++ {
		fmt.Fprintf(sb, "   %s   ", files)
	}
	sb.WriteByte('\n')
	if truth != nil {
		sb.WriteString("their men in truth:")
		for pt := chess.King; pt >= chess.Pawn; pt-- {
			bb := truth.Pieces(1-f.Us, pt)
			for bb != 0 {
				sq := bb.PopFirst()
				fmt.Fprintf(sb, " %c%s", pt.Letter()&^0x20, sq)
			}
		}
		sb.WriteByte('\n')
	}
}

func ownLetter(f *Frame, sq chess.Square) byte {
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		if f.Own[pt].Has(sq) {
			return chess.MakePiece(f.Us, pt).Letter()
		}
	}
	return '.'
}

// heatRamp is a 256-colour background ramp from pale yellow to dark red.
var heatRamp = [...]int{230, 229, 228, 221, 214, 208, 202, 196, 160, 124}

func heatChar(p float32) byte {
	switch {
	case p < 0.005:
		return '.'
	case p < 0.1:
		return '+'
	case p >= 0.95:
		return '#'
	}
	return byte('0' + int(p*10))
}

func writeHeatCell(sb *strings.Builder, p float32, color bool) {
	c := heatChar(p)
	if !color || c == '.' {
		sb.WriteByte(c)
		return
	}
	i := min(int(p*float32(len(heatRamp))), len(heatRamp)-1)
	fmt.Fprintf(sb, "\x1b[48;5;%d;38;5;16m%c\x1b[0m", heatRamp[i], c)
}

// searchSize is a recorded search's work: its iterations and, when the
// record has them, the boards its root counted mate chances on.
func searchSize(rs *Search) string {
	if rs.Boards == 0 {
		return fmt.Sprintf("%d iterations", rs.Iterations)
	}
	return fmt.Sprintf("%d iterations, mates counted on %d boards", rs.Iterations, rs.Boards)
}

// criticalNote says, for a search that planned to its clock's maximum, why
// it thought longer.
func criticalNote(rs *Search) string {
	if !rs.Critical {
		return ""
	}
	return "; critical: thought up to the clock plan's maximum"
}

func writeCandidates(sb *strings.Builder, f *Frame) {
	rs := f.RecordedSearch
	switch {
	case rs != nil:
		fmt.Fprintf(sb, "recorded %s (%s, score %+.3f, %.2f pawns%s)", record.MoveText(f.Recorded), searchSize(rs), players.Score(rs.Value), rs.Value, criticalNote(rs))
	default:
		fmt.Fprintf(sb, "recorded %s", record.MoveText(f.Recorded))
	}
	if f.Differs {
		fmt.Fprintf(sb, "; re-run chose %s\n", record.MoveText(f.Replayed))
	} else {
		sb.WriteString("; re-run agrees\n")
	}
	if len(f.Search.Candidates) == 0 {
		return
	}
	sb.WriteString("  candidate  visits   score    pawns  p(illegal) p(capture) p(check) p(mate) p(mated) p(repeat)\n")
	for _, c := range f.Search.Candidates {
		star := ' '
		if c.Move == f.Replayed {
			star = '*'
		}
		fmt.Fprintf(sb, "%c %-8s %7d %+7.3f %8.2f %10.3f %10.3f %8.3f %7.3f %8.3f %9.3f\n", star, c.Move, c.Visits, players.Score(c.Value), c.Value,
			c.PIllegal, c.PCapture, c.PCheck, c.PMate, c.PMated, c.PRepeat)
	}
}

// writeFinal writes the revealed game and its final position.
func writeFinal(sb *strings.Builder, res *Result) {
	if len(res.Truth) == 0 {
		return
	}
	sb.WriteString("\n== the game as revealed after the end\n")
	for i, s := range res.Record.Moves {
		if i%2 == 0 {
			fmt.Fprintf(sb, "%d. ", i/2+1)
		}
		sb.WriteString(s)
		sb.WriteByte(' ')
	}
	sb.WriteByte('\n')
	final := res.Truth[len(res.Truth)-1]
	sb.WriteString("final position: ")
	sb.WriteString(final.FEN())
	sb.WriteByte('\n')
}
