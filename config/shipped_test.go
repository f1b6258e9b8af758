package config

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

const shippedPath = "../config.toml"

// The shipped config.toml must parse, validate, equal Defaults() in every
// field, and spell out every key, so that its comments and the defaults
// cannot drift apart.
func TestShippedConfigEqualsDefaults(t *testing.T) {
	got, err := Load(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	gf, wf := fields(&got), fields(&want)
	for i := range gf {
		if !reflect.DeepEqual(gf[i].v.Interface(), wf[i].v.Interface()) {
			t.Errorf("%s: config.toml has %v, Defaults() has %v", gf[i].key(), gf[i].v.Interface(), wf[i].v.Interface())
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("config.toml and Defaults() differ")
	}

	data, err := os.ReadFile(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	md, err := toml.Decode(string(data), new(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range Keys() {
		sec, name, _ := strings.Cut(key, ".")
		if line, ok := derivedDefaults[key]; ok {
			// Not set is its default; the file shows it commented out.
			if md.IsDefined(sec, name) || !strings.Contains(string(data), "\n"+line+"\n") {
				t.Errorf("config.toml should leave %s unset, with %q", key, line)
			}
			continue
		}
		if !md.IsDefined(sec, name) {
			t.Errorf("config.toml does not spell out %s", key)
		}
	}
}

// derivedDefaults are the keys whose default depends on other keys, so
// that no value in the file can stand for it: config.toml leaves them out
// and shows the line commented out.
var derivedDefaults = map[string]string{
	"tournament.td": `# td = ["TD"]`,
}

// Every key in the shipped file has a comment right above it (or above the
// group it belongs to, which starts with a comment).
func TestShippedConfigCommentsEveryGroup(t *testing.T) {
	data, err := os.ReadFile(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "[") && i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			t.Errorf("config.toml:%d: a section header should follow a blank line", i+1)
		}
		if !strings.Contains(l, " = ") || strings.HasPrefix(l, "#") || strings.HasPrefix(l, " ") {
			continue
		}
		j := i - 1
		for j >= 0 && strings.Contains(lines[j], " = ") && !strings.HasPrefix(lines[j], "#") {
			j--
		}
		if j < 0 || !strings.HasPrefix(lines[j], "#") {
			t.Errorf("config.toml:%d: %q has no comment above it", i+1, l)
		}
	}
}

// The commented-out ICC block must itself be a valid configuration when
// laid over the defaults, so that following it cannot produce an error.
func TestShippedICCBlockValidates(t *testing.T) {
	data, err := os.ReadFile(shippedPath)
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "# Playing on the Internet Chess Club")
	if !ok {
		t.Fatal("config.toml has no ICC block")
	}
	var b strings.Builder
	for l := range strings.SplitSeq(block, "\n") {
		l = strings.TrimPrefix(l, "# ")
		if strings.HasPrefix(l, "[") || strings.Contains(l, " = ") && !strings.Contains(l, "...") {
			b.WriteString(l + "\n")
		}
	}
	var raw map[string]any
	if _, err := toml.Decode(b.String(), &raw); err != nil {
		t.Fatalf("ICC block is not TOML: %v\n%s", err, b.String())
	}
	c := Defaults()
	if errs := decode(&c, raw); errs != nil {
		t.Fatalf("ICC block: %v", joinErrors(errs))
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("ICC block does not validate: %v\n%s", err, b.String())
	}
	if c.Server.Embedded || c.Server.Host != "chessclub.com" || c.Server.Port != 5000 || c.Sparring.Enabled || !c.Policy.Seek || c.Policy.Challenge != "" || !slices.Equal(c.TrustedTDs(), []string{"Tomato"}) {
		t.Errorf("ICC block gave %+v %+v", c.Server, c.Policy)
	}
	if _, err := Password(c, func(string) string { return "" }); err == nil {
		t.Error("ICC config without a password: no error")
	}
	if p, err := Password(c, func(k string) string { return map[string]string{"KRIEGBOT_PASSWORD": "s3cret"}[k] }); err != nil || p != "s3cret" {
		t.Errorf("ICC config password = %q, %v", p, err)
	}
}

// docs/config.md must mention every key.
func TestDocsMentionEveryKey(t *testing.T) {
	data, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range Keys() {
		_, name, _ := strings.Cut(key, ".")
		if !strings.Contains(string(data), "`"+name+"`") {
			t.Errorf("docs/config.md does not describe %s", key)
		}
	}
}
