package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseTDLine(t *testing.T) {
	tests := []struct {
		in   string
		want TDLine
	}{
		// icsdrone's sample (docs/tournaments.md, TD wire §2).
		{`tourney set to "Automato AWCRCC * Goldbar 25 4 25 4 u w0 black 6" by Automato.`,
			TDLine{Kind: TDTourneySet, TD: "Automato", Tag: "AWCRCC", Opponent: "Goldbar", WhiteMin: 25, WhiteInc: 4,
				BlackMin: 25, BlackInc: 4, Wild: 0, Colour: "black", Round: 6}},
		{`tourney set to "TD K16 * alice 1 1 1 1 r w16 white 2" by TD.`,
			TDLine{Kind: TDTourneySet, TD: "TD", Tag: "K16", Opponent: "alice", WhiteMin: 1, WhiteInc: 1,
				BlackMin: 1, BlackInc: 1, Rated: true, Wild: 16, Colour: "white", Round: 2}},
		// Only the opponent is required.
		{`tourney set to "* bob" by Pear.`, TDLine{Kind: TDTourneySet, TD: "Pear", Opponent: "bob"}},
		{`:You play white against Goldbar in this round of tourney #4.`,
			TDLine{Kind: TDPairing, Colour: "white", Opponent: "Goldbar", Event: 4}},
		{`You play Black against x in this round of tourney #12.`,
			TDLine{Kind: TDPairing, Colour: "black", Opponent: "x", Event: 12}},
		{`:You have joined tourney #4.`, TDLine{Kind: TDJoined, Event: 4}},
		{`:You have joined tourney #4 (a 3 0 r SS4).`, TDLine{Kind: TDJoined, Event: 4}},
		{`:Tourney #7 has been aborted!`, TDLine{Kind: TDAborted, Event: 7}},
		{`:You have been forfeited from tourney #7`, TDLine{Kind: TDForfeited, Event: 7}},
		{`mamer has set your tourney variable to OFF.`, TDLine{Kind: TDVariableOff, TD: "mamer"}},
		{`:Tourney #3's standings:`, TDLine{Kind: TDStandings, Event: 3}},
		// The TD's refusals of a join (kriegbot serve's forms).
		{`:You cannot join tourney #2 (RR): it is full (2 players).`,
			TDLine{Kind: TDJoinRefused, Event: 2, Tag: "RR", Reason: "it is full (2 players)"}},
		{`You cannot join tourney #7: there is no such tourney.`,
			TDLine{Kind: TDJoinRefused, Event: 7, Reason: "there is no such tourney"}},
		{`You cannot join tourney #1 (KS1).`, TDLine{Kind: TDJoinRefused, Event: 1, Tag: "KS1"}},
		{`You cannot join tourney #4.`, TDLine{Kind: TDJoinRefused, Event: 4}},
	}
	for _, tc := range tests {
		got, err := ParseTDLine(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseTDLineRefuses(t *testing.T) {
	notTD := []string{"", "hello", "Game 5: alice moves", "You have joined channel 49.",
		":mamer TOURNEY INFO: Tourney #4 is in progress", strings.Repeat("You play ", 200)}
	for _, in := range notTD {
		if _, err := ParseTDLine(in); !errors.Is(err, ErrNotTDLine) {
			t.Errorf("%q: got %v, want ErrNotTDLine", in, err)
		}
	}
	bad := map[string]string{ // line -> a word the error must name
		`tourney set to "TD K16 alice 1 1" by TD.`:                      "opponent",
		`tourney set to "TD K16 * alice`:                                "quote",
		`tourney set to "TD K16 * alice 1 x 1 1" by TD.`:                "clock",
		`tourney set to "TD K16 * alice 1 1 1 1 q" by TD.`:              "rated",
		`tourney set to "TD K16 * alice 1 1 1 1 u x16" by TD.`:          "wild",
		`tourney set to "TD K16 * alice 1 1 1 1 u w16 green" by TD.`:    "colour",
		`tourney set to "TD K16 * alice 1 1 1 1 u w16 white -3" by TD.`: "round",
		`You play white against in this round of tourney #4.`:           "You play",
		`You play green against bob in this round of tourney #4.`:       "colour",
		`You play white against bob in this round of tourney 4.`:        "event",
		`You have been forfeited from tourney #x`:                       "event",
		`Tourney #x has been aborted!`:                                  "event",
		`two words has set your tourney variable to OFF.`:               "TD",
		`You cannot join tourney #x: it is full.`:                       "event number",
		`You cannot join tourney #3 (two words): it is full.`:           "event name",
		`You cannot join tourney #3 (KS1: it is full.`:                  "event name",
		`You cannot join tourney #3, it is full.`:                       "You cannot join",
		`You cannot join tourney #3: it is full`:                        "You cannot join",
	}
	for in, word := range bad {
		_, err := ParseTDLine(in)
		if err == nil || errors.Is(err, ErrNotTDLine) || !strings.Contains(err.Error(), word) {
			t.Errorf("%q: got %v, want an error naming %q", in, err, word)
		}
	}
}

func TestTDLineRoundTrip(t *testing.T) {
	lines := []TDLine{
		{Kind: TDTourneySet, TD: "TD", Tag: "KS1", Opponent: "bob", WhiteMin: 1, WhiteInc: 1, BlackMin: 1, BlackInc: 1, Wild: 16, Colour: "white", Round: 3},
		{Kind: TDPairing, Colour: "black", Opponent: "carol", Event: 2},
		{Kind: TDJoined, Event: 1}, {Kind: TDAborted, Event: 1}, {Kind: TDForfeited, Event: 9},
		{Kind: TDVariableOff, TD: "mamer"}, {Kind: TDStandings, Event: 5},
		{Kind: TDJoinRefused, Event: 3, Tag: "KS3", Reason: "you are in tourney #2 (KS2): one event at a time"},
		{Kind: TDJoinRefused, Event: 8, Reason: "it is done"}, {Kind: TDJoinRefused, Event: 9},
	}
	for _, l := range lines {
		got, err := ParseTDLine(":" + l.String())
		if err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("%s: %q parsed as %+v, %v", l.Kind, l.String(), got, err)
		}
	}
	if a := lines[0].Answer(); a != "match bob!" {
		t.Errorf("tourney-set answer %q", a)
	}
	if a := lines[1].Answer(); a != "td play 2" {
		t.Errorf("pairing answer %q", a)
	}
	if a := lines[2].Answer(); a != "" {
		t.Errorf("joined answer %q", a)
	}
}

func TestTourneyDatagrams(t *testing.T) {
	dgs := []DG{
		SuggestionDG{Command: "match bob 1 1 u w16 white", Text: "Round 2 of KS1: you play bob", Priority: 1, Suggester: "TD", Subject: "bob", ID: 7},
		TourneyDG{ID: 3, Bits: 9, Description: "KS1 Swiss 5 rounds 1+1 w16", Join: JoinCommands("tell TD join 3"), Watch: "", Info: "tell TD info 3", Confirm: "Join KS1?"},
		RemoveTourneyDG{ID: 3},
	}
	for _, want := range dgs {
		var fields []string
		switch d := want.(type) {
		case SuggestionDG:
			fields = d.Fields()
		case TourneyDG:
			fields = d.Fields()
		case RemoveTourneyDG:
			fields = d.Fields()
		}
		wire := AppendDatagram(nil, want.Number(), fields...)
		var r Reader
		r.Feed(wire)
		ev, ok := r.Next()
		if !ok || ev.Kind != Datagram {
			t.Fatalf("%T: read %v", want, ev)
		}
		got, err := (&Decoder{}).Decode(ev.DG, ev.Fields)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%T: %q decoded as %+v, %v", want, wire, got, err)
		}
	}
	if _, err := (&Decoder{}).Decode(DGSuggestion, fl("match x", "t", "one")); err == nil || !strings.Contains(err.Error(), "priority") {
		t.Errorf("bad priority: %v", err)
	}
}

func TestSplitCommands(t *testing.T) {
	tests := map[string][]string{
		"":                             nil,
		"tell TD join":                 {"tell TD join"},
		"set open 1&tell TD join & ":   {"set open 1", "tell TD join"},
		`tell TD say a\&b&tell TD x\\`: {`tell TD say a&b`, `tell TD x\`},
	}
	for in, want := range tests {
		if got := SplitCommands(in); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
	if got := SplitCommands(JoinCommands(`a&b`, `c\d`)); !reflect.DeepEqual(got, []string{`a&b`, `c\d`}) {
		t.Errorf("round trip: %q", got)
	}
}

func FuzzParseTDLine(f *testing.F) {
	for _, s := range []string{
		`tourney set to "Automato AWCRCC * Goldbar 25 4 25 4 u w0 black 6" by Automato.`,
		`:You play white against Goldbar in this round of tourney #4.`,
		`:You have joined tourney #4.`, `:Tourney #7 has been aborted!`,
		`:You have been forfeited from tourney #7`, `mamer has set your tourney variable to OFF.`,
		`:Tourney #3's standings:`, `tourney set to "* x 99999999999999999999" by .`,
		`:You cannot join tourney #2 (RR): it is full (2 players).`, `You cannot join tourney #7.`,
		`You cannot join tourney #1 (): x.`, `You cannot join tourney #1234567890: .`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseTDLine(s)
		if err != nil {
			return
		}
		if l.Kind == TDNone {
			t.Fatalf("%q: no kind and no error", s)
		}
		// What parses formats to a line that parses the same.
		again, err := ParseTDLine(l.String())
		if err != nil {
			t.Fatalf("%q -> %+v -> %q: %v", s, l, l.String(), err)
		}
		if again.Kind != l.Kind || again.Event != l.Event || again.Opponent != l.Opponent || again.Reason != l.Reason {
			t.Fatalf("%q -> %+v -> %+v", s, l, again)
		}
	})
}
