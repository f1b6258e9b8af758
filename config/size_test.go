package config

import (
	"strings"
	"testing"
)

func TestSizeText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		text string // MarshalText of the result
		bad  string // part of the error
	}{
		{in: "2GB", want: 2_000_000_000, text: "2GB"},
		{in: "500MB", want: 500_000_000, text: "500MB"},
		{in: "500 MB", want: 500_000_000, text: "500MB"},
		{in: "1.5GiB", want: 3 << 29, text: "1536MiB"},
		{in: "1GiB", want: 1 << 30, text: "1GiB"},
		{in: "10KiB", want: 10 << 10, text: "10KiB"},
		{in: "3TB", want: 3e12, text: "3TB"},
		{in: "1000B", want: 1000, text: "1KB"},
		{in: "1001B", want: 1001, text: "1001B"},
		{in: "0", want: 0, text: "0"},
		{in: "0GB", want: 0, text: "0"},
		{in: "2000", bad: "has no unit"},
		{in: "", bad: "invalid size"},
		{in: "GB", bad: "invalid size"},
		{in: "-1GB", bad: "invalid size"},
		{in: "1e3MB", bad: "invalid size"},
		{in: "1.2.3MB", bad: "invalid size"},
		{in: "2gb", bad: "invalid size"},
		{in: "2 gigs", bad: "invalid size"},
		{in: "99999999999TB", bad: "too large"},
	} {
		var s Size
		err := s.UnmarshalText([]byte(tc.in))
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("UnmarshalText(%q) = %v, %v; want an error saying %q", tc.in, s, err, tc.bad)
			}
			continue
		}
		if err != nil || s.Bytes != tc.want {
			t.Errorf("UnmarshalText(%q) = %d, %v; want %d", tc.in, s.Bytes, err, tc.want)
			continue
		}
		text, _ := s.MarshalText()
		if string(text) != tc.text {
			t.Errorf("MarshalText(%d) = %q, want %q", tc.want, text, tc.text)
		}
		var back Size
		if err := back.UnmarshalText(text); err != nil || back != s {
			t.Errorf("round trip of %q: %v, %v", text, back, err)
		}
	}
}

// Any text either fails with a message or gives a size that is not
// negative and reads back the same from its String.
func FuzzSize(f *testing.F) {
	for _, seed := range []string{"2GB", "1.5GiB", "0", "500 MB", "2000", "-1GB", "1e3MB", "99999999999TB", ".5KB", "1.B"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var s Size
		if err := s.UnmarshalText([]byte(in)); err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", in)
			}
			return
		}
		if s.Bytes < 0 {
			t.Fatalf("%q gave %d bytes", in, s.Bytes)
		}
		var back Size
		if err := back.UnmarshalText([]byte(s.String())); err != nil || back != s {
			t.Fatalf("%q = %d bytes; its String %q reads back as %d, %v", in, s.Bytes, s.String(), back.Bytes, err)
		}
	})
}

func TestRetentionSummary(t *testing.T) {
	r := Defaults().Retention
	if got, want := r.Summary("logs"), "retention: the records in logs/{games,transcripts,server} of the last 3 days are kept whole, older ones gzipped; removed: older than 30d, and the oldest past 2GB in all"; got != want {
		t.Errorf("Summary =\n  %s\nwant\n  %s", got, want)
	}
	r.MaxAge.Duration, r.MaxTotalSize.Bytes = 0, 0
	if got := r.Summary("/var/log/kriegbot"); !r.Off() || !strings.Contains(got, "off") || !strings.Contains(got, "grow without bound") {
		t.Errorf("with no bound, Summary = %q (Off %v)", got, r.Off())
	}
	if !strings.Contains(Defaults().Effective(), "\n[retention]\n# retention: the records in logs/") {
		t.Error("Effective does not say what the retention keeps")
	}
}
