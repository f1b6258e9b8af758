package clock

import (
	"testing"
	"time"
)

// TestPolicyPlan checks the one policy's cases: a clock goes through the
// manager with the policy's constants and the lag, a move time is a target
// with twice it as the limit, a deadline is a limit less the overhead, and
// nothing is no limit.
func TestPolicyPlan(t *testing.T) {
	ms := time.Millisecond
	p := NewPolicy(300 * ms)
	if p.MinThink != DefaultMinThink || p.Emergency != DefaultEmergency {
		t.Fatalf("NewPolicy = %+v, want the daemon's defaults", p)
	}
	tu := NewTurn(Manager{})
	ask := Ask{Clock: true, Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 3, Spent: 200 * ms, Lag: 50 * ms}
	got := p.Plan(tu, ask)
	m := Default(350 * ms)
	m.MinSoft, m.Emergency = DefaultMinThink, DefaultEmergency
	var tr Tracker
	want := m.Budget(State{Remaining: 60 * time.Second, Increment: time.Second, MoveNumber: 3, ExpectedRetries: tr.Expected(), Spent: 200 * ms})
	if got != want || tu.Manager != m {
		t.Fatalf("clock: Plan = %+v (manager %+v), want %+v (manager %+v)", got, tu.Manager, want, m)
	}
	// Below the policy's emergency line (2 s after the reserve and overheads).
	if got := p.Plan(tu, Ask{Clock: true, Remaining: 2 * time.Second, MoveNumber: 40}); !got.Emergency || got.Hard < 0 {
		t.Fatalf("low clock: Plan = %+v, want an emergency with a limit", got)
	}
	for _, tc := range []struct {
		name string
		ask  Ask
		want Plan
	}{
		{"movetime", Ask{MoveTime: time.Second}, Plan{Soft: time.Second, Hard: 2 * time.Second}},
		{"deadline", Ask{Deadline: time.Second}, Plan{Soft: 700 * ms, Hard: 700 * ms}},
		{"deadline below the overhead", Ask{Deadline: 100 * ms}, Plan{Soft: ms, Hard: ms}},
		{"nothing", Ask{}, Plan{Hard: NoLimit}},
	} {
		if got := p.Plan(tu, tc.ask); got != tc.want {
			t.Errorf("%s: Plan = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
