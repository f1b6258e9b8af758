package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// UnmarshalText reads a Go duration such as "300ms", "2m" or "1h30m", or
// whole days ahead of it: "30d", "1d12h". A bare number is refused (its
// unit would be a guess), and so is a negative duration.
func (d *Duration) UnmarshalText(text []byte) error {
	s := string(text)
	v, err := parseDuration(s)
	if err != nil {
		if s != "" && strings.Trim(s, "0123456789.") == "" {
			return fmt.Errorf("duration %q has no unit: write e.g. \"%sms\" or \"%ss\"", s, s, s)
		}
		return fmt.Errorf("invalid duration %q: write e.g. \"300ms\", \"2m\" or \"1h30m\"", s)
	}
	if v < 0 {
		return errors.New("duration must not be negative, got " + s)
	}
	d.Duration = v
	return nil
}

// maxDays bounds the days of a duration so that they fit time.Duration
// (about 292 years).
const maxDays = 100_000

// parseDuration is time.ParseDuration with a leading number of days.
func parseDuration(s string) (time.Duration, error) {
	days, rest, ok := strings.Cut(s, "d")
	if !ok || days == "" || strings.Trim(days, "0123456789") != "" {
		return time.ParseDuration(s)
	}
	n, err := strconv.Atoi(days)
	if err != nil || n > maxDays {
		return 0, fmt.Errorf("too many days: %q", s)
	}
	v := time.Duration(n) * 24 * time.Hour
	if rest == "" {
		return v, nil
	}
	r, err := time.ParseDuration(rest)
	if err != nil || r < 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	return v + r, nil
}

// MarshalText writes the duration the way a person would: "2m" rather than
// time.Duration's "2m0s", so that Effective reads like config.toml.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// String is time.Duration's form without trailing zero units, and whole
// days as days ("30d").
func (d Duration) String() string {
	const day = 24 * time.Hour
	if d.Duration >= day && d.Duration%day == 0 {
		return strconv.FormatInt(int64(d.Duration/day), 10) + "d"
	}
	s := d.Duration.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
