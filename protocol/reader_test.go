package protocol

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// collect feeds data in chunks of size n (n <= 0: all at once), flushes,
// and returns the rendered events.
func collect(r *Reader, data []byte, n int) []string {
	var out []string
	drain := func() {
		for {
			ev, ok := r.Next()
			if !ok {
				return
			}
			out = append(out, ev.String())
		}
	}
	if n <= 0 {
		n = len(data) + 1
	}
	for len(data) > 0 {
		k := min(n, len(data))
		r.Feed(data[:k])
		data = data[k:]
		drain()
	}
	r.Flush()
	drain()
	return out
}

// y turns "^Y" into the real 0x19 byte.
func y(s string) string { return strings.ReplaceAll(s, "^Y", "\x19") }

func TestTable(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain lines", "hello\r\nworld\n\rthird\rfourth\nlast", []string{`Text "hello"`, `Text "world"`, `Text "third"`, `Text "fourth"`, `Text "last"`}},
		{"empty lines dropped", "a\r\n\r\n\n\nb\n", []string{`Text "a"`, `Text "b"`}},
		{"bel stripped latin1 kept", "be\x07ep caf\xe9\n", []string{`Text "beep caf\xe9"`}},
		{"prompt stripped", "aics% aics% hi\naics%\naics% \n", []string{`Text "hi"`}},
		{"simple dg", y("^Y(24 959 e4 e2e4 23 37^Y)"), []string{`Datagram 24 ["959" "e4" "e2e4" "23" "37"]`}},
		{"dg mid line", y("Game 959 (a vs. b)^Y(24 959 e4^Y) ---x\n"),
			[]string{`Text "Game 959 (a vs. b)"`, `Datagram 24 ["959" "e4"]`, `Text " ---x"`}},
		{"dg then prompt", y("^Y(43 959 PW^Y)aics%\n"), []string{`Datagram 43 ["959" "PW"]`}},
		{"brace fields", y("^Y(15 1 {} {GM TD}{x}  ^Y{a {b} c\nd^Y} ^Y{^Y} ? ^Y)"),
			[]string{`Datagram 15 ["1" "" "GM TD" "x" "a {b} c\nd" "" "?"]`}},
		{"extra blanks", y("^Y(  38   959 60\t60  ^Y)"), []string{`Datagram 38 ["959" "60" "60"]`}},
		{"no fields", y("^Y(81^Y)"), []string{`Datagram 81 []`}},
		{"empty dg", y("^Y(^Y)"), []string{`Error "empty datagram"`}},
		{"bad number", y("^Y(x 1^Y)"), []string{`Error "bad datagram number"`}},
		{"unknown escape dropped", y("a^Yqb\n"), []string{`Text "aqb"`}},
		{"unknown escape in dg", y("^Y(1 a^Yb^Y)"), []string{`Datagram 1 ["ab"]`}},
		{"stray close", y("x^Y)y\n"), []string{`Error "stray ^Y) outside datagram"`, `Text "xy"`}},
		{"unit", y("^Y[328 fishbait\r\nbody\r\n^Y[199 * tag1\nin\n^Y]^Y]"),
			[]string{`UnitBegin 328 "fishbait"`, `Text "body"`, `UnitBegin 199 "*" tag="tag1"`, `Text "in"`, `UnitEnd`, `UnitEnd`}},
		{"unit end with no unit", y("^Y]"), []string{`UnitEnd`}},
		{"header ended by marker", y("^Y[5 *^Y]"), []string{`UnitBegin 5 "*"`, `UnitEnd`}},
		{"bad header", y("^Y[x *\n"), []string{`Error "bad unit header"`}},
		{"overflow", y("abc\x1a^Y(1 2\x0fdef\n"), []string{`Text "abc"`, `Overflow`, `Overflow`, `Text "def"`}},
		{"overflow resets depth", y("^Y[1 *\n\x1a^Y]"), []string{`UnitBegin 1 "*"`, `Overflow`, `UnitEnd`}},
		{"unterminated dg then new dg", y("^Y(1 a ^Y(2 b^Y)"), []string{`Error "unterminated datagram"`, `Datagram 2 ["b"]`}},
		{"unterminated at eof", y("^Y(24 959 e4"), []string{`Error "unterminated datagram at end of input"`}},
		{"dg in unit", y("^Y[2 *\r\n^Y(24 1 e4^Y)^Y]\r\n"), []string{`UnitBegin 2 "*"`, `Datagram 24 ["1" "e4"]`, `UnitEnd`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, n := range []int{0, 1, 2, 7} {
				var r Reader
				got := collect(&r, []byte(tc.in), n)
				if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Fatalf("chunk %d:\ngot  %q\nwant %q", n, got, tc.want)
				}
			}
		})
	}
}

func TestDepthCap(t *testing.T) {
	r := Reader{MaxDepth: 2}
	got := collect(&r, []byte(y("^Y[1 *\n^Y[2 *\n^Y[3 *\nx\n^Y]^Y]^Y]after\n")), 0)
	want := []string{`UnitBegin 1 "*"`, `UnitBegin 2 "*"`, `Error "units nested too deep"`, `Text "x"`, `UnitEnd`, `UnitEnd`, `Text "after"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func loadTranscripts(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/transcripts/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	m := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(p)] = b
	}
	// The nesting example writes ^Y as two characters; add a raw version.
	m["formats-txt-level1-nesting.txt(raw)"] = []byte(y(string(m["formats-txt-level1-nesting.txt"])))
	return m
}

func TestChunkingInvariance(t *testing.T) {
	for name, data := range loadTranscripts(t) {
		var r0 Reader
		want := collect(&r0, data, 0)
		if len(want) == 0 {
			t.Errorf("%s: no events", name)
		}
		for _, n := range []int{1, 2, 3, 7, 64, 4096} {
			var r Reader
			got := collect(&r, data, n)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: chunk %d differs from whole-input stream", name, n)
			}
		}
	}
}

func TestTranscripts(t *testing.T) {
	all := loadTranscripts(t)
	for name, data := range all {
		var r Reader
		evs := collect(&r, data, 7)
		dgs := 0
		for _, e := range evs {
			if strings.HasPrefix(e, "Error") || strings.HasPrefix(e, "Overflow") {
				t.Errorf("%s: unexpected %s", name, e)
			}
			if strings.HasPrefix(e, "Datagram") {
				dgs++
			}
		}
		if bytes.Contains(data, []byte("\x19(")) && dgs == 0 {
			t.Errorf("%s: has ^Y bytes but no datagrams", name)
		}
	}
	has := func(file string, want ...string) {
		t.Helper()
		var r Reader
		got := strings.Join(collect(&r, all[file], 4096), "\n")
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: missing %s", file, w)
			}
		}
	}
	has("onethfour-match-game-959.txt",
		`Datagram 24 ["959" "e4" "e2e4" "23" "37"]`,
		`Text "Game 959 (relipse vs. TwoEqualsOne)"`+"\n"+`Datagram 24 ["959" "c5" "c7c5" "3" "57"]`,
		`Datagram 15 ["959" "relipse" "TwoEqualsOne" "0" "Bullet" "0" "1" "0" "1" "0" "1" "" "1733" "1373" "1624455577" "" "" "0" "0" "0" "" "0"]`,
		`Datagram 16 ["959" "1" "Res" "0-1" "White resigns" "B20"]`,
		`Datagram 29 ["TwoEqualsOne" "1373" "2" "" "relipse" "1733" "1" "" "0" "Bullet" "0" "0" "1" "0" "1" "0" "-1" ""]`,
		`Datagram 25 ["959" "*"]`,
		`Datagram 32 ["ROBOadmin" "* C" "2" "*** GRANDMASTER Bones is playing string!! Type \"observe Bones\" to watch the rated 15-minute 15 0 game."]`,
		`Text "DG_SEND_MOVES"`,
	)
	has("onethfour-observe-game-464.txt",
		`Datagram 21 ["464" "0" "0" "0" "0" "0" "0" "0" "0"]`,
		`Datagram 38 ["464" "7" "9"]`,
		`Datagram 24 ["464" "Ke5" "f6e5" "0" "9"]`,
		`Datagram 25 ["464" "*" "g3 g2g3 1 59" "d5 d7d5 1 59"`,
	)
	has("onethfour-dg-comment-lines.txt",
		`Datagram 0 ["TexasHoldem" "C"]`,
		`Datagram 15 ["313" "relipse" "relipse" "0" "Blitz" "0" "2" "12" "2" "12" "0" "Ex: scratch" "0" "0" "1624451647" "" "" "0" "0" "0" "?" "0"]`,
		`Datagram 25 ["1021" "-----B----p------p---k-pq---N---r-----P-------P--P----K---Q-----" "Qc6+ c1c6 18 1192" "Kxe5 f6e5n 0 1210"]`,
	)
	has("formats-txt-level1-nesting.txt(raw)",
		`UnitBegin 328 "fishbait"`+"\n"+`Text "fishbait spoofs you: \"partner fishbait\""`+"\n"+`UnitBegin 199 "*"`,
		`UnitBegin 101 "*"`+"\n"+`Text "Not sent -- fishbait does not get messages from unregistered players."`+"\n"+`UnitEnd`+"\n"+`UnitEnd`+"\n"+`UnitEnd`,
	)
}

func TestLongLine(t *testing.T) {
	var r Reader
	data := append(bytes.Repeat([]byte("x"), 1<<20), []byte(y("\nok^Y(1 a^Y)\n"))...)
	got := collect(&r, data, 4096)
	want := []string{`Error "text line too long"`, `Text "ok"`, `Datagram 1 ["a"]`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", got)
	}
	if cap(r.line) > 2*DefaultMaxLine+64 {
		t.Fatalf("line buffer grew to %d", cap(r.line))
	}
}

func TestUnterminatedDatagram(t *testing.T) {
	var r Reader
	data := []byte(y("^Y(24 959 "))
	data = append(data, bytes.Repeat([]byte("ab"), 1<<19)...)
	data = append(data, []byte(y("^Y)after\n^Y(2 x^Y)"))...)
	got := collect(&r, data, 4096)
	want := []string{`Error "datagram too long"`, `Text "after"`, `Datagram 2 ["x"]`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", got)
	}
	if cap(r.dg) > 2*DefaultMaxDatagram+64 {
		t.Fatalf("datagram buffer grew to %d", cap(r.dg))
	}
}

func TestTooManyFields(t *testing.T) {
	r := Reader{MaxFields: 3}
	got := collect(&r, []byte(y("^Y(1 a b c^Y)^Y(1 a b c d^Y)^Y(1 a b {c} {d}^Y)x\n")), 1)
	want := []string{`Datagram 1 ["a" "b" "c"]`, `Error "too many datagram fields"`, `Error "too many datagram fields"`, `Text "x"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", got)
	}
}

func FuzzReader(f *testing.F) {
	for _, data := range loadTranscripts(f) {
		f.Add(data)
		if len(data) > 300 {
			f.Add(data[100:300])
		}
	}
	f.Add([]byte(y("^Y(15 1 {} ^Y{a}b^Y} x^Y)\r\n\n\r^Y[1 * t\r\n^Y]\x1a\x0f^Y")))
	f.Fuzz(func(t *testing.T, data []byte) {
		const lim = 32
		mk := func() *Reader { return &Reader{MaxLine: lim, MaxDatagram: lim, MaxFields: 4, MaxDepth: 3} }
		r := mk()
		var want []string
		r.Feed(data)
		for {
			ev, ok := r.Next()
			if !ok {
				break
			}
			want = append(want, ev.String())
			if len(ev.Text) > lim || len(ev.Fields) > 4 {
				t.Fatalf("event over bounds: %s", ev)
			}
			for _, fl := range ev.Fields {
				if len(fl) > lim {
					t.Fatalf("field over bounds: %s", ev)
				}
			}
			if len(r.line) > lim || len(r.dg) > lim || len(r.offs) > 2*5 {
				t.Fatalf("buffers over bounds")
			}
		}
		r.Flush()
		for {
			ev, ok := r.Next()
			if !ok {
				break
			}
			want = append(want, ev.String())
		}
		for _, n := range []int{1, 7} {
			got := collect(mk(), data, n)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("chunk %d:\ngot  %q\nwant %q", n, got, want)
			}
		}
	})
}

func BenchmarkReader(b *testing.B) {
	var stream []byte
	for _, data := range loadTranscripts(b) {
		stream = append(stream, data...)
	}
	var r Reader
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(stream); off += 4096 {
			r.Feed(stream[off:min(off+4096, len(stream))])
			for {
				ev, ok := r.Next()
				if !ok {
					break
				}
				n += int(ev.Kind)
			}
		}
	}
	if n == 0 {
		b.Fatal("no events")
	}
}

func TestZeroAllocsWarm(t *testing.T) {
	var stream []byte
	for _, data := range loadTranscripts(t) {
		stream = append(stream, data...)
	}
	var r Reader
	run := func() {
		for off := 0; off < len(stream); off += 512 {
			r.Feed(stream[off:min(off+512, len(stream))])
			for {
				if _, ok := r.Next(); !ok {
					break
				}
			}
		}
	}
	run() // warm up buffers
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Fatalf("%v allocs per stream after warm-up, want 0", a)
	}
}
