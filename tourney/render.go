package tourney

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
)

// FormatPoints writes half-points as "2.5"-style text ("2", "2.5", "0.5").
func FormatPoints(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// crossCells returns the crosstable entries: the opponent's row, the
// colour and the result ("5w1", "3b=", "12w+" for a forfeit win), or for
// a bye "bye+", "bye=", "bye0", a rest "rest", a pending game "5w*",
// not in the round "-".
func (e *Event) crossCells(st []Standing) [][]string {
	// ranks can be shared; the crosstable names opponents by row number
	rowOf := make([]int, len(e.Players))
	for i, s := range st {
		rowOf[s.Player] = i + 1
	}
	cells := e.cells()
	out := make([][]string, len(e.Players))
	for i := range e.Players {
		for _, c := range cells[i] {
			var s string
			switch {
			case c.bye == PairingBye:
				s = "bye+"
			case c.bye == HalfBye:
				s = "bye="
			case c.bye == ZeroBye:
				s = "bye0"
			case c.bye == RestBye:
				s = "rest"
			case c.opp < 0:
				s = "-"
			default:
				col := "w"
				if c.colour == Black {
					col = "b"
				}
				var res string
				switch {
				case !c.result.Done():
					res = "*"
				case c.played && c.pts2 == 2:
					res = "1"
				case c.played && c.pts2 == 1:
					res = "="
				case c.played:
					res = "0"
				case c.pts2 == 2:
					res = "+"
				default:
					res = "-"
				}
				s = strconv.Itoa(rowOf[c.opp]) + col + res
			}
			out[i] = append(out[i], s)
		}
	}
	return out
}

func rankText(s Standing) string {
	if s.Shared {
		return strconv.Itoa(s.Rank) + "="
	}
	return strconv.Itoa(s.Rank)
}

// table writes rows as aligned text columns; right-aligned where right[i].
func table(w io.Writer, rows [][]string, right []bool) error {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i > 0 {
				b.WriteString("  ")
			}
			if i < len(right) && right[i] {
				b.WriteString(pad + c)
			} else if i < len(r)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		if _, err := io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

func (e *Event) standingRows(st []Standing, tbs []TieBreak) [][]string {
	head := []string{"Rk", "Player", "Rtg", "Pts", "Gms"}
	for _, tb := range tbs {
		head = append(head, tb.Short())
	}
	rows := [][]string{head}
	for _, s := range st {
		p := e.Players[s.Player]
		name := p.Handle
		if p.Withdrawn() {
			name += " (w)"
		}
		r := []string{rankText(s), name, strconv.Itoa(p.Rating), FormatPoints(s.Points), strconv.Itoa(s.Played)}
		for _, v := range s.Values {
			r = append(r, FormatPoints(v))
		}
		rows = append(rows, r)
	}
	return rows
}

// WriteStandings writes the standings as aligned text: rank ("3=" when
// shared), handle ("(w)" after a withdrawn player), rating, points, games
// played on the board, one column per tie-break.
func (e *Event) WriteStandings(w io.Writer, tbs ...TieBreak) error {
	st := e.Standings(tbs...)
	right := []bool{true, false, true, true, true}
	for range tbs {
		right = append(right, true)
	}
	return table(w, e.standingRows(st, tbs), right)
}

func (e *Event) crossRows(st []Standing) [][]string {
	head := []string{"No", "Player", "Rtg"}
	for r := range e.Played {
		head = append(head, "R"+strconv.Itoa(r+1))
	}
	head = append(head, "Pts")
	rows := [][]string{head}
	cc := e.crossCells(st)
	for i, s := range st {
		p := e.Players[s.Player]
		r := []string{strconv.Itoa(i + 1), p.Handle, strconv.Itoa(p.Rating)}
		r = append(r, cc[s.Player]...)
		r = append(r, FormatPoints(s.Points))
		rows = append(rows, r)
	}
	return rows
}

// WriteCrosstable writes the crosstable as aligned text, one row per
// player in standings order; each round's cell names the opponent's row,
// the colour and the result (1, = or 0; + and - for forfeits; * pending),
// or the bye ("bye+" one point, "bye=" half, "bye0" none, "rest").
func (e *Event) WriteCrosstable(w io.Writer, tbs ...TieBreak) error {
	st := e.Standings(tbs...)
	right := []bool{true, false, true}
	for range e.Played {
		right = append(right, true)
	}
	right = append(right, true)
	return table(w, e.crossRows(st), right)
}

const pageCSS = `body{font-family:sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:0 0 1.5em}
th,td{border:1px solid #bbb;padding:.2em .6em;text-align:right}
th{background:#eee}td.name,th.name{text-align:left}
tr:nth-child(even) td{background:#f7f7f7}caption{text-align:left;font-weight:bold;padding:.3em 0}`

// WriteHTML writes a self-contained HTML page (inline CSS, no script) with
// the standings and the crosstable; every name is escaped.
func (e *Event) WriteHTML(w io.Writer, tbs ...TieBreak) error {
	st := e.Standings(tbs...)
	var b strings.Builder
	esc := html.EscapeString
	title := e.Name
	if title == "" {
		title = "Tournament"
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n", esc(title), pageCSS)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p>%s, %d of %d rounds paired.</p>\n", esc(title), esc(e.System.String()), len(e.Played), e.Rounds)
	writeTable := func(caption string, rows [][]string, nameCol int) {
		fmt.Fprintf(&b, "<table>\n<caption>%s</caption>\n", esc(caption))
		for i, r := range rows {
			b.WriteString("<tr>")
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			for j, c := range r {
				if j == nameCol {
					fmt.Fprintf(&b, "<%s class=\"name\">%s</%s>", tag, esc(c), tag)
				} else {
					fmt.Fprintf(&b, "<%s>%s</%s>", tag, esc(c), tag)
				}
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n")
	}
	writeTable("Standings", e.standingRows(st, tbs), 1)
	writeTable("Crosstable", e.crossRows(st), 1)
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// PGNTags returns the tags of one game of the event: the Seven Tag Roster
// in its order (Event, Site, Date, Round, White, Black, Result; an unset
// Site is "?", an unset Date "????.??.??"), then Board, and WhiteElo and
// BlackElo when the ratings are known. The moves come from the game
// records.
func (e *Event) PGNTags(round, board int) ([]Tag, error) {
	if round < 1 || round > len(e.Played) {
		return nil, fmt.Errorf("tourney: no round %d", round)
	}
	for _, g := range e.Played[round-1].Games {
		if g.Board != board {
			continue
		}
		w, b := e.Players[g.White], e.Players[g.Black]
		site, date := e.Site, e.Date
		if site == "" {
			site = "?"
		}
		if date == "" {
			date = "????.??.??"
		}
		tags := []Tag{
			{"Event", e.Name},
			{"Site", site},
			{"Date", date},
			{"Round", strconv.Itoa(round)},
			{"White", w.Handle},
			{"Black", b.Handle},
			{"Result", g.Result.PGN()},
			{"Board", strconv.Itoa(board)},
		}
		if w.Rating > 0 {
			tags = append(tags, Tag{"WhiteElo", strconv.Itoa(w.Rating)})
		}
		if b.Rating > 0 {
			tags = append(tags, Tag{"BlackElo", strconv.Itoa(b.Rating)})
		}
		return tags, nil
	}
	return nil, fmt.Errorf("tourney: round %d has no board %d", round, board)
}

// RoundTags returns PGNTags for every game of a round, board by board.
func (e *Event) RoundTags(round int) ([][]Tag, error) {
	if round < 1 || round > len(e.Played) {
		return nil, fmt.Errorf("tourney: no round %d", round)
	}
	var out [][]Tag
	for _, g := range e.Played[round-1].Games {
		t, err := e.PGNTags(round, g.Board)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// FormatTags renders tags as PGN tag pair lines, escaping the values.
func FormatTags(tags []Tag) string {
	pgnEscaper := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ")
	var b strings.Builder
	for _, t := range tags {
		b.WriteString("[" + t.Name + " \"" + pgnEscaper.Replace(t.Value) + "\"]\n")
	}
	return b.String()
}
