package protocol

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"kriegbot/engine/chess"
)

// readAll tokenizes b in one feed and returns the events as strings.
func readAll(b []byte) []string {
	var r Reader
	r.Feed(b)
	r.Flush()
	var out []string
	for {
		ev, ok := r.Next()
		if !ok {
			return out
		}
		out = append(out, ev.String())
	}
}

func TestAppendDatagramRoundTrip(t *testing.T) {
	for _, fields := range [][]string{
		{"959", "e4", "e2e4", "23", "37"},
		{"12", "?", "?xb1", "3", "50"},
		{"", "{", "a}b", "two words", "line\nbreak", "\x19sneaky", "ok"},
		{"White resigns", "B20"},
	} {
		b := AppendDatagram(nil, 24, fields...)
		var r Reader
		r.Feed(b)
		ev, ok := r.Next()
		if !ok || ev.Kind != Datagram || ev.DG != 24 || len(ev.Fields) != len(fields) {
			t.Fatalf("%q: got %v", b, ev)
		}
		for i, f := range fields {
			want := strings.ReplaceAll(f, "\x19", "")
			if string(ev.Fields[i]) != want {
				t.Fatalf("%q field %d: got %q want %q", b, i, ev.Fields[i], want)
			}
		}
	}
}

func TestUnitEncoding(t *testing.T) {
	b := AppendUnitBegin(nil, 5, "*", "t1")
	b = append(b, AppendDatagram(nil, 0, "bot", "C")...)
	b = append(b, "hello\r\n"...)
	b = AppendUnitEnd(b)
	got := strings.Join(readAll(b), " | ")
	want := `UnitBegin 5 "*" tag="t1" | Datagram 0 ["bot" "C"] | Text "hello" | UnitEnd`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func FuzzAppendDatagram(f *testing.F) {
	f.Add("959", "e2e4", "two words")
	f.Add("", "{", "\x19}")
	f.Add("a\nb", "}", "?xe5")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		enc := AppendDatagram(nil, 77, a, b, c)
		var r Reader
		r.Feed(enc)
		ev, ok := r.Next()
		if !ok || ev.Kind != Datagram || ev.DG != 77 || len(ev.Fields) != 3 {
			t.Fatalf("%q: got %v", enc, ev)
		}
		for i, f := range []string{a, b, c} {
			// A field survives whole but for the bytes the wire cannot
			// quote (^Y, ^Z, ^O, BEL), which are dropped.
			want := strings.Map(func(r rune) rune {
				if r < 0x80 && unquotable(byte(r)) {
					return -1
				}
				return r
			}, f)
			if !utf8.ValidString(f) {
				continue // strings.Map would rewrite invalid bytes
			}
			if string(ev.Fields[i]) != want {
				t.Fatalf("%q field %d: got %q want %q", enc, i, ev.Fields[i], want)
			}
		}
	})
}

// TestTranscriptEntryRoundTrip: what AppendTranscriptEntry writes,
// TranscriptReader reads back, whatever the bytes.
func TestTranscriptEntryRoundTrip(t *testing.T) {
	clock := time.Date(2026, 11, 23, 18, 0, 0, 123456000, time.UTC)
	entries := []TranscriptEntry{
		{Time: clock, Dir: DirIn, Data: []byte("\x19(0 bot C\x19)\r\n\xe9t\xe9 \\ ********")},
		{Time: clock.Add(time.Second), Dir: DirOut, Data: []byte("e2e4\n")},
		{Time: clock.Add(2 * time.Second), Dir: DirNote, Data: []byte("closed: EOF")},
		{Time: clock.Add(3 * time.Second), Dir: DirIn},
	}
	var b []byte
	for _, e := range entries {
		b = AppendTranscriptEntry(b, e)
	}
	want := "2026-11-23T18:00:00.123456Z < \\x19(0 bot C\\x19)\\r\\n\\xe9t\\xe9 \\\\ ********\n"
	if !strings.HasPrefix(string(b), want) {
		t.Fatalf("got %q\nwant prefix %q", b, want)
	}
	r := NewTranscriptReader(bytes.NewReader(b))
	for _, w := range entries {
		e, err := r.Next()
		if err != nil || e.Dir != w.Dir || !e.Time.Equal(w.Time) || !bytes.Equal(e.Data, w.Data) {
			t.Fatalf("entry %+v err %v, want %+v", e, err, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("err %v", err)
	}
}

func TestTranscriptReaderErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"nonsense\n", "line 1: want"},
		{"\n2026-11-23T18:00:00Z ! x\n", "line 2: bad direction"},
		{"yesterday < x\n", "line 1: bad time"},
		{"2026-11-23T18:00:00Z < \\q\n", "line 1: column 24: unknown escape"},
		{"2026-11-23T18:00:00Z < ab\\x4\n", "line 1: column 26: short"},
		{"2026-11-23T18:00:00Z < \\xzz\n", "line 1: column 24: bad \\x escape"},
		{"2026-11-23T18:00:00Z < x\\\n", "lone backslash"},
	} {
		_, err := NewTranscriptReader(strings.NewReader(c.in)).Next()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%q: err %v, want %q", c.in, err, c.want)
		}
	}
	long := "2026-11-23T18:00:00Z < " + strings.Repeat("a", MaxTranscriptLine) + "\n"
	if _, err := NewTranscriptReader(strings.NewReader(long)).Next(); err == nil {
		t.Fatal("over-long line accepted")
	}
}

func FuzzTranscriptReader(f *testing.F) {
	f.Add([]byte("2026-11-23T18:00:00.123456Z < \\x19(0 bot C\\x19)\\r\\n\n2026-11-23T18:00:01Z > e2e4\\n\n"))
	f.Add([]byte("2026-11-23T18:00:00Z # closed\n\n\nbad\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewTranscriptReader(bytes.NewReader(b))
		for i := 0; i < 10000; i++ {
			e, err := r.Next()
			if err != nil {
				return
			}
			// What parsed re-encodes to the same entry (the time to the
			// microsecond, in UTC), when its year can be written.
			if y := e.Time.UTC().Year(); y < 0 || y > 9999 {
				continue
			}
			line := AppendTranscriptEntry(nil, e)
			back, err := NewTranscriptReader(bytes.NewReader(line)).Next()
			if err != nil || back.Dir != e.Dir || !bytes.Equal(back.Data, e.Data) ||
				!back.Time.Equal(e.Time.Truncate(time.Microsecond)) {
				t.Fatalf("round trip: %+v -> %q -> %+v (%v)", e, line, back, err)
			}
		}
	})
}

func TestCommandLines(t *testing.T) {
	m, _ := chess.ParseUCI("e7e8q")
	for _, c := range []struct {
		got  func() (string, error)
		want string
	}{
		{func() (string, error) { return LoginLine("bot", "") }, "bot"},
		{func() (string, error) { return LoginLine("bot", "pw") }, "bot pw"},
		{func() (string, error) { return MoveLine(m, PromoteUCI) }, "e7e8q"},
		{func() (string, error) { return MoveLine(m, PromoteEquals) }, "e7e8=Q"},
		{func() (string, error) {
			return SeekLine(SeekParams{Minutes: 2, Increment: 12, Wild: 16, MinRating: 1200, MaxRating: 1800})
		}, "seek 2 12 u w16 a 1200-1800"},
		{func() (string, error) {
			return SeekLine(SeekParams{Minutes: 5, Rated: true, Color: "white", Manual: true, Formula: true})
		}, "seek 5 0 r white m f"},
		{func() (string, error) {
			return MatchLine(MatchParams{Opponent: "Fred", Minutes: 2, Increment: 12, Wild: 16})
		}, "match Fred 2 12 u w16"},
		{func() (string, error) { return AcceptLine("Fred") }, "accept Fred"},
		{func() (string, error) { return DeclineLine("Fred") }, "decline Fred"},
		{func() (string, error) { return TellLine("owner", "status:\n ok\x19;  quit") }, "tell owner status: ok ; quit"},
		{func() (string, error) { return SayLine("  good game ") }, "say good game"},
		{func() (string, error) { return UnseekLine(0), nil }, "unseek"},
		{func() (string, error) { return UnseekLine(3), nil }, "unseek 3"},
		{func() (string, error) { return Level1Line(5), nil }, "level1=5"},
	} {
		got, err := c.got()
		if err != nil || got != c.want {
			t.Fatalf("got %q (%v), want %q", got, err, c.want)
		}
	}
	for _, bad := range []func() (string, error){
		func() (string, error) { return LoginLine("a b", "") },
		func() (string, error) { return LoginLine("bot", "pass word") },
		func() (string, error) { return MoveLine(chess.NullMove, PromoteUCI) },
		func() (string, error) { return TellLine("x;quit", "hi") },
		func() (string, error) { return TellLine("owner", "\n\n") },
		func() (string, error) { return MatchLine(MatchParams{Opponent: "", Minutes: 1}) },
		func() (string, error) { return MatchLine(MatchParams{Opponent: "f", Minutes: 1, Color: "red"}) },
		func() (string, error) { return SeekLine(SeekParams{Minutes: 1000}) },
		func() (string, error) { return SeekLine(SeekParams{Minutes: 1, MinRating: 1800, MaxRating: 1200}) },
	} {
		got, err := bad()
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Fatalf("accepted: %q", got)
		}
	}
	if len(CleanText(strings.Repeat("x", 1000))) != MaxTellText {
		t.Fatal("long text not cut")
	}
}

func TestMoveFieldsFor(t *testing.T) {
	if MoveFieldsFor(BotDatagrams) != BotMoveFields {
		t.Fatalf("bot datagrams give %+v", MoveFieldsFor(BotDatagrams))
	}
	if mf := MoveFieldsFor([]int{DGMoveSmith, DGMoveClock}); mf != (MoveFields{Smith: true, Clock: true}) {
		t.Fatalf("got %+v", mf)
	}
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
