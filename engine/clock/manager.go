package clock

import (
	"math"
	"time"
)

// State is what the manager needs to know at the moment of an attempt.
type State struct {
	// Remaining is the time left on our clock now.
	Remaining time.Duration
	// Increment is added to our clock after each legal move.
	Increment time.Duration
	// MoveNumber is the full move number being played (1 for the first move).
	MoveNumber int
	// Retries is the number of our attempts already refused this turn.
	Retries int
	// ExpectedRetries is how many refusals a turn costs on average (Tracker).
	ExpectedRetries float64
	// Spent is the time already used this turn (by the refused attempts).
	Spent time.Duration
}

// Plan is the budget of one attempt.
type Plan struct {
	// Soft is the time to think: a search stops at its first chance after it.
	Soft time.Duration
	// Hard is the limit: the answer must be out by then (a context deadline).
	Hard time.Duration
	// Max is how long a search may go on past Soft while its decision is
	// still open (the two likeliest attempts close): twice Soft, within
	// Hard. Zero outside a clock's normal plans.
	Max time.Duration
	// Emergency is set when the clock is so low that the player should answer
	// at once with its cheapest sensible attempt.
	Emergency bool
}

// Manager holds the time-management constants. The zero value is not useful;
// start from Default.
type Manager struct {
	// Overhead is paid on every attempt (lag, wake-up) and kept in reserve.
	Overhead time.Duration
	// MinMovesToGo is the least number of moves the remaining time must last.
	MinMovesToGo int
	// MovesToGo is the expected game length in moves, from which the moves
	// still to come are estimated (Kriegspiel games run long).
	MovesToGo int
	// IncrementShare is the fraction of the increment spent on each move.
	IncrementShare float64
	// HardFactor is how much longer than Soft an attempt may take at most.
	HardFactor float64
	// MaxFraction caps any attempt's hard limit at this share of the time left
	// after the reserve: the geometric bound that prevents a time forfeit.
	MaxFraction float64
	// Emergency is the clock level (after the reserve) below which the plan is
	// an instant answer.
	Emergency time.Duration
	// MinSoft is the least soft budget outside an emergency.
	MinSoft time.Duration
	// TailTurns is how many average turns' attempts the reserve holds the
	// overheads of: a turn of refusals past the increment is paid from it.
	TailTurns float64
	// Decay is what each refusal beyond those expected leaves of the next
	// attempt's floor (a quarter of the move's share, or in an emergency of
	// the increment's sliver): the extra attempts of a turn think a
	// geometric series, so that no run of refusals spends more than a
	// bounded multiple of the move's share.
	Decay float64
}

// Default returns constants tuned for wild 16 blitz (games of 60 to 120
// moves, several refusals a turn) with the given move overhead.
func Default(overhead time.Duration) Manager {
	return Manager{
		Overhead:       overhead,
		MinMovesToGo:   25,
		MovesToGo:      90,
		IncrementShare: 0.8,
		HardFactor:     3,
		MaxFraction:    0.125,
		Emergency:      20*overhead + 200*time.Millisecond,
		MinSoft:        time.Millisecond,
		Decay:          0.8,
		TailTurns:      4,
	}
}

// Budget plans one attempt.
func (m Manager) Budget(s State) Plan {
	togo := m.MovesToGo - s.MoveNumber
	if togo < m.MinMovesToGo {
		togo = m.MinMovesToGo
	}
	// The reserve holds the overheads of a long turn still to come
	// (berkeley's turns of forty refusals): TailTurns average turns'
	// attempts, plus two.
	reserve := time.Duration((2 + m.TailTurns*(1+s.ExpectedRetries)) * float64(m.Overhead))
	usable := s.Remaining - reserve
	if usable <= 0 {
		return Plan{Emergency: true}
	}
	capHard := time.Duration(float64(usable) * m.MaxFraction)
	// Every future attempt pays the overhead whatever we think; what the
	// increments do not cover is not ours to spend.
	perTurn := time.Duration((1+s.ExpectedRetries)*float64(m.Overhead)) - s.Increment
	if perTurn > 0 {
		usable -= time.Duration(togo) * perTurn
	}
	attempts := 1 + max(s.ExpectedRetries-float64(s.Retries), 0)
	// Each refusal past those expected shrinks what the next attempt may
	// take: a turn of forty refusals must not cost forty floors.
	decay := 1.0
	if over := float64(s.Retries) - s.ExpectedRetries; over > 0 && m.Decay > 0 {
		decay = math.Pow(m.Decay, over)
	}
	if usable < m.Emergency {
		// Answer now, but let a quarter of the increment, net of the
		// overheads of the attempts still expected this turn and of what
		// the turn has spent, pay for a sliver of thought: a turn's thought
		// here never costs more than that quarter, however many refusals.
		net := s.Increment - time.Duration(attempts*float64(m.Overhead))
		sliver := max(net/4-s.Spent, 0)
		hard := min(capHard, time.Duration(float64(sliver)/attempts*decay))
		return Plan{Soft: hard / 2, Hard: hard, Emergency: true}
	}
	perMove := usable/time.Duration(togo) + time.Duration(m.IncrementShare*float64(s.Increment))
	// The clock runs during retries: share what is left of this move's time over
	// the attempts still expected, at least this one.
	left := perMove - s.Spent
	if floor := time.Duration(float64(perMove) / 4 * decay); left < floor {
		left = floor // a turn of many refusals: a quarter, then less each time
	}
	soft := time.Duration(float64(left)/attempts) - m.Overhead
	soft = max(soft, m.MinSoft)
	hard := time.Duration(float64(soft) * m.HardFactor)
	hard = min(hard, capHard)
	soft = min(soft, hard)
	return Plan{Soft: soft, Hard: hard, Max: min(2*soft, hard)}
}

// Tracker keeps the running average of refusals per turn over a game, the
// ExpectedRetries input. The zero value starts from Prior.
type Tracker struct {
	turns, refusals int
	current         int
}

// Prior is the refusals-per-turn estimate before a game has data: typical of
// middlegame wild 16 play by engines that probe.
const Prior = 2.0

// priorWeight is how many turns the prior counts for.
const priorWeight = 4

// Refused records a refused attempt in the current turn.
func (t *Tracker) Refused() { t.current++ }

// Moved closes the current turn (our legal move was played).
func (t *Tracker) Moved() {
	t.turns++
	t.refusals += t.current
	t.current = 0
}

// Retries returns the refusals in the current turn.
func (t *Tracker) Retries() int { return t.current }

// Expected returns the average refusals per turn, shrunk toward Prior.
func (t *Tracker) Expected() float64 {
	return (float64(t.refusals) + Prior*priorWeight) / float64(t.turns+priorWeight)
}
