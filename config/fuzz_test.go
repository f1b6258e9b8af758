package config

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse. It must never panic or hang;
// every error must be placed inside the file; a config that parses must
// validate and survive Effective → Parse unchanged; and the line locator
// must agree with the TOML library's own key positions.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(shippedPath); err == nil {
		f.Add(data)
	}
	for _, seed := range []string{
		"",
		"[policy]\nmax_games = 0\nmax_game = 2\n",
		"policy.max_games = 3\nengine = { seed = 7 }\n",
		"[server]\nsettings = [\n  \"a\", # c\n  'b',\n]\nport = 70000\n",
		"[policy]\ngreeting = '''\nhi\n'''\nabort_after = \"5x\"\n",
		"[\"policy\"]\n'max_games' = 2\n\"min_base\" = 5\n",
		"[[policy]]\n[a.b]\nc = 1\n",
		"[connection]\nkeep_alive = \"1h30m\"\ndead_after = \"2h\"\n",
		"[engine]\nseed = -1\nmove_overhead = 300\n",
		"[server]\nembedded = false\nhost = \"chessclub.com\"\nport = 5000\n[sparring]\nenabled = false\n[policy]\nchallenge = \"\"\n",
		"x = \"\"\"a\\\n b\"\"\"\ny = 1979-05-27T07:32:00Z\n",
		"\ufeff[policy]\nmax_games = 0\n",
		"[tournament]\ntd = [\"TD\", \"Tomato\"]\njoin = [3, 999999999]\njoin_command = \"td join {event}\"\n",
		"[tournament]\njoin = [1, \"2\", 3.5, [4]]\nleave_command = \"tell {td} {x}\"\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "f.toml")
		lines := strings.Count(string(data), "\n") + 1
		if err != nil {
			for _, e := range unjoin(err) {
				var ce *Error
				if !errors.As(e, &ce) {
					continue // I/O-style errors from the library carry no position
				}
				if ce.Line < 0 || ce.Line > lines+1 || ce.File != "f.toml" {
					t.Fatalf("error placed outside the file (%d lines): %v", lines, ce)
				}
			}
			checkAgainstLibrary(t, data)
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse accepted a config that does not validate: %v", err)
		}
		back, err := Parse([]byte(c.effective(env(nil))), "effective")
		want := c
		want.Tournament.TD = c.TrustedTDs() // spelled out as it applies
		if err != nil || !reflect.DeepEqual(back, want) {
			t.Fatalf("Effective round trip: %v\n%s", err, c.effective(env(nil)))
		}
		checkAgainstLibrary(t, data)
	})
}

// unjoin splits an errors.Join result into its parts.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
