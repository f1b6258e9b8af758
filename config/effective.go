package config

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// Effective returns the configuration as TOML text, every key spelled out,
// for `kriegbot run -check`. Parsing it gives back c, except that
// tournament.td is spelled out as it applies (TrustedTDs) when it was not
// set. The password is never shown, only where it would come from and
// whether that source is there.
func (c Config) Effective() string {
	return c.effective(os.Getenv)
}

func (c Config) effective(getenv func(string) string) string {
	var b strings.Builder
	b.WriteString("# kriegbot effective configuration: the defaults, overlaid with the config file.\n")
	section := ""
	for _, f := range fields(&c) {
		if f.section != section {
			if section == "account" {
				b.WriteString(c.passwordNote(getenv))
				b.WriteString(c.tokenNote(getenv))
			}
			section = f.section
			fmt.Fprintf(&b, "\n[%s]\n", section)
			if section == "retention" {
				b.WriteString("# " + c.Retention.Summary(c.Logs.Dir) + "\n")
			}
		}
		if f.key() == "tournament.td" {
			// Shown as it applies (the default depends on the server),
			// with a note when it is the default.
			b.WriteString(c.tdNote())
			fmt.Fprintf(&b, "%s = %s\n", f.name, formatValue(reflect.ValueOf(c.TrustedTDs())))
			continue
		}
		fmt.Fprintf(&b, "%s = %s\n", f.name, formatValue(f.v))
	}
	return b.String()
}

// passwordNote says where the password would come from, never what it is.
func (c Config) passwordNote(getenv func(string) string) string {
	a := c.Account
	switch {
	case c.Server.Embedded:
		return "# password: none needed (embedded server)\n"
	case a.Guest:
		return "# password: none needed (guest)\n"
	}
	var parts []string
	if a.PasswordEnv != "" {
		state := "not set"
		if len(firstLine([]byte(getenv(a.PasswordEnv)))) > 0 {
			state = "set"
		}
		parts = append(parts, fmt.Sprintf("from $%s (%s)", a.PasswordEnv, state))
	}
	if a.PasswordFile != "" {
		state := "missing"
		if st, err := os.Stat(a.PasswordFile); err == nil {
			state = "present"
			if st.Mode().Perm()&0o044 != 0 {
				state = "present, but readable by others: chmod 600"
			}
		}
		parts = append(parts, fmt.Sprintf("from file %s (%s)", a.PasswordFile, state))
	}
	if parts == nil {
		return "# password: no source configured\n"
	}
	return "# password: " + strings.Join(parts, ", else ") + "\n"
}

// formatValue writes a schema value as a TOML value.
func formatValue(v reflect.Value) string {
	if d, ok := v.Interface().(Duration); ok {
		return tomlQuote(d.String())
	}
	if s, ok := v.Interface().(Size); ok {
		return tomlQuote(s.String())
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float64:
		return formatFloat(v.Float())
	case reflect.String:
		return tomlQuote(v.String())
	case reflect.Slice:
		items := make([]string, v.Len())
		for i := range items {
			if e := v.Index(i); e.Kind() == reflect.Int {
				items[i] = strconv.FormatInt(e.Int(), 10)
			} else {
				items[i] = tomlQuote(e.String())
			}
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v.Interface())) // a schema type this file does not know yet
}

// formatFloat writes f so that TOML reads it back as a float: 10 as 10.0.
func formatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	switch s {
	case "NaN":
		return "nan"
	case "+Inf":
		return "inf"
	case "-Inf":
		return "-inf"
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
