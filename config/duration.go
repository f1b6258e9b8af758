package config

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// UnmarshalText reads a Go duration such as "300ms", "2m" or "1h30m".
// A bare number is refused (its unit would be a guess), and so is a
// negative duration.
func (d *Duration) UnmarshalText(text []byte) error {
	s := string(text)
	v, err := time.ParseDuration(s)
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

// MarshalText writes the duration the way a person would: "2m" rather than
// time.Duration's "2m0s", so that Effective reads like config.toml.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// String is time.Duration's form without trailing zero units.
func (d Duration) String() string {
	s := d.Duration.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}
