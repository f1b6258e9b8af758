package clock

import "time"

// Turn is one side's time management over one game: the manager's
// constants, the running count of refusals per turn, and when the current
// turn began. Every driver of a player (the daemon's game driver, KEP, the
// match runner) owns one Turn per game and hands the player the budget it
// plans; players obey the budget they are given and keep no clock of their
// own.
type Turn struct {
	// Manager holds the constants the plans are made with.
	Manager Manager
	retries Tracker
	start   time.Time // when the current turn began; zero before the first
}

// NewTurn starts a game's time management with m.
func NewTurn(m Manager) *Turn { return &Turn{Manager: m} }

// Begin marks the start of our turn at now, unless the turn has already begun
// (a refusal keeps the turn and its clock running).
func (t *Turn) Begin(now time.Time) {
	if t.start.IsZero() {
		t.start = now
	}
}

// ForgetStart forgets when the current turn began, keeping its refusals: the
// next Begin sets it anew (the game was re-read from the server).
func (t *Turn) ForgetStart() { t.start = time.Time{} }

// Started reports when the current turn began (zero when it has not).
// Kept for tests and inspection; drivers read the plan, not the start.
func (t *Turn) Started() time.Time { return t.start }

// Refused records a refusal of our attempt: the turn goes on.
func (t *Turn) Refused() { t.retries.Refused() }

// Moved records our legal move: the turn is over.
func (t *Turn) Moved() {
	t.retries.Moved()
	t.start = time.Time{}
}

// Retries returns the refusals in the current turn (tests, inspection).
func (t *Turn) Retries() int { return t.retries.Retries() }

// SpentAt is the time spent in the current turn at now: zero before Begin
// (a harness that measures wall time since the turn began; Policy.Plan
// takes it as Ask.Spent).
func (t *Turn) SpentAt(now time.Time) time.Duration {
	if t.start.IsZero() {
		return 0
	}
	return now.Sub(t.start)
}

// PlanSpent budgets the next attempt of the turn with the manager's
// constants: remaining is our clock now, moveNumber the full move being
// played, spent the time already spent this turn (by the attempts already
// refused), which comes out of the move's share. Harnesses plan through
// Policy.Plan, which sets the constants first.
func (t *Turn) PlanSpent(remaining, increment time.Duration, moveNumber int, spent time.Duration) Plan {
	return t.Manager.Budget(State{
		Remaining: remaining, Increment: increment, MoveNumber: moveNumber,
		Retries: t.retries.Retries(), ExpectedRetries: t.retries.Expected(), Spent: spent,
	})
}
