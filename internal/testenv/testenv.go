package testenv

import (
	"os"
	"strconv"
	"testing"
)

// Count reads a positive whole number from the environment variable name,
// def when it is unset; anything else fails the test, naming the variable.
func Count(t testing.TB, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive whole number", name, v)
	}
	return n
}
