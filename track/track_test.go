package track_test

import (
	"kriegbot/track"
	"kriegbot/track/iccgame"
	"kriegbot/track/ksgame"
)

// Both trackers are games the loop can drive (a compile-time check).
var (
	_ track.Game = (*iccgame.Tracker)(nil)
	_ track.Game = (*ksgame.Tracker)(nil)
)
