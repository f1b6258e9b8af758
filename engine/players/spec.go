package players

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is one sort of player: a name, a line of help and a builder that
// reads the spec's options.
type Kind struct {
	Name    string
	Summary string
	// Options documents the keys the kind accepts ("noise=N: ...").
	Options []string
	// Build reads the options, every one through o (so unknown keys are
	// caught), and returns the constructor of players with them, called once
	// per player needed (one per game in flight).
	Build func(o *Options) (func() Player, error)
}

// Kinds lists the registered kinds. Adding a kind is one line here.
func Kinds() []Kind {
	return []Kind{
		randomKind(),
		heuristicKind(),
		mctsKind(),
		sampledKind(),
		boardtreeKind(),
	}
}

// Spec is a parsed player spec: a kind and its options, parsed once where
// the spec comes in (a flag, a config file, a record) and passed on typed.
type Spec struct {
	text string
	kind Kind
	make func() Player
	// opts are the player's options in the order written; harness are the
	// keys a harness reads itself (ParseWith), taken out of text.
	opts, harness []Option
}

// Option is one key=value of a spec.
type Option struct{ Key, Value string }

// String returns the spec as written ("heuristic", "mcts:approach=c,threads=1"),
// without the harness's keys (ParseWith).
func (s Spec) String() string { return s.text }

// Kind returns the spec's kind name.
func (s Spec) Kind() string { return s.kind.Name }

// New makes a fresh player from the spec.
func (s Spec) New() Player { return s.make() }

// Options returns the player's options in the order written.
func (s Spec) Options() []Option { return s.opts }

// Option returns the value of the player's option key, if given.
func (s Spec) Option(key string) (string, bool) { return find(s.opts, key) }

// Harness returns the value of the harness's key (ParseWith), if given.
func (s Spec) Harness(key string) (string, bool) { return find(s.harness, key) }

func find(opts []Option, key string) (string, bool) {
	for _, o := range opts {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// maxSpec bounds a spec's length: specs come from the command line and
// config files.
const maxSpec = 1024

// Parse reads "kind" or "kind:key=value,key=value" against kinds and builds
// the kind with its options, so errors surface before any game.
func Parse(text string, kinds []Kind) (Spec, error) { return ParseWith(text, kinds) }

// ParseWith is Parse for a harness that reads keys of its own in a spec (a
// match's ponder=on and a player's own budget): the keys named in harness
// are taken out before the kind reads the rest; Harness returns their
// values, which the harness checks, and String is the spec without them
// ("mcts:ponder=on,c=0.5" is "mcts:c=0.5"). No key may be given twice.
func ParseWith(text string, kinds []Kind, harness ...string) (Spec, error) {
	if len(text) > maxSpec {
		return Spec{}, fmt.Errorf("players: spec longer than %d bytes", maxSpec)
	}
	name, rest, hasOpts := strings.Cut(text, ":")
	i := slices.IndexFunc(kinds, func(k Kind) bool { return k.Name == name })
	if i < 0 {
		names := make([]string, len(kinds))
		for j, k := range kinds {
			names[j] = k.Name
		}
		return Spec{}, fmt.Errorf("players: spec %q: unknown kind %q (known: %s)", text, name, strings.Join(names, ", "))
	}
	sp := Spec{text: name, kind: kinds[i]}
	o := &Options{kind: name, m: map[string]string{}, used: map[string]bool{}}
	if hasOpts {
		var own []string
		seen := map[string]bool{}
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return Spec{}, fmt.Errorf("players: spec %q: option %q is not key=value", text, kv)
			}
			if seen[k] {
				return Spec{}, fmt.Errorf("players: spec %q: option %q given twice", text, k)
			}
			seen[k] = true
			if slices.Contains(harness, k) {
				sp.harness = append(sp.harness, Option{k, v})
				continue
			}
			o.m[k] = v
			sp.opts = append(sp.opts, Option{k, v})
			own = append(own, kv)
		}
		if len(own) > 0 {
			sp.text += ":" + strings.Join(own, ",")
		}
	}
	newPlayer, err := kinds[i].Build(o)
	if err == nil {
		err = o.Err()
	}
	if err != nil {
		return Spec{}, fmt.Errorf("players: spec %q: %w", text, err)
	}
	sp.make = newPlayer
	return sp, nil
}

// Options gives a kind's constructor typed access to a spec's options and
// remembers the first error and which keys were read.
type Options struct {
	kind string
	m    map[string]string
	used map[string]bool
	err  error
}

func (o *Options) fail(key, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("option %s: %s", key, fmt.Sprintf(format, args...))
	}
}

func (o *Options) get(key string) (string, bool) {
	o.used[key] = true
	v, ok := o.m[key]
	return v, ok
}

// String returns the option's value, or def when absent.
func (o *Options) String(key, def string) string {
	if v, ok := o.get(key); ok {
		return v
	}
	return def
}

// Int returns the option as an integer in [lo, hi], or def when absent.
func (o *Options) Int(key string, def, lo, hi int) int {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		o.fail(key, "%q is not an integer from %d to %d", v, lo, hi)
		return def
	}
	return n
}

// Float returns the option as a number in [lo, hi], or def when absent.
func (o *Options) Float(key string, def, lo, hi float64) float64 {
	v, ok := o.get(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= lo && f <= hi) {
		o.fail(key, "%q is not a number from %g to %g", v, lo, hi)
		return def
	}
	return f
}

// Err returns the first bad value, or an unknown key (sorted, so the message
// does not depend on map order).
func (o *Options) Err() error {
	if o.err != nil {
		return o.err
	}
	var unknown []string
	for k := range o.m {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("%s has no option %q", o.kind, unknown[0])
	}
	return nil
}
