package td

import (
	"path/filepath"
	"testing"
)

func TestParsePagePath(t *testing.T) {
	for _, tc := range []struct {
		in  string
		id  int
		ext string
		ok  bool
	}{
		{"/tourney/1", 1, "html", true},
		{"/tourney/12.txt", 12, "txt", true},
		{"/tourney/3.pgn", 3, "pgn", true},
		{"/tourney/3.html", 3, "html", true},
		{"/tourney/", 0, "", false},
		{"/tourney/0", 0, "", false},
		{"/tourney/-1", 0, "", false},
		{"/tourney/#1", 0, "", false},
		{"/tourney/1.json", 0, "", false},
		{"/tourney/1/x", 0, "", false},
		{"/tourney/9999999", 0, "", false},
		{"/tourneys/1", 0, "", false},
		{"/tourney/1.txt.txt", 0, "", false},
	} {
		id, ext, ok := ParsePagePath(tc.in)
		if id != tc.id || ext != tc.ext || ok != tc.ok {
			t.Errorf("%q: %d %q %v, want %d %q %v", tc.in, id, ext, ok, tc.id, tc.ext, tc.ok)
		}
	}
}

func FuzzParsePagePath(f *testing.F) {
	for _, s := range []string{"/tourney/1", "/tourney/2.pgn", "/tourney/x.y", "/tourney/1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ext, ok := ParsePagePath(s)
		if ok && (id < 1 || ext != "html" && ext != "txt" && ext != "pgn") {
			t.Fatalf("%q: %d %q", s, id, ext)
		}
	})
}

func TestTDNumbersAndFiles(t *testing.T) {
	for _, tc := range []struct {
		in string
		n  int
		ok bool
	}{{"3", 3, true}, {"#3", 3, true}, {"0", 0, false}, {"", 0, false}, {"#", 0, false}, {"3a", 0, false}, {"1234567", 0, false}, {"+3", 0, false}} {
		if n, ok := ParseNumber(tc.in); n != tc.n || ok != tc.ok {
			t.Errorf("ParseNumber(%q) = %d %v", tc.in, n, ok)
		}
	}
	for _, tc := range []struct {
		in    string
		meant bool
	}{{"3", true}, {"#3", true}, {"0", true}, {"-5", true}, {"+1", true}, {"1.5", true}, {".5", true}, {"99999999999", true},
		{"#", true}, {"#x", false}, {"!", false}, {"-j", false}, {"Alpha", false}, {"x1", false}} {
		if got := MeantAsNumber(tc.in); got != tc.meant {
			t.Errorf("MeantAsNumber(%q) = %v", tc.in, got)
		}
	}
	for _, tc := range []struct {
		in string
		n  int
		ok bool
	}{{"tourney-1.json", 1, true}, {"tourney-42.json", 42, true}, {"tourney-0.json", 0, false}, {"tourney-.json", 0, false},
		{"tourney-1.pgn", 0, false}, {"tourney-1.json.tmp", 0, false}, {"tourney--1.json", 0, false}, {"x-1.json", 0, false}} {
		if n, ok := FileID(tc.in); n != tc.n || ok != tc.ok {
			t.Errorf("FileID(%q) = %d %v", tc.in, n, ok)
		}
	}
}

// FileID reads back the name EventFile gives an event's state.
func FuzzFileID(f *testing.F) {
	for _, n := range []int{1, 7, 42, 999999} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int) {
		id, ok := FileID(filepath.Base(EventFile("dir", n, "json")))
		if ok != (n >= 1 && n <= 999999) || ok && id != n {
			t.Fatalf("%d: read back as %d %v", n, id, ok)
		}
	})
}
