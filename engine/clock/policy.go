package clock

import "time"

// Policy is the one time policy: every harness (the daemon's game driver,
// `kriegbot match`, KEP) plans its attempts through it, so that the match
// runner that measures strength plays the policy that plays live.
type Policy struct {
	// Overhead is paid on every attempt (lag and wake-up); the measured
	// lag, when a backend has one, is added to it.
	Overhead time.Duration
	// MinThink is the least soft budget outside an emergency.
	MinThink time.Duration
	// Emergency is the clock level (after the reserve) below which the
	// answer is (nearly) instant.
	Emergency time.Duration
}

// The live daemon's defaults (config's engine.min_think and
// engine.emergency), which match and KEP play too.
const (
	DefaultMinThink  = 20 * time.Millisecond
	DefaultEmergency = 2 * time.Second
)

// UntimedMoveTime is what an attempt thinks in a game without a clock and
// without a fixed move time or node budget of its own (an untimed game on
// a server).
const UntimedMoveTime = time.Second

// NewPolicy returns the policy with the given move overhead and the
// daemon's defaults.
func NewPolicy(overhead time.Duration) Policy {
	return Policy{Overhead: overhead, MinThink: DefaultMinThink, Emergency: DefaultEmergency}
}

// Manager returns the time manager's constants under the policy, with lag
// (measured by the backend, 0 when none) added to the overhead.
func (p Policy) Manager(lag time.Duration) Manager {
	m := Default(p.Overhead + lag)
	m.MinSoft = p.MinThink
	m.Emergency = p.Emergency
	return m
}

// Ask is what a harness knows when an attempt is due. At most one of
// Clock, MoveTime and Deadline applies, in that order; with none the plan
// is unlimited (a node budget, or players that answer at once).
type Ask struct {
	// Clock says the attempt is played on a clock: Remaining is our clock
	// now, Increment its increment, MoveNumber the full move being played
	// and Spent the time already spent this turn (refused attempts).
	Clock                bool
	Remaining, Increment time.Duration
	MoveNumber           int
	Spent                time.Duration
	// Lag is the backend's measured answer lag, paid on top of the
	// overhead under a clock.
	Lag time.Duration
	// MoveTime is a fixed thinking time per attempt, a target: the hard
	// limit is twice it.
	MoveTime time.Duration
	// Deadline is a fixed time per attempt that is a limit (KEP's go
	// movetime): think it less the overhead, at least a millisecond, and
	// no longer.
	Deadline time.Duration
}

// NoLimit is the Hard of a plan without a time limit (a node budget alone);
// a Hard of 0 is a limit: answer at once.
const NoLimit time.Duration = -1

// Plan budgets one attempt of t's turn: under a clock through the time
// manager (t's refusal count, the policy's constants), otherwise from the
// fixed time asked; without either the plan is NoLimit.
func (p Policy) Plan(t *Turn, a Ask) Plan {
	switch {
	case a.Clock:
		t.Manager = p.Manager(a.Lag)
		return t.PlanSpent(a.Remaining, a.Increment, a.MoveNumber, a.Spent)
	case a.MoveTime > 0:
		return Plan{Soft: a.MoveTime, Hard: 2 * a.MoveTime}
	case a.Deadline > 0:
		d := max(a.Deadline-p.Overhead, time.Millisecond)
		return Plan{Soft: d, Hard: d}
	}
	return Plan{Hard: NoLimit}
}
