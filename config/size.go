package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size is a number of bytes written as "2GB" or "500MiB" in TOML.
type Size struct{ Bytes int64 }

// UnmarshalText reads a size: a number (decimals allowed) and a unit, B,
// KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024),
// as in "2GB", "1.5GiB", "500 MB"; "0" alone is 0. A number without a unit
// is refused (bytes or megabytes would be a guess).
func (s *Size) UnmarshalText(text []byte) error {
	in := strings.TrimSpace(string(text))
	if in == "0" {
		s.Bytes = 0
		return nil
	}
	// SI units (powers of 1000, as disks are sold) and IEC units (powers
	// of 1024, as du -h counts), longest first.
	for _, u := range [...]struct {
		name string
		mult int64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"B", 1},
	} {
		num, ok := strings.CutSuffix(in, u.name)
		if !ok {
			continue
		}
		num = strings.TrimSpace(num)
		if num == "" || strings.Trim(num, "0123456789.") != "" {
			break
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			break
		}
		b := v * float64(u.mult)
		if b >= math.MaxInt64 {
			return fmt.Errorf("size %q is too large", in)
		}
		s.Bytes = int64(math.Round(b))
		return nil
	}
	if in != "" && strings.Trim(in, "0123456789.") == "" {
		return fmt.Errorf("size %q has no unit: write e.g. \"%sMB\" or \"%sGB\"", in, in, in)
	}
	return fmt.Errorf("invalid size %q: write e.g. \"500MB\", \"2GB\" or \"1.5GiB\"", in)
}

// MarshalText writes the size as String does.
func (s Size) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// String writes the size in the largest unit that gives a whole number:
// "2GB", "1536MiB", "0".
func (s Size) String() string {
	if s.Bytes == 0 {
		return "0"
	}
	for _, u := range []struct {
		name string
		mult int64
	}{{"TB", 1e12}, {"TiB", 1 << 40}, {"GB", 1e9}, {"GiB", 1 << 30}, {"MB", 1e6}, {"MiB", 1 << 20}, {"KB", 1e3}, {"KiB", 1 << 10}} {
		if s.Bytes%u.mult == 0 {
			return strconv.FormatInt(s.Bytes/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(s.Bytes, 10) + "B"
}
