package clock

import "time"

// SmoothLag folds one measured lag (from sending an attempt to its answer)
// into the running estimate prev: the first sample as it is, then a quarter
// of each new one. Every backend's tracker measures lag this one way.
func SmoothLag(prev, sample time.Duration) time.Duration {
	if prev == 0 {
		return sample
	}
	return (3*prev + sample) / 4
}
