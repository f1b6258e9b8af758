package boardsvg

import (
	"fmt"
	"html"
	"math"
	"strings"

	"kriegbot/engine/chess"
)

// Cell is the size of a square in pixels.
const Cell = 28

// Symbol defines the empty board once per page; every Board uses it.
func Symbol() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs><symbol id=\"board\" viewBox=\"0 0 %d %d\">", 8*Cell, 8*Cell)
	for r := 0; r < 8; r++ {
		for f := 0; f < 8; f++ {
			fill := "#f0d9b5"
			if (r+f)%2 == 1 {
				fill = "#b58863"
			}
			fmt.Fprintf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", f*Cell, r*Cell, Cell, Cell, fill)
		}
	}
	sb.WriteString("</symbol></defs></svg>\n")
	return sb.String()
}

// glyphs are the Unicode chess men by colour and type (solid for black).
var glyphs = [2][chess.King + 1]string{
	{"", "&#9817;", "&#9816;", "&#9815;", "&#9814;", "&#9813;", "&#9812;"},
	{"", "&#9823;", "&#9822;", "&#9821;", "&#9820;", "&#9819;", "&#9818;"},
}

// Board draws one board seen from side us: the empty board, then cells
// (heat) and men from draw, then coordinates, with a caption.
func Board(sb *strings.Builder, caption string, us chess.Color, draw func(sq chess.Square, x, y int)) {
	size := 8*Cell + 14
	fmt.Fprintf(sb, "<figure class=\"board\"><svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">", size, size, size, size)
	fmt.Fprintf(sb, "<use href=\"#board\" x=\"14\" y=\"0\" width=\"%d\" height=\"%d\"/>", 8*Cell, 8*Cell)
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			file, rank := col, 7-row
			if us == chess.Black {
				file, rank = 7-col, row
			}
			draw(chess.NewSquare(file, rank), 14+col*Cell, row*Cell)
		}
	}
	for i := 0; i < 8; i++ {
		file, rank := i, 7-i
		if us == chess.Black {
			file, rank = 7-i, i
		}
		fmt.Fprintf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%c</text>", 14+i*Cell+Cell/2, 8*Cell+11, 'a'+file)
		fmt.Fprintf(sb, "<text x=\"6\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%d</text>", i*Cell+Cell/2+4, rank+1)
	}
	fmt.Fprintf(sb, "</svg><figcaption>%s</figcaption></figure>\n", html.EscapeString(caption))
}

// Glyph draws man p in the square at x, y.
func Glyph(sb *strings.Builder, p chess.Piece, x, y int) {
	fmt.Fprintf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\">%s</text>", x+Cell/2, y+Cell-6, Cell-4, glyphs[p.Color()][p.Type()])
}

// HeatCell shades the square at x, y by probability p: red, opacity growing
// with the square root of p (so that 1 % is faint but visible), the
// percentage written from 5 % on.
func HeatCell(sb *strings.Builder, p float32, x, y int) {
	if p < 0.005 {
		return
	}
	fmt.Fprintf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#d00000\" fill-opacity=\"%.2f\"/>", x, y, Cell, Cell, 0.9*math.Sqrt(min(float64(p), 1)))
	if p >= 0.05 {
		fmt.Fprintf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\" fill=\"#000\">%d</text>", x+Cell/2, y+Cell/2+4, int(p*100+0.5))
	}
}

// Heat draws a probability map.
func Heat(sb *strings.Builder, caption string, us chess.Color, heat *[64]float32) {
	Board(sb, caption, us, func(sq chess.Square, x, y int) { HeatCell(sb, heat[sq], x, y) })
}

// Position draws a position's men.
func Position(sb *strings.Builder, caption string, us chess.Color, pos *chess.Position) {
	Board(sb, caption, us, func(sq chess.Square, x, y int) {
		if p := pos.PieceAt(sq); p != chess.NoPiece {
			Glyph(sb, p, x, y)
		}
	})
}

// Men draws our men (own, by piece type) over a heat map (nil for none).
func Men(sb *strings.Builder, caption string, us chess.Color, own *[chess.King + 1]chess.Bitboard, heat *[64]float32) {
	Board(sb, caption, us, func(sq chess.Square, x, y int) {
		if heat != nil {
			HeatCell(sb, heat[sq], x, y)
		}
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			if own[pt].Has(sq) {
				Glyph(sb, chess.MakePiece(us, pt), x, y)
			}
		}
	})
}
