package live

import (
	"fmt"
	"html"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/oppmodel"
	"kriegbot/engine/players"
	"kriegbot/internal/boardsvg"
)

func htmlEscape(s string) string { return html.EscapeString(s) }

const pageCSS = `body{font-family:sans-serif;margin:16px;color:#222;background:#fafafa}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}
.meta{color:#555;font-size:13px}.boards{display:flex;flex-wrap:wrap;gap:10px}
figure.board{margin:0}figcaption{font-size:12px;text-align:center;color:#444}
table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #ddd}
td:first-child,th:first-child{text-align:left}.legend{font-size:12px;color:#555;max-width:900px}
.game{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:8px 0}
.heard{font-size:12px;color:#333}caption{font-size:12px;color:#444;text-align:left;padding:4px 0}`

// The page re-reads its fragment every second; the first render is the
// server's, so the page reads even without script.
const pageJS = `(function(){var el=document.getElementById('live');
function tick(){fetch('/fragment',{cache:'no-store'}).then(function(r){return r.ok?r.text():null}).then(function(t){if(t!==null)el.innerHTML=t}).catch(function(){});}
setInterval(tick,1000);})();`

// pageHTML is the whole page.
func pageHTML(s *Snapshot) string {
	var sb strings.Builder
	sb.WriteString("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>kriegbot: live</title><style>")
	sb.WriteString(pageCSS)
	sb.WriteString("</style></head><body>")
	sb.WriteString(boardsvg.Symbol())
	sb.WriteString("<div id=\"live\">")
	sb.WriteString(fragmentHTML(s))
	sb.WriteString("</div><p class=\"legend\">Legend: our men are drawn on each board; red shading is the belief's chance that the opponent's king, a pawn or another piece stands on a square (the number is the percentage, shown from 5 %). Values and scores are expected results from -1 (lost) to +1 (won); pawns are the search's own value. The candidates are those of our search in the position the game is in, labelled with the plies played before it; they are gone once the game moves on. P(illegal), P(capture), P(check) are the belief's chances of the referee's answer to that attempt. The page is read-only and refreshes every second.</p>")
	sb.WriteString("<script>")
	sb.WriteString(pageJS)
	sb.WriteString("</script></body></html>\n")
	return sb.String()
}

var heatTitles = [oppmodel.NumClasses]string{"their king", "their pawns", "their other pieces"}

// fragmentHTML is the part of the page that changes.
func fragmentHTML(s *Snapshot) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "<h1>kriegbot: %s</h1>", htmlEscape(s.Account))
	updated := "never"
	if !s.Updated.IsZero() {
		updated = s.Updated.Local().Format("15:04:05")
	}
	fmt.Fprintf(&sb, "<div class=\"meta\">%s · score +%d -%d =%d (%d games) · updated %s</div>",
		htmlEscape(s.Server), s.Score.Wins, s.Score.Losses, s.Score.Draws, s.Score.Finished, updated)
	if s.Tourney != "" {
		fmt.Fprintf(&sb, "<div class=\"meta\">tournament: %s</div>", htmlEscape(s.Tourney))
	}
	if len(s.Games) == 0 {
		status := s.Status
		if status == "" {
			status = "no game in progress"
		}
		fmt.Fprintf(&sb, "<h2>%s</h2>", htmlEscape(status))
	}
	for i := range s.Games {
		gameHTML(&sb, &s.Games[i])
	}
	if len(s.Finished) > 0 {
		sb.WriteString("<h2>Finished games</h2><table><tr><th>game</th><th>opponent</th><th>we played</th><th>result</th><th>plies</th><th>how</th><th></th></tr>")
		for i := len(s.Finished) - 1; i >= 0; i-- {
			f := s.Finished[i]
			link := ""
			if f.Record != "" {
				name := strings.TrimSuffix(f.Record, ".jsonl")
				link = fmt.Sprintf("<a href=\"/replay/%s.html\">replay</a>", htmlEscape(name))
			}
			fmt.Fprintf(&sb, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td></tr>",
				f.Number, htmlEscape(f.Opponent), f.Us, htmlEscape(f.Result), f.Plies, htmlEscape(f.Reason), link)
		}
		sb.WriteString("</table>")
	}
	return sb.String()
}

func gameHTML(sb *strings.Builder, g *Game) {
	us := chess.White
	if g.Us == "black" {
		us = chess.Black
	}
	value := ""
	if g.HasValue {
		value = fmt.Sprintf(" · value %+.2f", g.Value)
	}
	fmt.Fprintf(sb, "<div class=\"game\"><h2>Game %d vs %s (we play %s, %s)</h2>", g.Number, htmlEscape(g.Opponent), g.Us, htmlEscape(g.Control))
	fmt.Fprintf(sb, "<div class=\"meta\">ply %d · our clock %s · theirs %s · %s%s</div>", g.Ply,
		clockText(g.ClockUs), clockText(g.ClockThem), htmlEscape(g.State), value)
	if g.Rules != "" {
		fmt.Fprintf(sb, "<div class=\"meta rules\">rules %s</div>", htmlEscape(g.Rules))
	}
	if len(g.Turn) > 0 || g.Pockets != "" {
		sb.WriteString("<ul class=\"turn\" style=\"font-size:13px;margin:4px 0;color:#036\">") // styled here: a wild 16 page is as it was
		for _, l := range g.Turn {
			fmt.Fprintf(sb, "<li>%s</li>", htmlEscape(l))
		}
		if g.Pockets != "" {
			fmt.Fprintf(sb, "<li class=\"pockets\">%s</li>", htmlEscape(g.Pockets))
		}
		sb.WriteString("</ul>")
	}
	var own [chess.King + 1]chess.Bitboard
	for pt := range own {
		own[pt] = chess.Bitboard(g.Own[pt])
	}
	sb.WriteString("<div class=\"boards\">")
	if g.HasHeat {
		for c := range oppmodel.NumClasses {
			boardsvg.Men(sb, heatTitles[c]+" (%) over our men", us, &own, &g.Heat[c])
		}
	} else {
		boardsvg.Men(sb, "our men", us, &own, nil)
	}
	sb.WriteString("</div>")
	if len(g.Candidates) > 0 {
		fmt.Fprintf(sb, "<table><caption>our search after ply %d (move %d)</caption><tr><th>candidate</th><th>visits</th><th>score</th><th>pawns</th><th>P(illegal)</th><th>P(capture)</th><th>P(check)</th><th>P(mate)</th><th>P(mated)</th><th>P(repeat)</th></tr>",
			g.CandidatesPly, g.CandidatesPly/2+1)
		for _, c := range g.Candidates {
			fmt.Fprintf(sb, "<tr><td>%s</td><td>%d</td><td>%+.3f</td><td>%+.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>",
				htmlEscape(c.Move), c.Visits, players.Score(c.Value), c.Value, c.PIllegal, c.PCapture, c.PCheck, c.PMate, c.PMated, c.PRepeat)
		}
		sb.WriteString("</table>")
	}
	if len(g.Heard) > 0 {
		sb.WriteString("<div class=\"heard\">heard: ")
		sb.WriteString(htmlEscape(strings.Join(g.Heard, " · ")))
		sb.WriteString("</div>")
	}
	sb.WriteString("</div>")
}

func clockText(ms int64) string {
	d := time.Duration(max(ms, 0)) * time.Millisecond
	return fmt.Sprintf("%d:%02d", int(d/time.Minute), int(d%time.Minute/time.Second))
}
