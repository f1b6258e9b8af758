package cmdflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// Exit codes shared by all subcommands.
const (
	OK      = 0
	Failure = 1
	Usage   = 2
)

// Parse parses args into fs. When it returns done, the caller returns code at
// once: 0 after -h (usage printed to stderr), 2 after a bad flag (one line
// printed to stderr). The flag set's Usage function is used for -h only.
//
// A value the flag's type refuses is reported with what is wrong and the
// form accepted ("-movetime 50: a duration needs a unit, e.g. 50ms or 2s"),
// not the flag package's bare "parse error".
func Parse(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, done bool) {
	// The flag package prints the usage on every error; keep it for -h only.
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	var bad badValue
	restore := explainValues(fs, &bad)
	err := fs.Parse(args)
	restore()
	fs.SetOutput(stderr)
	fs.Usage = usage
	switch {
	case err == nil:
		return OK, false
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(stderr, "usage of kriegbot %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		return OK, true
	case bad.msg != "":
		return Fail(stderr, fs.Name(), "%s", bad), true
	}
	return Fail(stderr, fs.Name(), "%v", err), true
}

// Fail prints "kriegbot NAME: reason (run kriegbot NAME -h for help)" and returns 2.
func Fail(stderr io.Writer, name, format string, args ...any) int {
	fmt.Fprintf(stderr, "kriegbot %s: %s (kriegbot %s -h for help)\n", name, fmt.Sprintf(format, args...), name)
	return Usage
}

// badValue is the first flag value refused during one Parse.
type badValue struct {
	name, value, msg string
	isBool           bool
}

// String gives "-movetime 50: ..." ("-check=maybe: ..." for a boolean, whose
// value can only be given that way).
func (b badValue) String() string {
	v := b.value
	if v == "" || strings.ContainsAny(v, " \t\"'") {
		v = fmt.Sprintf("%q", v)
	}
	sep := " "
	if b.isBool {
		sep = "="
	}
	return "-" + b.name + sep + v + ": " + b.msg
}

// explainValues wraps every flag of fs whose value is one of the flag
// package's own types, so that a refused value is explained into bad; the
// returned function puts the original values back.
func explainValues(fs *flag.FlagSet, bad *badValue) (restore func()) {
	var wrapped []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		var kind string
		switch g.Get().(type) {
		case time.Duration:
			kind = "duration"
		case int, int64:
			kind = "int"
		case uint, uint64:
			kind = "uint"
		case float64:
			kind = "float"
		case bool:
			kind = "bool"
		default:
			return
		}
		f.Value = &explained{Getter: g, f: f, kind: kind, bad: bad}
		wrapped = append(wrapped, f)
	})
	return func() {
		for _, f := range wrapped {
			f.Value = f.Value.(*explained).Getter
		}
	}
}

// explained is a flag value whose Set says what it accepts.
type explained struct {
	flag.Getter
	f    *flag.Flag
	kind string
	bad  *badValue
}

// IsBoolFlag keeps "-check" working without "=true" for wrapped booleans.
func (e *explained) IsBoolFlag() bool { return e.kind == "bool" }

func (e *explained) Set(s string) error {
	err := e.Getter.Set(s)
	if err == nil {
		return nil
	}
	msg := explain(e.kind, e.f, s, err)
	if e.bad.msg == "" {
		*e.bad = badValue{name: e.f.Name, value: s, msg: msg, isBool: e.kind == "bool"}
	}
	return errors.New(msg)
}

// explain says why s is not a value of the kind, and what would be.
func explain(kind string, f *flag.Flag, s string, err error) string {
	tooBig := strings.Contains(err.Error(), "out of range")
	example := "" // the default, when it makes a telling example
	if f.DefValue != "" && f.DefValue != "0" && !strings.HasPrefix(f.DefValue, "-") {
		example = fmt.Sprintf(", e.g. -%s %s", f.Name, f.DefValue)
	}
	switch kind {
	case "duration":
		if s != "" && strings.Trim(s, "0123456789.") == "" {
			return fmt.Sprintf("a duration needs a unit, e.g. %sms or 2s", s)
		}
		// The flag package says "parse error" for a duration too large
		// as well; the form below is right for both.
		return "not a duration: write a number with a unit, e.g. 300ms, 2s or 1m30s (units: ns, us, ms, s, m, h)"
	case "int":
		if tooBig {
			return "integer out of range"
		}
		return "not an integer" + example
	case "uint":
		if tooBig {
			return "integer out of range"
		}
		return "not a whole number (0, 1, 2, ...)" + example
	case "float":
		if tooBig {
			return "number out of range"
		}
		return "not a number" + example
	case "bool":
		return fmt.Sprintf("not a boolean: write -%s, -%s=true or -%s=false", f.Name, f.Name, f.Name)
	}
	return err.Error()
}

// SetUsage gives fs the one layout of every command's -h: "usage: kriegbot
// " and the synopsis, a blank line, what the command does (text: lines
// wrapped by hand, each ending in a newline), and, when the command has
// flags, a blank line, "Flags:" and their defaults. It prints to the flag
// set's output, which Parse points at the command's standard error.
func SetUsage(fs *flag.FlagSet, synopsis, text string) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: kriegbot %s\n\n%s", synopsis, text)
		flags := false
		fs.VisitAll(func(*flag.Flag) { flags = true })
		if flags {
			fmt.Fprint(w, "\nFlags:\n")
			fs.PrintDefaults()
		}
	}
}

// IsSet reports whether the flag name was given on the command line (not
// left at its default).
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
