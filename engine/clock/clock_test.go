package clock

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestParseControl(t *testing.T) {
	tests := []struct {
		in      string
		want    Control
		wantErr bool
	}{
		{"60+1", Control{60 * time.Second, time.Second}, false},
		{"10+0.1", Control{10 * time.Second, 100 * time.Millisecond}, false},
		{"180", Control{180 * time.Second, 0}, false},
		{" 3+2 ", Control{3 * time.Second, 2 * time.Second}, false},
		{"0.5+0", Control{500 * time.Millisecond, 0}, false},
		{"", Control{}, true},
		{"+1", Control{}, true},
		{"60+", Control{}, true},
		{"0+1", Control{}, true},
		{"-5+1", Control{}, true},
		{"60+-1", Control{}, true},
		{"abc", Control{}, true},
		{"NaN", Control{}, true},
		{"1e300", Control{}, true},
		{"60+1+2", Control{}, true},
		{"1m+1s", Control{time.Minute, time.Second}, false},
		{"10m+5s", Control{10 * time.Minute, 5 * time.Second}, false},
		{"1m30s+500ms", Control{90 * time.Second, 500 * time.Millisecond}, false},
		{"2m", Control{2 * time.Minute, 0}, false},
		{"1m+1", Control{time.Minute, time.Second}, false},
		{"1x+1", Control{}, true},
		{"1m+-1s", Control{}, true},
		{"200h", Control{}, true},
		{"0s+1s", Control{}, true},
		{"Inf", Control{}, true},
	}
	for _, tc := range tests {
		got, err := ParseControl(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseControl(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestParseTC: people's time controls read as a server writes them, a
// bare 1+1 being a minute and a second (as kriegbot tourney's -tc and ICC's
// "1 1"), units where the bare reading is not meant.
func TestParseTC(t *testing.T) {
	tests := []struct {
		in      string
		want    Control
		wantErr bool
	}{
		{"1+1", Control{time.Minute, time.Second}, false},
		{"2+12", Control{2 * time.Minute, 12 * time.Second}, false},
		{"25", Control{25 * time.Minute, 0}, false},
		{" 3+2 ", Control{3 * time.Minute, 2 * time.Second}, false},
		{"0.5+0.1", Control{30 * time.Second, 100 * time.Millisecond}, false},
		{"1m+1s", Control{time.Minute, time.Second}, false},
		{"1s+1s", Control{time.Second, time.Second}, false},
		{"10s+0.1", Control{10 * time.Second, 100 * time.Millisecond}, false},
		{"10s+100ms", Control{10 * time.Second, 100 * time.Millisecond}, false},
		{"1m30s+2s", Control{90 * time.Second, 2 * time.Second}, false},
		{"10+1m", Control{10 * time.Minute, time.Minute}, false},
		{"10080", Control{7 * 24 * time.Hour, 0}, false},
		{"10081", Control{}, true},
		{"", Control{}, true},
		{"+1", Control{}, true},
		{"1+", Control{}, true},
		{"0+1", Control{}, true},
		{"-1+1", Control{}, true},
		{"1+-1", Control{}, true},
		{"1+1+1", Control{}, true},
		{"NaN+1", Control{}, true},
		{"1e300", Control{}, true},
		{"1x+1", Control{}, true},
		{"200h", Control{}, true},
	}
	for _, tc := range tests {
		got, err := ParseTC(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseTC(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	if _, err := ParseTC("1x+1"); err == nil || !strings.Contains(err.Error(), "number of minutes") {
		t.Errorf("a bad base: %v, want the error to say the bare base is minutes", err)
	}
}

// TestControlText: the form for people, which ParseTC reads back.
func TestControlText(t *testing.T) {
	for _, tc := range []struct {
		c    Control
		want string
	}{
		{Control{}, "untimed"},
		{Control{time.Minute, time.Second}, "1m+1s"},
		{Control{10 * time.Second, 100 * time.Millisecond}, "10s+100ms"},
		{Control{90 * time.Minute, 0}, "1h30m"},
		{Control{2 * time.Hour, 30 * time.Second}, "2h+30s"},
		{Control{90 * time.Second, 1500 * time.Millisecond}, "1m30s+1.5s"},
	} {
		if got := tc.c.Text(); got != tc.want {
			t.Errorf("%#v.Text() = %q, want %q", tc.c, got, tc.want)
		}
		if back, err := ParseTC(tc.c.Text()); tc.c.Timed() && (err != nil || back != tc.c) {
			t.Errorf("ParseTC(%q) = %v, %v; want %v", tc.c.Text(), back, err, tc.c)
		}
	}
}

func FuzzParseTC(f *testing.F) {
	for _, s := range []string{"1+1", "2+12", "0.5+0.1", "", "+", "1e9", "-0", "1m+1s", "10s+100ms", "1h2m3s+4ms", "25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseTC(s)
		if err != nil {
			return
		}
		if c.Base <= 0 || c.Base > maxControl || c.Increment < 0 || c.Increment > maxControl {
			t.Fatalf("ParseTC(%q) = %v: out of range", s, c)
		}
		if back, err := ParseTC(c.Text()); err != nil || back != c {
			t.Fatalf("ParseTC(%q) = %v, whose text %q reads back as %v, %v", s, c, c.Text(), back, err)
		}
	})
}

func TestControlString(t *testing.T) {
	for _, tc := range []struct {
		c    Control
		want string
	}{
		{Control{}, "-"},
		{Control{60 * time.Second, time.Second}, "60+1"},
		{Control{10 * time.Second, 100 * time.Millisecond}, "10+0.1"},
		{Control{180 * time.Second, 0}, "180"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func FuzzParseControl(f *testing.F) {
	for _, s := range []string{"60+1", "10+0.1", "", "+", "1e9", "-0", "0x10+1", "1m+1s", "1h2m3s+4ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseControl(s)
		if err != nil {
			return
		}
		if c.Base <= 0 || c.Base > maxControl || c.Increment < 0 || c.Increment > maxControl {
			t.Fatalf("ParseControl(%q) = %v: out of range", s, c)
		}
	})
}

func TestBudget(t *testing.T) {
	m := Default(50 * time.Millisecond)
	ms := time.Millisecond
	tests := []struct {
		name             string
		s                State
		minSoft, maxSoft time.Duration
		maxHard          time.Duration
		emergency        bool
	}{
		// 60+1 at move 1, two retries expected: (59.9 s/89 + 0.8 s)/3 - 50 ms.
		{"opening 60+1", State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 1, ExpectedRetries: 2}, 400 * ms, 460 * ms, 1400 * ms, false},
		// Late in the game the horizon stops shrinking at MinMovesToGo.
		{"move 80 60+1", State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 80, ExpectedRetries: 2}, 1000 * ms, 1100 * ms, 3300 * ms, false},
		// Retries already made: the rest of the expected attempts share the rest.
		{"after two refusals", State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 1, ExpectedRetries: 2, Retries: 2, Spent: 900 * ms}, 500 * ms, 600 * ms, 1800 * ms, false},
		// The move's share spent: a quarter of it per attempt, (59.9 s/89 + 0.8 s)/4 - 50 ms.
		{"share spent", State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 1, ExpectedRetries: 2, Retries: 2, Spent: 5 * time.Second}, 300 * ms, 350 * ms, 1100 * ms, false},
		// Seven refusals more than expected: that quarter times 0.8^7, less the overhead.
		{"many refusals", State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 1, ExpectedRetries: 2, Retries: 9, Spent: 5 * time.Second}, 25 * ms, 30 * ms, 90 * ms, false},
		// The overheads of the 60 moves to go exceed the clock: answer at once.
		{"overheads exceed clock", State{Remaining: 2 * time.Second, MoveNumber: 30}, 0, 0, 0, true},
		// The move's share is less than the overhead: think as little as allowed.
		{"share below overhead", State{Remaining: 5 * time.Second, MoveNumber: 30}, ms, ms, 3 * ms, false},
		// A big increment on a low clock: the hard cap bites, 1/8 of the time
		// left after the reserve of 2 + 4 turns of one attempt, 50 ms each.
		{"hard cap", State{Remaining: 1500 * ms, Increment: time.Second, MoveNumber: 80}, 145 * ms, 150 * ms, 150 * ms, false},
		// Below the emergency line: only a sliver of the increment.
		// (100 ms - 50 ms overhead) / 1 attempt / 4.
		{"emergency with increment", State{Remaining: 900 * ms, Increment: 100 * ms, MoveNumber: 40}, 6 * ms, 7 * ms, 13 * ms, true},
		// Two retries expected: their overheads eat the increment.
		{"emergency retries", State{Remaining: 900 * ms, Increment: 100 * ms, MoveNumber: 40, ExpectedRetries: 2}, 0, 0, 0, true},
		{"emergency no increment", State{Remaining: 900 * ms, MoveNumber: 40}, 0, 0, 0, true},
		// Inside the reserve: answer instantly.
		{"inside reserve", State{Remaining: 90 * ms, Increment: time.Second, MoveNumber: 40}, 0, 0, 0, true},
		{"flagged", State{Remaining: -time.Second, MoveNumber: 40}, 0, 0, 0, true},
	}
	for _, tc := range tests {
		p := m.Budget(tc.s)
		if p.Soft < tc.minSoft || p.Soft > tc.maxSoft || p.Hard > tc.maxHard || p.Soft > p.Hard || p.Emergency != tc.emergency {
			t.Errorf("%s: Budget = %+v; want soft in [%v, %v], hard ≤ %v, emergency %v", tc.name, p, tc.minSoft, tc.maxSoft, tc.maxHard, tc.emergency)
		}
		// An open choice may go on to twice the soft budget, within the hard
		// limit; an emergency answers at its soft budget.
		if want := min(2*p.Soft, p.Hard); !tc.emergency && p.Max != want || tc.emergency && p.Max != 0 {
			t.Errorf("%s: Max %v, want %v", tc.name, p.Max, want)
		}
	}
}

// TestNeverFlags plays whole games of refusal-heavy turns, each attempt using
// its full hard limit plus the overhead, and checks the clock never runs out
// where it can be helped: when the overheads of a turn's attempts fit in the
// increment, or their total over the game fits in the base time.
func TestNeverFlags(t *testing.T) {
	for _, tc := range []struct {
		control  Control
		overhead time.Duration
		retries  int // refusals every turn
		moves    int
	}{
		{Control{10 * time.Second, 100 * time.Millisecond}, 10 * time.Millisecond, 3, 400},
		{Control{10 * time.Second, 0}, 2 * time.Millisecond, 10, 100},
		{Control{60 * time.Second, time.Second}, 100 * time.Millisecond, 5, 400},
		{Control{3 * time.Second, 0}, 10 * time.Millisecond, 1, 120},
		{Control{1 * time.Second, 50 * time.Millisecond}, 10 * time.Millisecond, 0, 400},
	} {
		m := Default(tc.overhead)
		refusals := func() int { return tc.retries }
		hard := func(p Plan) time.Duration { return p.Hard }
		if move, a, _ := playClock(m, tc.control, tc.overhead, tc.moves, refusals, hard); move > 0 {
			t.Fatalf("%v overhead %v, %d refusals a turn: flag fell at move %d attempt %d", tc.control, tc.overhead, tc.retries, move, a)
		}
	}
}

// playClock plays one game of moves turns on ctl under m, each turn of
// refusals() refused attempts and a move, each attempt thinking think(plan)
// and paying overhead. It returns the move and attempt at which the flag
// fell (move 0: it never did) and the least time left after an attempt.
func playClock(m Manager, ctl Control, overhead time.Duration, moves int, refusals func() int, think func(Plan) time.Duration) (flagMove, flagAttempt int, least time.Duration) {
	var tr Tracker
	left, least := ctl.Base, ctl.Base
	for move := 1; move <= moves; move++ {
		n := refusals()
		var spent time.Duration
		for a := 0; a <= n; a++ {
			p := m.Budget(State{Remaining: left, Increment: ctl.Increment, MoveNumber: move,
				Retries: tr.Retries(), ExpectedRetries: tr.Expected(), Spent: spent})
			used := think(p) + overhead
			left -= used
			spent += used
			if left <= 0 {
				return move, a, least
			}
			least = min(least, left)
			if a < n {
				tr.Refused()
			}
		}
		tr.Moved()
		left += ctl.Increment
	}
	return 0, 0, least
}

func TestNeverFlagsUneven(t *testing.T) {
	for _, tc := range []struct {
		control  Control
		overhead time.Duration
		mean     float64 // refusals a turn, on average
	}{
		{Control{3 * time.Minute, 2 * time.Second}, 20 * time.Millisecond, 8},
		{Control{3 * time.Minute, 2 * time.Second}, 300 * time.Millisecond, 5},
		{Control{time.Minute, time.Second}, 20 * time.Millisecond, 5},
		{Control{time.Minute, time.Second}, 20 * time.Millisecond, 12},
		{Control{25 * time.Minute, 10 * time.Second}, 300 * time.Millisecond, 12},
	} {
		if flags, least := unevenGames(tc.control, tc.overhead, tc.mean); flags > 0 {
			t.Errorf("%v overhead %v, %v refusals a turn on average: %d flags in 200 games", tc.control, tc.overhead, tc.mean, flags)
		} else {
			t.Logf("%v overhead %v, %v refusals a turn: no flag in 200 games, least left %v", tc.control, tc.overhead, tc.mean, least)
		}
	}
}

// unevenGames plays TestNeverFlagsUneven's 200 games of 80 moves with the
// policy's manager and returns the flags that fell and the least time left.
func unevenGames(ctl Control, overhead time.Duration, mean float64) (flags int, least time.Duration) {
	m := NewPolicy(overhead).Manager(0)
	least = ctl.Base
	thinkMax := func(p Plan) time.Duration { return max(p.Max, p.Soft) }
	for g := range 200 {
		r := rand.New(rand.NewPCG(uint64(g), 41))
		refusals := func() int { return min(int(r.ExpFloat64()*mean), 40) }
		move, _, l := playClock(m, ctl, overhead, 80, refusals, thinkMax)
		if move > 0 {
			flags++
		}
		least = min(least, l)
	}
	return flags, least
}

func TestTracker(t *testing.T) {
	var tr Tracker
	if tr.Expected() != Prior {
		t.Fatalf("empty tracker expects %v, want the prior %v", tr.Expected(), Prior)
	}
	for range 12 { // 12 turns of 6 refusals: (72 + 8) / 16 = 5
		for range 6 {
			tr.Refused()
		}
		tr.Moved()
	}
	if got := tr.Expected(); got != 5 {
		t.Fatalf("Expected() = %v, want 5", got)
	}
	tr.Refused()
	if tr.Retries() != 1 {
		t.Fatalf("Retries() = %d, want 1", tr.Retries())
	}
}

// TestTurn checks that a Turn plans as the manager does with its own refusal
// count and the time spent since the turn began, and that a refusal keeps the
// turn (and its start) while a move ends it.
func TestTurn(t *testing.T) {
	m := Default(50 * time.Millisecond)
	tu := NewTurn(m)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tu.Begin(t0)
	tu.Refused()
	tu.Begin(t0.Add(time.Second)) // a refusal does not restart the turn
	if !tu.Started().Equal(t0) {
		t.Fatalf("Started() = %v after a refusal, want %v", tu.Started(), t0)
	}
	now := t0.Add(900 * time.Millisecond)
	got := tu.PlanSpent(60*time.Second, time.Second, 3, tu.SpentAt(now))
	var tr Tracker
	tr.Refused()
	want := m.Budget(State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 3,
		Retries: 1, ExpectedRetries: tr.Expected(), Spent: 900 * time.Millisecond})
	if got != want {
		t.Fatalf("Plan = %+v, want %+v", got, want)
	}
	tu.Moved()
	if !tu.Started().IsZero() || tu.Retries() != 0 {
		t.Fatalf("after Moved: started %v, retries %d; want zero, 0", tu.Started(), tu.Retries())
	}
	tr.Moved()
	if got, want := tu.PlanSpent(60*time.Second, time.Second, 4, 0), m.Budget(State{Remaining: 60 * time.Second,
		Increment: time.Second, MoveNumber: 4, ExpectedRetries: tr.Expected()}); got != want {
		t.Fatalf("PlanSpent after a move = %+v, want %+v", got, want)
	}
}

func TestSmoothLag(t *testing.T) {
	if got := SmoothLag(0, 80*time.Millisecond); got != 80*time.Millisecond {
		t.Fatalf("first sample: %v", got)
	}
	if got := SmoothLag(80*time.Millisecond, 160*time.Millisecond); got != 100*time.Millisecond {
		t.Fatalf("(3*80+160)/4 = %v, want 100ms", got)
	}
}
