package kep

import (
	"time"

	"kriegbot/engine/clock"
	"kriegbot/engine/players"
)

// budget is the player's budget and the hard limit that the game driver
// plans for a go with limits g at the start of our turn: the engine's
// situation under its settings, through driver.Settings.Plan, as
// driver.Game.Think plans each go (TestBudget).
func (e *engine) budget(g GoLimits) (players.Budget, time.Duration) {
	now := time.Now()
	return e.driverSettings().Plan(clock.NewTurn(clock.Manager{}), clock.Control{}, now, e.situation(now, g))
}
