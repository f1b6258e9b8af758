package td

import (
	"strings"
	"testing"
	"time"

	"kriegbot/tourney"
)

func TestParseEventSpec(t *testing.T) {
	def := EventSpec{System: tourney.Swiss, Rounds: 5, Minutes: 2, Inc: 12, Style: "icc", MaxPlayers: 64}
	with := func(f func(*EventSpec)) EventSpec { sp := def; f(&sp); return sp }
	for _, tc := range []struct {
		in   string
		want EventSpec
		err  string
	}{
		{"", def, ""},
		{"name=KS1,system=swiss,rounds=3,tc=1+1,style=fics,start=4", with(func(sp *EventSpec) {
			sp.Name, sp.Rounds, sp.Minutes, sp.Inc, sp.Style, sp.StartPlayers = "KS1", 3, 1, 1, "fics", 4
		}), ""},
		{"name=A system=rr start=10m", with(func(sp *EventSpec) {
			sp.Name, sp.System, sp.StartAfter = "A", tourney.RoundRobin, 10*time.Minute
		}), ""},
		{"SYSTEM=DRR, max=8 ,start=manual", with(func(sp *EventSpec) { sp.System, sp.MaxPlayers = tourney.DoubleRoundRobin, 8 }), ""},
		{"tc=rapid", with(func(sp *EventSpec) { sp.Minutes, sp.Inc = 25, 10 }), ""},
		{"name=KS1 name=KS2", EventSpec{}, "name given twice"},
		{"name=a\"b", EventSpec{}, `name "a\"b"`},
		{"name=" + strings.Repeat("x", 33), EventSpec{}, "want 1 to 32"},
		{"system=knockout", EventSpec{}, `system "knockout"`},
		{"rounds=0", EventSpec{}, `rounds "0"`},
		{"rounds=100", EventSpec{}, `rounds "100"`},
		{"tc=0+0", EventSpec{}, `tc "0+0"`},
		{"tc=5", EventSpec{}, `tc "5"`},
		{"style=mamer", EventSpec{}, `style "mamer"`},
		{"start=1", EventSpec{}, `start "1"`},
		{"start=-5m", EventSpec{}, `start "-5m"`},
		{"start=soon", EventSpec{}, `start "soon"`},
		{"max=65", EventSpec{}, `max "65"`},
		{"start=10,max=4", EventSpec{}, "start=10 is more than max=4"},
		{"colour=white", EventSpec{}, `unknown key "colour"`},
		{"rounds", EventSpec{}, `"rounds": want key=value`},
		{"rounds=", EventSpec{}, `"rounds=": want key=value`},
		{strings.Repeat("name=x,", 100), EventSpec{}, "longer than 512 bytes"},
	} {
		got, err := ParseEventSpec(tc.in, "icc")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		// String writes what ParseEventSpec reads back.
		again, err := ParseEventSpec(got.String(), "icc")
		if err != nil || again != got {
			t.Errorf("%q: String %q reads back as %+v, %v", tc.in, got.String(), again, err)
		}
	}
}

func FuzzParseEventSpec(f *testing.F) {
	for _, s := range []string{"", "name=KS1,system=swiss,rounds=3,tc=1+1,style=fics,start=4", "start=10m max=8", "tc=999+999", "name==", ",,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseEventSpec(s, "fics")
		if err != nil {
			return
		}
		if sp.Name != "" && !specName(sp.Name) || sp.Rounds < 1 || sp.MaxPlayers > 64 || sp.Minutes == 0 && sp.Inc == 0 {
			t.Fatalf("%q gave %+v", s, sp)
		}
		again, err := ParseEventSpec(sp.String(), "fics")
		if err != nil || again != sp {
			t.Fatalf("%q: %+v writes %q, reads %+v, %v", s, sp, sp.String(), again, err)
		}
	})
}
