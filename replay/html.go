package replay

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"strings"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/internal/boardsvg"
	"kriegbot/internal/retention"
	"kriegbot/internal/turntext"
	"kriegbot/record"
)

// The HTML page is one file: inline SVG boards drawn here, a little CSS and
// a few lines of JavaScript for the slider (page.html#60 opens at attempt
// 60). Nothing is fetched. Every frame
// is drawn in advance and hidden; the slider shows one at a time. Text from
// the record (handles, spec, referee words) is escaped.

// WriteHTML writes the replay as one self-contained HTML page.
func WriteHTML(w io.Writer, res *Result) error {
	var sb strings.Builder
	g := res.Record.Game
	title := fmt.Sprintf("kriegbot replay: game %d, %s vs %s", g.Number, g.White, g.Black)
	sb.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
	sb.WriteString(html.EscapeString(title))
	sb.WriteString("</title>\n<style>\n" + pageCSS + "</style></head><body>\n")
	fmt.Fprintf(&sb, "<h1>%s</h1>\n<p class=\"meta\">", html.EscapeString(title))
	fmt.Fprintf(&sb, "We play %s with <code>%s</code>, seed %d, %d+%d. ", colorName(g.Us), html.EscapeString(g.Player), g.Seed, g.BaseMin, g.IncS)
	if r := res.Record.Result; r != nil {
		fmt.Fprintf(&sb, "Result %s (%s) after %d plies, %d illegal attempts. ", html.EscapeString(r.Result), html.EscapeString(r.Reason), r.Plies, r.Illegal)
	}
	fmt.Fprintf(&sb, "<b id=\"summary\">%s</b></p>\n", html.EscapeString(Summary(res)))
	if v := g.Rules.Variant; !v.IsWild16() {
		fmt.Fprintf(&sb, "<p class=\"meta\" id=\"rules\">Rules: %s.</p>\n", html.EscapeString(turntext.Rules(v)))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&sb, "<p class=\"warn\">warning: %s</p>\n", html.EscapeString(w))
	}
	sb.WriteString(boardsvg.Symbol())
	if len(res.Frames) > 0 {
		fmt.Fprintf(&sb, "<div class=\"nav\"><button id=\"prev\">&#9664;</button> <input type=\"range\" id=\"slider\" min=\"0\" max=\"%d\" value=\"0\"> <button id=\"next\">&#9654;</button> <span id=\"pos\"></span></div>\n", len(res.Frames)-1)
	} else {
		sb.WriteString("<p>No attempts in the chosen plies.</p>\n")
	}
	for i := range res.Frames {
		writeHTMLFrame(&sb, res, i)
		if sb.Len() > 1<<16 {
			if _, err := io.WriteString(w, sb.String()); err != nil {
				return err
			}
			sb.Reset()
		}
	}
	writeHTMLFinal(&sb, res)
	sb.WriteString(htmlLegend)
	sb.WriteString("<script>\n" + pageJS + "</script>\n</body></html>\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// htmlLegend explains every symbol and shade of the page.
const htmlLegend = `<p class="meta" id="legend"><b>Legend.</b> "Our men" shows our pieces (hollow glyphs White, solid Black).
The three heat maps shade each square red by the belief's chance that their king, a pawn or another piece
stands there (deeper red is likelier; the number is the percentage, from 5 %; nothing is drawn under
0.5 %). "The truth" board is the real position, revealed after the game. In the candidates, score is the
expected result from -1 (lost) to +1 (won), pawns the search's value in pawns, and p(illegal), p(capture),
p(check) the belief's chances of the referee's answer; p(mate), p(mated), p(repeat) are the root's chances that
the attempt mates, leaves a mate in one, or draws by repetition, weighed besides the value; the chosen attempt is
marked, and an attempt where the re-run chose otherwise than the record says so. Use the slider, the buttons or the arrow keys.</p>
`

const pageCSS = `body{font-family:sans-serif;margin:16px;color:#222;background:#fafafa}
h1{font-size:20px;margin:0 0 6px}
.meta{margin:0 0 10px}
.warn{color:#a40}
.nav{position:sticky;top:0;background:#fafafa;padding:6px 0;border-bottom:1px solid #ccc;margin-bottom:8px}
#slider{width:60%;vertical-align:middle}
.frame{display:none}
.frame.on{display:block}
.boards{display:flex;flex-wrap:wrap;gap:14px}
.board figcaption{text-align:center;font-size:13px}
.board{margin:0}
.differs{color:#c00;font-weight:bold}
table{border-collapse:collapse;margin-top:8px}
td,th{padding:2px 8px;text-align:right;font-size:13px}
th{border-bottom:1px solid #999}
tr.chosen td{font-weight:bold}
td.mv{text-align:left;font-family:monospace}
ol.heard{font-size:13px;max-height:130px;overflow:auto;margin:4px 0;padding-left:28px}
.final{margin-top:24px;border-top:1px solid #ccc;padding-top:8px}
.moves{font-family:monospace;font-size:13px;max-width:900px}
`

const pageJS = `(function(){
var frames=document.querySelectorAll('.frame'),s=document.getElementById('slider'),pos=document.getElementById('pos');
if(!s||frames.length===0)return;
function show(i){i=Math.max(0,Math.min(frames.length-1,i));s.value=i;
for(var k=0;k<frames.length;k++)frames[k].classList.toggle('on',k===i);
pos.textContent=frames[i].getAttribute('data-label');}
s.addEventListener('input',function(){show(+s.value)});
document.getElementById('prev').onclick=function(){show(+s.value-1)};
document.getElementById('next').onclick=function(){show(+s.value+1)};
document.addEventListener('keydown',function(e){if(e.key==='ArrowLeft'||e.key==='p')show(+s.value-1);if(e.key==='ArrowRight'||e.key==='n')show(+s.value+1)});
var start=0,h=document.getElementById('a'+location.hash.slice(1));
for(var k=0;k<frames.length;k++)if(frames[k]===h)start=k;
show(start);})();
`

var heatTitles = [oppmodel.NumClasses]string{"their king (%)", "their pawns (%)", "their other pieces (%)"}

func writeHTMLFrame(sb *strings.Builder, res *Result, i int) {
	f := &res.Frames[i]
	label := fmt.Sprintf("attempt %d, ply %d (line %d)", f.Attempt, f.Ply, f.Line)
	fmt.Fprintf(sb, "<section class=\"frame\" id=\"a%d\" data-label=\"%s\">\n<h2>Attempt %d &middot; ply %d &middot; move %d &middot; record line %d", f.Attempt, html.EscapeString(label), f.Attempt, f.Ply, f.Ply/2+1, f.Line)
	if f.Differs {
		sb.WriteString(" <span class=\"differs\">re-run differs</span>")
	}
	sb.WriteString("</h2>\n")
	if f.HasClocks {
		fmt.Fprintf(sb, "<p>Clocks: ours %s, theirs %s</p>\n", clockText(f.Clocks.Ours), clockText(f.Clocks.Theirs))
	}
	writeHTMLTurn(sb, f)
	sb.WriteString("<div class=\"boards\">\n")
	if f.HasHeat {
		boardsvg.Board(sb, "our men", f.Us, func(sq chess.Square, x, y int) {
			for pt := chess.Pawn; pt <= chess.King; pt++ {
				if f.Own[pt].Has(sq) {
					boardsvg.Glyph(sb, chess.MakePiece(f.Us, pt), x, y)
				}
			}
		})
		for c := range oppmodel.NumClasses {
			boardsvg.Heat(sb, heatTitles[c], f.Us, &f.Heat[c])
		}
	}
	if t := truthAt(res, f.Ply); t != nil {
		boardsvg.Position(sb, "the truth at this ply (revealed after the game)", f.Us, t)
	}
	sb.WriteString("</div>\n")
	writeHTMLCandidates(sb, f)
	shown := min(f.Heard, heardHTML)
	if shown < f.Heard {
		fmt.Fprintf(sb, "<p>Referee, so far (%d answers, the latest %d shown, latest first):</p>\n", f.Heard, shown)
	} else {
		fmt.Fprintf(sb, "<p>Referee, so far (%d answers, latest first):</p>\n", f.Heard)
	}
	// Numbered by the answer's place in the game, the latest first.
	fmt.Fprintf(sb, "<ol class=\"heard\" reversed start=\"%d\">", f.Heard)
	for k := f.Heard - 1; k >= f.Heard-shown; k-- {
		h := res.Heard[k]
		fmt.Fprintf(sb, "<li>ply %d: %s</li>", h.Ply, html.EscapeString(heardText(h)))
	}
	sb.WriteString("</ol>\n</section>\n")
}

// writeHTMLTurn writes what a variant game's turn stood on: the
// obligation, the pawn news, the opponent's last turn, the pockets.
func writeHTMLTurn(sb *strings.Builder, f *Frame) {
	if len(f.Turn) == 0 && !f.HasPockets {
		return
	}
	// Styled here, not in pageCSS: a wild 16 page stays as it was.
	sb.WriteString("<ul class=\"turn\" style=\"font-size:14px;margin:4px 0;padding-left:22px;color:#036\">")
	for _, l := range f.Turn {
		fmt.Fprintf(sb, "<li>%s</li>", html.EscapeString(l))
	}
	if f.HasPockets {
		fmt.Fprintf(sb, "<li class=\"pockets\">our pocket: %s; their pocket: %s</li>",
			html.EscapeString(turntext.Pocket(f.Pockets[0])), html.EscapeString(turntext.Pocket(f.Pockets[1])))
	}
	sb.WriteString("</ul>\n")
}

// heardHTML is the most referee answers an HTML frame lists.
const heardHTML = 40

func writeHTMLCandidates(sb *strings.Builder, f *Frame) {
	sb.WriteString("<p>Recorded attempt <b>")
	sb.WriteString(record.MoveText(f.Recorded))
	sb.WriteString("</b>")
	if rs := f.RecordedSearch; rs != nil {
		fmt.Fprintf(sb, " (%s, score %+.3f, %.2f pawns%s)", searchSize(rs), players.Score(rs.Value), rs.Value, criticalNote(rs))
	}
	if f.Differs {
		fmt.Fprintf(sb, "; <span class=\"differs\">the re-run chose %s</span>", f.Replayed)
	} else {
		sb.WriteString("; the re-run agrees")
	}
	sb.WriteString(".</p>\n")
	if len(f.Search.Candidates) == 0 {
		return
	}
	sb.WriteString("<table><tr><th>candidate</th><th>visits</th><th>score</th><th>pawns</th><th>p(illegal)</th><th>p(capture)</th><th>p(check)</th><th>p(mate)</th><th>p(mated)</th><th>p(repeat)</th></tr>\n")
	for _, c := range f.Search.Candidates {
		cls := ""
		if c.Move == f.Replayed {
			cls = " class=\"chosen\""
		}
		fmt.Fprintf(sb, "<tr%s><td class=\"mv\">%s</td><td>%d</td><td>%+.3f</td><td>%.2f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n",
			cls, c.Move, c.Visits, players.Score(c.Value), c.Value, c.PIllegal, c.PCapture, c.PCheck, c.PMate, c.PMated, c.PRepeat)
	}
	sb.WriteString("</table>\n")
}

func writeHTMLFinal(sb *strings.Builder, res *Result) {
	if len(res.Truth) == 0 {
		return
	}
	sb.WriteString("<section class=\"final\"><h2>The game as revealed after the end</h2>\n<p class=\"moves\">")
	for i, s := range res.Record.Moves {
		if i%2 == 0 {
			fmt.Fprintf(sb, "%d. ", i/2+1)
		}
		sb.WriteString(html.EscapeString(s))
		sb.WriteByte(' ')
	}
	sb.WriteString("</p>\n<div class=\"boards\">")
	boardsvg.Position(sb, "final position", res.Record.Game.Us, &res.Truth[len(res.Truth)-1])
	sb.WriteString("</div></section>\n")
}

// Page re-runs the game in record file name and returns its HTML replay
// page (the operator's live page links finished games to it). When the
// re-run does not repeat the game (a choice, or a search's size, differs
// from the record), Page returns the page and an error saying so: the page
// shows that re-run, not the game as played, and must not be kept as its
// replay.
func Page(ctx context.Context, name string, build string) ([]byte, error) {
	f, err := retention.Open(name) // the record may have been gzipped since
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The record's whole name, not its base: the per-opponent counts it
	// names are read from its folder (record.GameInfo.OpponentCounts).
	rec, err := record.Read(bufio.NewReader(f), name)
	if err != nil {
		return nil, err
	}
	res, err := Run(ctx, rec, Options{Build: build})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, res); err != nil {
		return nil, err
	}
	if res.Differing > 0 || res.Resized > 0 {
		return b.Bytes(), fmt.Errorf("%s: the re-run did not repeat the game (%s)", name, Summary(res))
	}
	return b.Bytes(), nil
}
