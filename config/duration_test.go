package config

import (
	"testing"
	"time"
)

func TestDurationText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		text string // MarshalText of the result
		bad  bool
	}{
		{in: "300ms", want: 300 * time.Millisecond, text: "300ms"},
		{in: "2m", want: 2 * time.Minute, text: "2m"},
		{in: "1h30m", want: 90 * time.Minute, text: "1h30m"},
		{in: "1h", want: time.Hour, text: "1h"},
		{in: "120s", want: 2 * time.Minute, text: "2m"},
		{in: "1.5s", want: 1500 * time.Millisecond, text: "1.5s"},
		{in: "0s", want: 0, text: "0s"},
		{in: "0", want: 0, text: "0s"}, // time.ParseDuration allows a bare 0
		{in: "30d", want: 30 * 24 * time.Hour, text: "30d"},
		{in: "1d12h", want: 36 * time.Hour, text: "36h"},
		{in: "48h", want: 48 * time.Hour, text: "2d"},
		{in: "0d", want: 0, text: "0s"},
		{in: "1.5d", bad: true},
		{in: "d", bad: true},
		{in: "1d-1h", bad: true},
		{in: "1dd", bad: true},
		{in: "100001d", bad: true},
		{in: "-1d", bad: true},
		{in: "-1s", bad: true},
		{in: "30", bad: true},
		{in: "", bad: true},
		{in: "2 m", bad: true},
		{in: "forever", bad: true},
		{in: "9999999h", bad: true},
	} {
		var d Duration
		err := d.UnmarshalText([]byte(tc.in))
		if tc.bad {
			if err == nil {
				t.Errorf("UnmarshalText(%q) = %v, want an error", tc.in, d)
			}
			continue
		}
		if err != nil || d.Duration != tc.want {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tc.in, d.Duration, err, tc.want)
			continue
		}
		text, _ := d.MarshalText()
		if string(text) != tc.text {
			t.Errorf("MarshalText(%v) = %q, want %q", tc.want, text, tc.text)
		}
		var back Duration
		if err := back.UnmarshalText(text); err != nil || back != d {
			t.Errorf("round trip of %q: %v, %v", text, back, err)
		}
	}
}
