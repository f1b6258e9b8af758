package telnet

import (
	"slices"
	"testing"
)

// read feeds in to a reader of lines of at most max bytes in pieces of
// size step (0: all at once) and returns the lines, with "!" for each
// line too long.
func read(in []byte, max, step int) []string {
	r := NewLineReader(max)
	var out []string
	line := func(l []byte) bool { out = append(out, string(l)); return true }
	tooLong := func() { out = append(out, "!") }
	if step <= 0 {
		step = len(in) + 1
	}
	for len(in) > 0 {
		n := min(step, len(in))
		r.Feed(in[:n], line, tooLong)
		in = in[n:]
	}
	return out
}

func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"crlf", "seek 5 0\r\nsought\r\n", []string{"seek 5 0", "sought"}},
		{"lf", "a\nb\n", []string{"a", "b"}},
		{"cr", "a\rb\r", []string{"a", "b"}},
		{"lfcr", "a\n\rb\n\r", []string{"a", "b"}},
		{"blank lines count", "\r\n\r\n", []string{"", ""}},
		{"crcr is two ends", "a\r\rb\r", []string{"a", "", "b"}},
		{"no end yet", "a\r\nunfinished", []string{"a"}},
		{"nul dropped", "a\x00b\n", []string{"ab"}},
		{"iac iac dropped", "a\xff\xffb\n", []string{"ab"}},
		{"will option", "\xff\xfb\x01go\n", []string{"go"}},
		{"dont option", "\xff\xfe\x22go\n", []string{"go"}},
		{"two-byte command", "a\xff\xf1b\n", []string{"ab"}},
		{"subnegotiation", "\xff\xfa\x18\x00xterm\xff\xf0go\n", []string{"go"}},
		{"iac inside sb", "\xff\xfa\x18\xff\xff\x01\xff\xf0go\n", []string{"go"}},
		{"line at max", "1234567890\n", []string{"1234567890"}},
		{"line over max", "12345678901\nok\n", []string{"!", "ok"}},
		{"far over max, crlf", "123456789012345678901234\r\nok\r\n", []string{"!", "ok"}},
	} {
		for _, step := range []int{0, 1, 2, 3} {
			if got := read([]byte(tc.in), 10, step); !slices.Equal(got, tc.want) {
				t.Errorf("%s, pieces of %d: %q, want %q", tc.name, step, got, tc.want)
			}
		}
	}
}

// Feed stops at once when line says so, and reads no further.
func TestLineReaderStops(t *testing.T) {
	r := NewLineReader(10)
	var got []string
	ok := r.Feed([]byte("a\nquit\nb\n"), func(l []byte) bool {
		got = append(got, string(l))
		return string(l) != "quit"
	}, func() {})
	if ok || !slices.Equal(got, []string{"a", "quit"}) {
		t.Fatalf("%v %q", ok, got)
	}
}

// However the bytes are cut, the lines are the same, and none holds a
// line end, a NUL, an IAC or more than max bytes.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"seek 5 0\r\n", "a\n\rb\r\n\r", "\xff\xfb\x01\xff\xfa\x18\xff\xff\xff\xf0x\n", "123456789012\nok\n", "\x00\r\x00\n"} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, in []byte, step int) {
		if step < 1 || step > 64 {
			step = 1 + (step&63+64)%64
		}
		whole := read(in, 8, 0)
		if cut := read(in, 8, step); !slices.Equal(whole, cut) {
			t.Fatalf("%q: whole %q, in pieces of %d %q", in, whole, step, cut)
		}
		for _, l := range whole {
			if len(l) > 8 || slices.ContainsFunc([]byte(l), func(b byte) bool { return b == '\r' || b == '\n' || b == 0 || b == iac }) {
				t.Fatalf("%q: line %q", in, l)
			}
		}
	})
}
