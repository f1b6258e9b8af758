package protocol

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

// fl builds a field list; each argument is one field.
func fl(xs ...string) [][]byte {
	out := make([][]byte, len(xs))
	for i, x := range xs {
		out[i] = []byte(x)
	}
	return out
}

func sq(s string) chess.Square {
	q, ok := chess.ParseSquare(s)
	if !ok {
		panic(s)
	}
	return q
}

// decodeBot decodes as the bot's sessions do, with BotDatagrams on.
func decodeBot(dg int, fields [][]byte) (DG, error) {
	return Decoder{Moves: BotMoveFields}.Decode(dg, fields)
}

func TestDecodeDatagramGood(t *testing.T) {
	ns := chess.NoSquare
	for _, c := range []struct {
		name   string
		dg     int
		fields [][]byte
		want   DG
	}{
		{"whoami", 0, fl("TexasHoldem", "C"), WhoAmIDG{"TexasHoldem", "C"}},
		{"whoami-extra", 0, fl("BloodLust", "", "x"), WhoAmIDG{"BloodLust", ""}},
		{"started", 15, fl(strings.Fields("959 relipse TwoEqualsOne 16 Wild 0 1 0 1 0 1 _ 1733 1373 1624455577 _ C 0 0 0 ? 0")...),
			nil}, // checked below
		{"result", 16, fl("959", "1", "Res", "0-1", "White resigns", "B20"),
			MyGameResultDG{959, true, "Res", "0-1", "White resigns", "B20"}},
		{"ended", 17, fl("464"), MyGameEndedDG{464}},
		{"players", 20, fl("959", "TwoEqualsOne", "PB", "1"), PlayersInMyGameDG{959, "TwoEqualsOne", "PB", 1}},
		{"offers", 21, fl("464", "1", "0", "0", "0", "0", "1", "0", "2"),
			OffersInMyGameDG{464, true, false, false, false, false, true, 0, 2}},
		{"move", 24, fl("959", "e4", "e2e4", "23", "37"), MoveDG{Game: 959, SAN: "e4", Smith: "e2e4", CaptureSquare: ns, TimeUsed: 23, Clock: 37}},
		{"move-extra", 24, fl("959", "e4", "e2e4", "23", "37", "1", "zz"), MoveDG{Game: 959, SAN: "e4", Smith: "e2e4", CaptureSquare: ns, TimeUsed: 23, Clock: 37}},
		{"move-hidden", 24, fl("12", "?", "?", "3", "-2"), MoveDG{Game: 12, SAN: "?", Smith: "?", Hidden: true, CaptureSquare: ns, TimeUsed: 3, Clock: -2}},
		{"move-hidden-capture", 24, fl("12", "?", "?xb1", "3", "50"), MoveDG{Game: 12, SAN: "?", Smith: "?xb1", Hidden: true, CaptureSquare: sq("b1"), TimeUsed: 3, Clock: 50}},
		{"movelist-empty", 25, fl("959", "*"), MoveListDG{Game: 959, Initial: "*"}},
		{"movelist", 25, fl("893", "*", "Qc6+ c1c6 18 1192", "?  ?xe5 0 1210"), MoveListDG{Game: 893, Initial: "*", Moves: []MoveDG{
			{Game: 893, SAN: "Qc6+", Smith: "c1c6", CaptureSquare: ns, TimeUsed: 18, Clock: 1192},
			{Game: 893, SAN: "?", Smith: "?xe5", Hidden: true, CaptureSquare: sq("e5"), Clock: 1210}}}},
		{"match", 29, fl("TwoEqualsOne", "1373", "2", "", "relipse", "1733", "1", "", "16", "Wild", "0", "0", "1", "0", "1", "0", "-1", ""),
			MatchDG{Challenger: "TwoEqualsOne", ChallengerRating: 1373, ChallengerAnnot: 2, Receiver: "relipse", ReceiverRating: 1733,
				ReceiverAnnot: 1, Wild: 16, RatingType: "Wild", ChallengerTime: 1, ReceiverTime: 1, ColorRequest: -1}},
		{"match-assess", 29, fl("a", "1", "2", "", "b", "3", "4", "", "16", "Wild", "1", "0", "2", "12", "2", "12", "1", "+8", "0", "-8", "F"),
			MatchDG{Challenger: "a", ChallengerRating: 1, ChallengerAnnot: 2, Receiver: "b", ReceiverRating: 3, ReceiverAnnot: 4,
				Wild: 16, RatingType: "Wild", Rated: true, ChallengerTime: 2, ChallengerInc: 12, ReceiverTime: 2, ReceiverInc: 12,
				ColorRequest: 1, Assess: []string{"+8", "0", "-8"}, FancyTimeControl: "F"}},
		{"matchremoved", 30, fl("a", "b", "You accept. "), MatchRemovedDG{"a", "b", "You accept. "}},
		// PyChess's example (protocol/testdata/transcripts), and our server's form.
		{"seek", 50, fl(strings.Fields("195 Tinker C 2402 2 0 Blitz 5 3 1 -1 0 9999 1 1")...),
			SeekDG{Index: 195, Name: "Tinker", Titles: "C", Rating: 2402, Provisional: 2, Wild: 0, RatingType: "Blitz",
				Minutes: 5, Inc: 3, Rated: true, Color: -1, MinRating: 0, MaxRating: 9999, Automatic: true, Formula: true}},
		{"seek-w16", 50, fl("7", "alice", "", "1500", "0", "16", "Wild", "5", "0", "0", "1", "0", "9999", "0", "0", ""),
			SeekDG{Index: 7, Name: "alice", Rating: 1500, Wild: 16, RatingType: "Wild", Minutes: 5, Color: 1, MaxRating: 9999}},
		{"seekremoved", 51, fl("195", "2"), SeekRemovedDG{195, 2}},
		{"tell", 31, fl("BloodLust", "", "hi there", "1"), PersonalTellDG{"BloodLust", "", "hi there", 1}},
		{"setclock", 38, fl("959", "60", "60"), SetClockDG{959, 60, 60}},
		{"flip", 39, fl("959", "1"), FlipDG{959, true}},
		{"illegal", 42, fl("959", "e2e5", "2"), IllegalMoveDG{959, "e2e5", 2}},
		{"relation", 43, fl("959", "PW"), RelationDG{959, "PW"}},
		{"msec4", 56, fl("959", "B", "59000", "1"), MsecDG{Game: 959, Color: chess.Black, Msec: 59000, Running: true}},
		{"msec6", 56, fl("959", "W", "-5", "0", "100", "200", "x"), MsecDG{Game: 959, Color: chess.White, Msec: -5, HasExtra: true, FreeTime: 100, MinMoveTime: 200}},
		{"moretime", 61, fl("959", "B", "60"), MoretimeDG{959, chess.Black, 60}},
		{"tellecho", 62, fl("bob", "1", "hello"), PersonalTellEchoDG{"bob", 1, "hello"}},
		{"loginfailed", 69, fl("5", "Bad password."), LoginFailedDG{5, "Bad password."}},
		{"gamemessage", 77, fl("959", "Your opponent offers you a draw."), GameMessageDG{959, "Your opponent offers you a draw."}},
		{"positionbegin", 101, fl("959", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "2"),
			PositionBeginDG{959, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2}},
		{"switch", 120, fl("chessclub.com", "5000", "1.2.3.4"), SwitchServersDG{"chessclub.com", 5000, "1.2.3.4"}},
		{"set2", 124, fl("24", "1"), Set2DG{24, true}},
		{"myturn", 139, fl("959"), MyTurnDG{959}},
		{"error", 154, fl("1", "en", "E1 User guest1\ncannot", "http://www.chessclub.com/err/1"),
			ErrorDG{1, "en", "E1 User guest1\ncannot", "http://www.chessclub.com/err/1"}},
		{"fail", 168, fl("7", "no such command"), FailDG{7, "no such command"}},
		{"raw", 32, fl("knightrunner", "", "1", "Sir H!"), RawDG{32, []string{"knightrunner", "", "1", "Sir H!"}}},
		{"raw-empty", 81, nil, RawDG{81, []string{}}},
	} {
		fields := c.fields
		if c.name == "started" { // "_" stands for an empty field
			for i, f := range fields {
				if string(f) == "_" {
					fields[i] = nil
				}
			}
		}
		got, err := decodeBot(c.dg, fields)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Number() != c.dg {
			t.Errorf("%s: Number() = %d, want %d", c.name, got.Number(), c.dg)
		}
		if c.name == "started" {
			want := MyGameStartedDG{Game: 959, White: "relipse", Black: "TwoEqualsOne", Wild: 16, RatingType: "Wild",
				WhiteInitial: 1, BlackInitial: 1, Played: true, WhiteRating: 1733, BlackRating: 1373,
				GameID: "1624455577", BlackTitles: "C", FancyTimeControl: "?"}
			c.want = want
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, c.want)
		}
	}
}

func TestDecodeDatagramBad(t *testing.T) {
	for _, c := range []struct {
		dg     int
		fields [][]byte
		field  string // expected field name in the error
	}{
		{0, nil, "myname"},
		{0, fl(""), "myname"},
		{15, fl("959", "a", "b", "0", "Blitz", "0", "1", "0", "1", "0", "1", "", "1733", "1373", "1", "", "", "0", "0", "0", ""), "promote-to-king"},
		{15, fl("x"), "gamenumber"},
		{16, fl("959", "2", "Res", "0-1", "d", "B20"), "become-examined"},
		{16, fl("959", "1", "Res", "0-1", "d"), "ECO"},
		{17, nil, "gamenumber"},
		{20, fl("959", "x", "PB"), "kibvalue"},
		{21, fl("1", "0", "0", "0", "0", "0", "0", "0"), "btakeback"},
		{24, fl("959", "e4", "e2e4", "23"), "clock"},
		{24, fl("959", "e4", "e2e4", "x", "3"), "time"},
		{24, fl("959", "e4", "", "1", "3"), "smith"},
		{24, fl("959", "?", "?xz9", "1", "3"), "smith"},
		{24, fl("959", "?", "?e4", "1", "3"), "smith"},
		{24, fl("abc"), "gamenumber"},
		{25, fl("959", "short"), "initial-position"},
		{25, fl("959", "*", "e4 e2e4 1"), "move-info 1 clock"},
		{29, fl("a", "1", "2", "", "b", "3", "4", "", "0", "Blitz", "0", "0", "1", "0", "1", "0"), "color-request"},
		{30, fl("a", "b"), "explanation"},
		{31, fl("a", "", "hi", "tell"), "type"},
		{38, fl("959", "60"), "black-clock"},
		{39, fl("959", "yes"), "flip"},
		{42, fl("959", "e2e5"), "reason"},
		{43, fl("959"), "symbol"},
		{56, fl("959", "X", "1", "1"), "color"},
		{56, fl("959", "W", "1", "1", "5", "z"), "min_move_time"},
		{61, fl("959", "W"), "seconds"},
		{62, fl("bob", "1"), "text"},
		{69, fl("x", "why"), "code"},
		{69, fl("5"), "explanation"},
		{77, fl("959"), "string"},
		{101, fl("959", "fen"), "nmoves-to-follow"},
		{120, fl("host", "port", "ip"), "port"},
		{124, fl("24", "2"), "on"},
		{139, fl("99999999999999999999"), "gamenumber"},
		{154, fl("1", "en", "text"), "URL"},
		{168, fl("x", "m"), "command_id"},
	} {
		got, err := decodeBot(c.dg, c.fields)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("DG %d %q: got %#v, %v; want DecodeError", c.dg, c.fields, got, err)
			continue
		}
		if de.DG != c.dg || de.Field != c.field {
			t.Errorf("DG %d %q: error %v, want field %q", c.dg, c.fields, err, c.field)
		}
		if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), "DG ") {
			t.Errorf("error text %q lacks DG number or field name", err)
		}
	}
}

func TestDecodeMoveFieldForms(t *testing.T) {
	// Reindeer had only DG 34 and 36 on: (24 227 e7e6 298).
	d := Decoder{Moves: MoveFields{Smith: true, Clock: true}}
	got, err := d.Decode(24, fl("227", "e7e6", "298"))
	want := MoveDG{Game: 227, Smith: "e7e6", Clock: 298, CaptureSquare: chess.NoSquare}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("reindeer form: got %#v, %v", got, err)
	}
	// Algebraic only, hidden move.
	d = Decoder{Moves: MoveFields{Algebraic: true}}
	got, err = d.Decode(24, fl("5", "?xc3"))
	want = MoveDG{Game: 5, SAN: "?xc3", Hidden: true, CaptureSquare: sq("c3")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("algebraic-only form: got %#v, %v", got, err)
	}
	// With DG 113 on.
	d = Decoder{Moves: MoveFields{Algebraic: true, Smith: true, Time: true, Clock: true, Variation: true}}
	got, err = d.Decode(24, fl("959", "e4", "e2e4", "23", "37", "1"))
	want = MoveDG{Game: 959, SAN: "e4", Smith: "e2e4", CaptureSquare: chess.NoSquare, TimeUsed: 23, Clock: 37, Variation: true}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("variation form: got %#v, %v", got, err)
	}
	if _, err := d.Decode(24, fl("959", "e4", "e2e4", "23", "37")); err == nil {
		t.Error("missing is-variation: no error")
	}
}

func TestDecodeCopiesFields(t *testing.T) {
	fields := fl("959", "relipse", "PW", "1")
	got, err := decodeBot(20, fields)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		for i := range f {
			f[i] = 'X'
		}
	}
	if p := got.(PlayersInMyGameDG); p.Name != "relipse" || p.Symbol != "PW" {
		t.Errorf("decoded strings alias the input: %+v", p)
	}
	raw := fl("a", "b")
	r, _ := decodeBot(999, raw)
	raw[0][0] = 'z'
	if r.(RawDG).Fields[0] != "a" {
		t.Error("RawDG aliases the input")
	}
}

func TestDecodeTranscripts(t *testing.T) {
	all := map[int]int{}
	var moves []MoveDG
	var started []MyGameStartedDG
	var results []MyGameResultDG
	var lists []MoveListDG
	for _, name := range []string{"onethfour-match-game-959.txt", "onethfour-observe-game-464.txt", "onethfour-dg-comment-lines.txt"} {
		data, err := os.ReadFile("testdata/transcripts/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var r Reader
		r.Feed(data)
		r.Flush()
		for {
			ev, ok := r.Next()
			if !ok {
				break
			}
			if ev.Kind != Datagram {
				continue
			}
			d, err := decodeBot(ev.DG, ev.Fields)
			if err != nil {
				t.Errorf("%s: %v: %v", name, ev, err)
				continue
			}
			all[ev.DG]++
			if _, raw := d.(RawDG); !raw && d.Number() != ev.DG {
				t.Errorf("%s: DG %d decoded as %T", name, ev.DG, d)
			}
			switch v := d.(type) {
			case MoveDG:
				moves = append(moves, v)
			case MyGameStartedDG:
				started = append(started, v)
			case MyGameResultDG:
				results = append(results, v)
			case MoveListDG:
				lists = append(lists, v)
			}
		}
	}
	for _, n := range []int{0, 15, 16, 17, 20, 21, 24, 25, 29, 30, 38, 39, 43} {
		if all[n] == 0 {
			t.Errorf("no DG %d found in transcripts", n)
		}
	}
	wantMove := MoveDG{Game: 959, SAN: "e4", Smith: "e2e4", CaptureSquare: chess.NoSquare, TimeUsed: 23, Clock: 37}
	found := false
	for _, m := range moves {
		found = found || reflect.DeepEqual(m, wantMove)
	}
	if !found {
		t.Errorf("DG 24 959 e4 e2e4 23 37 not decoded; moves: %+v", moves)
	}
	var s959, sQ bool
	for _, s := range started {
		if s.Game == 959 && s.White == "relipse" && s.Black == "TwoEqualsOne" && s.RatingType == "Bullet" &&
			s.WhiteInitial == 1 && s.WhiteRating == 1733 && s.BlackRating == 1373 && s.Played && !s.Rated {
			s959 = true
		}
		if s.Game == 313 && s.ExString == "Ex: scratch" && s.FancyTimeControl == "?" && !s.Played {
			sQ = true
		}
	}
	if !s959 || !sQ {
		t.Errorf("DG 15 samples not decoded as expected: %+v", started)
	}
	var r959 bool
	for _, r := range results {
		if r.Game == 959 && r.Code == "Res" && r.Score == "0-1" && r.Description == "White resigns" && r.ECO == "B20" && r.BecomeExamined {
			r959 = true
		}
	}
	if !r959 {
		t.Errorf("DG 16 959 not decoded as expected: %+v", results)
	}
	var l1021, l464 bool
	for _, l := range lists {
		if l.Game == 1021 && len(l.Initial) == 64 && len(l.Moves) == 2 && l.Moves[1].SAN == "Kxe5" && l.Moves[1].Smith == "f6e5n" && l.Moves[1].Clock == 1210 {
			l1021 = true
		}
		if l.Game == 464 && l.Initial == "*" && len(l.Moves) > 50 && l.Moves[0].Smith == "g2g3" {
			l464 = true
		}
	}
	if !l1021 || !l464 {
		t.Errorf("DG 25 samples not decoded as expected")
	}
}

func FuzzDecodeDatagram(f *testing.F) {
	f.Add(24, "959 e4 e2e4 23 37")
	f.Add(24, "12 ? ?xb1 3 5")
	f.Add(25, "959 * e4")
	f.Add(15, "959 relipse TwoEqualsOne 0 Bullet 0 1 0 1 0 1  1733 1373 1624455577   0 0 0 ? 0")
	f.Add(56, "959 W 1000 1 5 6")
	f.Add(29, "a 1 2  b 3 4  0 Blitz 0 0 1 0 1 0 -1 +1 0 -1 x")
	f.Add(999, "")
	f.Fuzz(func(t *testing.T, dg int, s string) {
		var fields [][]byte
		if s != "" {
			fields = fl(strings.Split(s, " ")...)
		}
		for _, d := range []Decoder{{Moves: BotMoveFields}, {Moves: MoveFields{Smith: true, Variation: true}}, {}} {
			got, err := d.Decode(dg, fields)
			if (got == nil) == (err == nil) {
				t.Fatalf("DG %d %q: got %v, err %v", dg, s, got, err)
			}
			if err == nil {
				if _, raw := got.(RawDG); !raw && got.Number() != dg {
					t.Fatalf("DG %d decoded as %T", dg, got)
				}
			}
		}
	})
}

func TestHotDatagramsDoNotAllocate(t *testing.T) {
	d := Decoder{Moves: BotMoveFields, Intern: NewInterner(64)}
	move := fl("959", "e4", "e2e4", "23", "37")
	msec := fl("959", "W", "59000", "1")
	d.DecodeMove(move) // warm the interner
	if n := testing.AllocsPerRun(100, func() {
		if _, err := d.DecodeMove(move); err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeMsec(msec); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per DG 24 + DG 56", n)
	}
}
