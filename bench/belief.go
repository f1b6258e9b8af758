package bench

import (
	"time"

	"kriegbot/engine/belief"
)

// beliefFigure times the belief's update after an opponent move with its
// announcements, over the opponent moves of 20 random games.
func beliefFigure(min time.Duration) (Figure, error) {
	stream := belief.RecordUpdates(7, 20, 200)
	v, err := repeat(min, func() (uint64, error) {
		return uint64(stream.Replay()), nil
	})
	return Figure{"belief", v, "updates/s"}, err
}
