package config

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestLocateKeys(t *testing.T) {
	text := `# comment [not.a.table]
top = 1 # trailing [x]
"quoted key" = 'v'
a.b . "c.d" = 2

[server]
settings = [
  "one", # a comment with = and [brackets]
  'two]',
  """three
]""",
  [1, [2]],
]
port = 3
s1 = """ends with quotes"""""
s2 = 'x'
ml = '''
a = 1
'''
esc = "a\"b = c"
after = 4

[ "sp ace" . x ]
k = { in = 1, nest = { deep = 2 }, arr = [ { no = 3 } ] }
[[arr]]
e = 5
[[arr]]
e = 6
last = "\u0041"
`
	want := map[string]int{
		"top": 2, `"quoted key"`: 3, "a": 4, "a.b": 4, `a.b."c.d"`: 4,
		"server": 6, "server.settings": 7, "server.port": 14, "server.s1": 15,
		"server.s2": 16, "server.ml": 17, "server.esc": 20, "server.after": 21,
		`"sp ace"`: 23, `"sp ace".x`: 23, `"sp ace".x.k`: 24, `"sp ace".x.k.in`: 24,
		`"sp ace".x.k.nest.deep`: 24, "arr": 25, "arr.e": 26, "arr.last": 29,
	}
	got := locateKeys([]byte(text))
	for key, line := range want {
		if got[key] != line {
			t.Errorf("%s: line %d, want %d", key, got[key], line)
		}
	}
	for _, absent := range []string{"not", "not.a.table", "x", "a", "arr.no", `"sp ace".x.k.arr.no`, "server.a"} {
		if _, ok := got[absent]; ok && want[absent] == 0 {
			t.Errorf("%s recorded at line %d but is not a key", absent, got[absent])
		}
	}
	if _, err := toml.Decode(text, new(map[string]any)); err != nil {
		t.Fatalf("the test text is not valid TOML: %v", err)
	}
	checkAgainstLibrary(t, []byte(text))
}

func TestLocateKeysHostile(t *testing.T) {
	for _, text := range []string{
		"", "[", "[[", "=", "a =", `a = "unterminated`, "a = '''open", `a = """open\`,
		"a = [", "a = {", "a = { b = ", "a.=1", "[a.]", "[\"a", "\"a\" = \"\\", "a = '\n",
		strings.Repeat("[", 100000), "a = " + strings.Repeat("[", 10000), "a = " + strings.Repeat("{b=", 10000),
		"\x00\xff = 1",
	} {
		_ = locateKeys([]byte(text)) // must return, without panic
	}
}

// checkAgainstLibrary compares the locator with BurntSushi/toml's own key
// positions, which it keeps private but reports in the ParseError of an
// Unmarshaler that fails. Compared: leaf keys of the top two levels (the
// depth of our schema).
func checkAgainstLibrary(t *testing.T, data []byte) {
	t.Helper()
	var root map[string]toml.Primitive
	md, err := toml.Decode(string(data), &root)
	if err != nil {
		return
	}
	got := locateKeys(data)
	compare := func(key toml.Key, p toml.Primitive) {
		var v any
		if md.PrimitiveDecode(p, &v) != nil {
			return
		}
		switch v.(type) {
		case map[string]any, []map[string]any:
			return // tables: the library places them at their header, we at first mention
		}
		var pe toml.ParseError
		if !errors.As(md.PrimitiveDecode(p, new(lineProbe)), &pe) || pe.Position.Line == 0 {
			return
		}
		line := got[key.String()]
		if _, isString := v.(string); isString && line > 0 && line <= pe.Position.Line {
			return // the library places a multi-line string at its end, we at its key
		}
		if line != pe.Position.Line {
			t.Errorf("key %s: locator says line %d, library says %d\n%s", key, line, pe.Position.Line, data)
		}
	}
	for k, p := range root {
		compare(toml.Key{k}, p)
		var sub map[string]toml.Primitive
		if md.PrimitiveDecode(p, &sub) != nil {
			continue
		}
		for k2, p2 := range sub {
			compare(toml.Key{k, k2}, p2)
		}
	}
}

// lineProbe fails on purpose so that the library reports the position of
// the key being decoded.
type lineProbe struct{}

func (lineProbe) UnmarshalTOML(any) error { return fmt.Errorf("probe") }

func TestLocatorAgreesWithLibraryOnShippedConfig(t *testing.T) {
	data, err := os.ReadFile(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstLibrary(t, data)
	if got := locateKeys(data); len(got) < len(Keys())+8 {
		t.Errorf("locator found %d keys in config.toml, want all %d keys and 8 sections", len(got), len(Keys()))
	}
}

func TestPlaceFallsBack(t *testing.T) {
	kl := locateKeys([]byte("# x\n[policy]\nmin_base = 3\n\"k\\u0065y\\t\" = 1\n"))
	for _, tc := range []struct {
		key  []string
		also []string
		want int
	}{
		{[]string{"policy", "min_base"}, nil, 3},
		{[]string{"policy", "max_base"}, []string{"policy.min_base"}, 3},
		{[]string{"policy", "max_base"}, []string{"policy.nothing"}, 2},
		{[]string{"policy", "key\t"}, nil, 4},
		{[]string{"server", "port"}, nil, 0},
	} {
		if got := kl.place(tc.key, tc.also); got != tc.want {
			t.Errorf("place(%v, %v) = %d, want %d", tc.key, tc.also, got, tc.want)
		}
	}
}
