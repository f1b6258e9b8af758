package match

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

// FuzzSideRecord: any bytes read as a match file and turned into a record
// give a record or an error naming the file, never a panic.
func FuzzSideRecord(f *testing.F) {
	const head = `{"type":"match","p1":"random","p2":"heuristic","games":2,"seed":"1","shard":0,"shards":1,"rules":"icc","max_plies":600,"tc":"-","nodes":10}`
	const game = `{"type":"game","game":0,"seed":"7","white":"random","black":"heuristic","p1":"white","result":"*","termination":"ply cap","plies":1,"attempts":2,"p1_score":0.5}`
	f.Add(head + "\n" + `{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e5","legal":false,"think_us":1}` + "\n" +
		`{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":1}` + "\n" + game + "\n")
	f.Add(head + "\n" + `{"type":"attempt","game":0,"ply":0,"side":"black","attempt":"e7e5","legal":true,"think_us":1}` + "\n" + game + "\n")
	f.Add(head + "\n" + strings.Replace(game, `"seed":"7"`, `"seed":"7","fen":"8/8/8/8/8/8/8/K6k w - - 0 1"`, 1) + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ReadGame("fuzz", strings.NewReader(in), 0)
		if err != nil {
			return
		}
		if len(g.Attempts) > 64 {
			return // long games are the same code, slower
		}
		for _, us := range []chess.Color{chess.White, chess.Black} {
			rec, err := g.SideRecord("fuzz", us, 0)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz") {
					t.Fatalf("error without the file name: %v", err)
				}
				continue
			}
			if rec.Game.Us != us {
				t.Fatalf("record of %v for %v", rec.Game.Us, us)
			}
		}
	})
}
