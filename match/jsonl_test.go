package match

import (
	"strings"
	"testing"
)

const header = `{"type":"match","p1":"heuristic","p2":"random","games":4,"seed":"1","shard":0,"shards":1,"rules":"icc","max_plies":600,"tc":"-"}`

func TestReadShardErrors(t *testing.T) {
	game := func(s string) string { return header + "\n" + s + "\n" }
	tests := []struct {
		name, in, err string
	}{
		{"empty", "", "f.jsonl: no match line"},
		{"not json", "hello\n", "f.jsonl:1: not a JSON object"},
		{"unknown type", `{"type":"move"}` + "\n", `f.jsonl:1: unknown line type "move"`},
		{"game first", `{"type":"game","game":0}` + "\n", "f.jsonl:1: game line before the match line"},
		{"two headers", header + "\n" + header + "\n", "f.jsonl:2: second match line"},
		{"unknown field", game(`{"type":"game","game":0,"bogus":1}`), `f.jsonl:2: json: unknown field "bogus"`},
		{"trailing text", game(`{"type":"attempt","game":0} {}`), "f.jsonl:2: not a JSON object"},
		{"game range", game(`{"type":"game","game":9,"white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","p1_score":1}`), "f.jsonl:2: game 9 out of range 0..3"},
		{"bad result", game(`{"type":"game","game":0,"white":"heuristic","black":"random","p1":"white","result":"2-0","termination":"checkmate","p1_score":1}`), `bad result "2-0"`},
		{"bad termination", game(`{"type":"game","game":0,"white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"resign","p1_score":1}`), `unknown termination "resign"`},
		{"players swapped", game(`{"type":"game","game":1,"white":"heuristic","black":"random","p1":"black","result":"1-0","termination":"checkmate","p1_score":0}`), "does not match the match line's players"},
		{"score disagrees", game(`{"type":"game","game":0,"white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","p1_score":0}`), "p1_score 0 disagrees with result 1-0"},
		{"bad p1", game(`{"type":"game","game":0,"white":"heuristic","black":"random","p1":"both","result":"1-0","termination":"checkmate","p1_score":1}`), `p1 is "both"`},
		{"long line", header + "\n" + strings.Repeat(" ", maxLine+10) + "\n", "f.jsonl:2: line longer than"},
		{"header without players", `{"type":"match","games":4}` + "\n", "f.jsonl:1: match line without p1 and p2"},
		{"negative iterations", game(`{"type":"attempt","game":0,"iterations":-1}`), "f.jsonl:2: search: -1 iterations not in 0..1099511627776"},
		{"trees do not sum", game(`{"type":"attempt","game":0,"iterations":5,"trees":[2,2]}`), "f.jsonl:2: search: the trees' iterations sum to 4, not 5"},
		{"negative tree", game(`{"type":"attempt","game":0,"iterations":1,"trees":[2,-1]}`), "f.jsonl:2: search: tree 2: -1 iterations not in"},
		{"too many boards", game(`{"type":"attempt","game":0,"iterations":5,"boards":4097}`), "f.jsonl:2: search: 4097 boards not in 0..4096"},
		{"boards without iterations", game(`{"type":"attempt","game":0,"boards":32}`), "f.jsonl:2: trees, tree_nodes or boards without iterations"},
		{"negative tree nodes", game(`{"type":"attempt","game":0,"iterations":5,"tree_nodes":-3}`), "f.jsonl:2: tree_nodes -3 is negative"},
		{"negative ponder", game(`{"type":"attempt","game":0,"ponder":-7}`), "f.jsonl:2: ponder: -7 iterations not in"},
		{"ponder trees alone", game(`{"type":"attempt","game":0,"ponder_trees":[1]}`), "f.jsonl:2: ponder_trees without ponder"},
		{"end without material", game(`{"type":"game","game":1,"white":"random","black":"heuristic","p1":"black","result":"*","termination":"ply cap","p1_score":0.5,"end_fen":"4k3/8/8/8/8/8/8/R3K3 w - - 0 1"}`), "end_fen and p1_material come together"},
		{"bad end", game(`{"type":"game","game":1,"white":"random","black":"heuristic","p1":"black","result":"*","termination":"ply cap","p1_score":0.5,"end_fen":"4k3/8/8/8 w","p1_material":0}`), "game 1: end_fen:"},
		{"wrong material", game(`{"type":"game","game":1,"white":"random","black":"heuristic","p1":"black","result":"*","termination":"ply cap","p1_score":0.5,"end_fen":"4k3/8/8/8/8/8/8/R3K3 w - - 0 1","p1_material":500}`), "p1_material 500, the end position's -500"},
		{"negative think", game(`{"type":"attempt","game":0,"think_us":-1}`), "f.jsonl:2: think_us -1 is negative"},
	}
	for _, tc := range tests {
		_, err := ReadShard("f.jsonl", strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
		}
	}
	ok := header + "\n\n" + `{"type":"attempt","game":0,"ply":0,"side":"white","attempt":"e2e4","legal":true,"san":"e4","think_us":3,"iterations":9,"trees":[4,5],"tree_nodes":20,"boards":32,"ponder":7,"ponder_trees":[3,4]}` + "\n" +
		`{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1/2-1/2","termination":"ply cap","plies":600,"attempts":900,"p1_score":0.5}` + "\n"
	sh, err := ReadShard("f.jsonl", strings.NewReader(ok))
	if err != nil || len(sh.Games) != 1 || sh.Games[0].Seed != 7 || sh.Header.Seed != 1 {
		t.Fatalf("good file: %+v, %v", sh, err)
	}
}

func FuzzReadShard(f *testing.F) {
	f.Add(header + "\n")
	f.Add(header + "\n" + `{"type":"game","game":0,"seed":"7","white":"heuristic","black":"random","p1":"white","result":"1-0","termination":"checkmate","plies":9,"attempts":12,"p1_score":1}` + "\n")
	f.Add(`{"type":"attempt","game":0,"checks":["file","knight"],"clock_ms":5}`)
	f.Add(header + "\n" + `{"type":"game","game":1,"white":"random","black":"heuristic","p1":"black","result":"*","termination":"ply cap","p1_score":0.5,"end_fen":"4k3/8/8/8/8/8/8/R3K3 w - - 0 1","p1_material":-500}` + "\n")
	f.Add("{\"type\":\"match\"\n\x00")
	f.Add(header + "\n" + `{"type":"attempt","game":0,"iterations":9,"trees":[4,5],"boards":32,"ponder":7,"ponder_trees":[7]}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		sh, err := ReadShard("fuzz", strings.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if _, err := Merge([]*Shard{sh}, nil); err != nil {
			t.Fatalf("a shard that reads does not merge: %v", err)
		}
	})
}
