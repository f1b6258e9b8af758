package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// MaxFileSize bounds what Load reads: a real config is a few kilobytes.
const MaxFileSize = 1 << 20

// Load reads and parses the config file at path (see Parse).
func Load(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return Config{}, fmt.Errorf("%s: larger than %d bytes; is this a kriegbot config?", path, MaxFileSize)
	}
	return Parse(data, path)
}

// LoadOrDefaults is Load for a command's -config flag: when the file is
// missing and the flag was not given (explicit false), the built-in
// defaults stand in for it. source says which was used: the path, or
// "built-in defaults".
func LoadOrDefaults(path string, explicit bool) (cfg Config, source string, err error) {
	cfg, err = Load(path)
	if err == nil {
		return cfg, path, nil
	}
	if !explicit && errors.Is(err, fs.ErrNotExist) {
		return Defaults(), "built-in defaults", nil
	}
	return Config{}, path, err
}

// Parse decodes TOML data onto Defaults() and validates the result. Keys
// left out keep their defaults. Unknown keys, values of the wrong type and
// values out of range are errors (*Error), each naming name, the line and
// the key; all of them are returned, joined and sorted by line. A TOML
// syntax error is returned alone, with its line and column.
func Parse(data []byte, name string) (Config, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := syntaxPos(data, pe.Position.Start)
			return Config{}, &Error{File: name, Line: line, Col: col, Msg: "invalid TOML: " + pe.Message}
		}
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	c := Defaults()
	errs := decode(&c, raw)
	failed := make(map[string]bool, len(errs))
	for _, e := range errs {
		failed[e.Key] = true
	}
	// A key that failed to decode kept its default; do not also blame it.
	for _, e := range c.validate() {
		if !failed[e.Key] {
			errs = append(errs, e)
		}
	}
	if len(errs) == 0 {
		return c, nil
	}
	lines := locateKeys(data)
	for _, e := range errs {
		e.File = name
		e.Line = lines.place(e.path, e.also)
	}
	return Config{}, joinErrors(errs)
}

// syntaxPos turns the byte offset of a TOML syntax error into a 1-based line
// and column (in characters) of data. The library's own Position.Line is
// not used: it counts a newline as soon as the lexer has read it, so an
// error found at the end of line 1 (an unclosed "[policy") came out as line
// 2. The offset is into the text the library parsed, which lacks a leading
// byte order mark (which no editor shows either).
func syntaxPos(data []byte, start int) (line, col int) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
	case bytes.HasPrefix(data, []byte("\xff\xfe")), bytes.HasPrefix(data, []byte("\xfe\xff")):
		data = data[2:]
	}
	start = max(0, min(start, len(data)))
	lineStart := bytes.LastIndexByte(data[:start], '\n') + 1
	return bytes.Count(data[:start], []byte("\n")) + 1, utf8.RuneCount(data[lineStart:start]) + 1
}

// decode sets the fields of c named in raw. Decoding the raw TOML tree
// ourselves, rather than with toml.Decode onto the struct, lets us report
// every bad key at once (the library stops at the first), match keys
// exactly (the library also accepts "Max_Games"), and catch integers that
// do not fit (a negative seed would wrap around).
func decode(c *Config, raw map[string]any) []*Error {
	var errs, secrets []*Error
	for _, secName := range slices.Sorted(maps.Keys(raw)) { // sorted: the same file gives the same errors
		secRaw := raw[secName]
		sec, ok := sectionOf(c, secName)
		if !ok {
			e := keyError([]string{secName}, "unknown section"+suggestSection(secName))
			switch secRaw.(type) {
			case map[string]any, []map[string]any:
			default:
				hint := suggestKey(c, "", secName)
				if hint == "" && looksSecret(secName) {
					e.Msg = "unknown key"
					secrets = append(secrets, e)
				} else {
					e.Msg = "unknown key: keys belong in a [section]" + hint
				}
			}
			errs = append(errs, e)
			continue
		}
		table, ok := secRaw.(map[string]any)
		if !ok {
			errs = append(errs, keyError([]string{secName}, fmt.Sprintf("must be a table ([%s]), got %s", secName, tomlType(secRaw))))
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(table)) {
			v := table[name]
			f, ok := fieldOf(sec, name)
			if !ok {
				e := keyError([]string{secName, name}, "unknown key")
				if len(errs) < maxErrors { // hints cost a few edit distances each
					e.Msg += suggestKey(c, secName, name)
				}
				// A near spelling of a real key wins over the secret hint
				// (pasword_env is a typo, not a password).
				if e.Msg == "unknown key" && looksSecret(name) {
					secrets = append(secrets, e)
				}
				errs = append(errs, e)
				continue
			}
			if msg := setRaw(f, v); msg != "" {
				errs = append(errs, keyError([]string{secName, name}, msg))
			}
		}
	}
	// Hints about secrets are written once the whole file is decoded: they
	// name account.password_env, which may come later in the file.
	for _, e := range secrets {
		e.Msg += secretHint(c.Account)
	}
	return errs
}

// looksSecret says whether an unknown key's name suggests that someone put
// a password or similar secret in the file.
func looksSecret(name string) bool {
	n := strings.ToLower(name)
	if n == "pass" || n == "pw" {
		return true
	}
	for _, s := range []string{"passw", "passwd", "pwd", "secret", "token", "credential", "apikey", "api_key"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// secretHint tells where the password comes from instead of the file. It
// never repeats the value found there.
func secretHint(a Account) string {
	const tail = "; remove it from this file"
	if a.PasswordEnv != "" {
		return fmt.Sprintf(": the password is never read from config.toml but from the environment variable $%s (named by account.password_env), else from the first line of account.password_file%s", a.PasswordEnv, tail)
	}
	return ": the password is never read from config.toml; name an environment variable holding it in account.password_env (e.g. \"KRIEGBOT_PASSWORD\") or a file whose first line is the password in account.password_file" + tail
}

// keyError is an Error about the key with the given parts.
func keyError(path []string, msg string) *Error {
	return &Error{Key: toml.Key(path).String(), Msg: msg, path: path}
}

// setRaw stores a decoded TOML value in f, or says why it cannot.
func setRaw(f reflect.Value, v any) string {
	if d, ok := f.Addr().Interface().(*Duration); ok {
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("must be a duration string such as \"300ms\" or \"2m\", got %s", tomlType(v))
		}
		var nd Duration
		if err := nd.UnmarshalText([]byte(s)); err != nil {
			return err.Error()
		}
		*d = nd
		return ""
	}
	if sz, ok := f.Addr().Interface().(*Size); ok {
		var ns Size
		switch v := v.(type) {
		case string:
			if err := ns.UnmarshalText([]byte(v)); err != nil {
				return err.Error()
			}
		case int64:
			if v != 0 { // 0 needs no unit
				return fmt.Sprintf("size %d has no unit: write e.g. \"%dMB\" or \"%dGB\"", v, v, v)
			}
		default:
			return fmt.Sprintf("must be a size string such as \"500MB\" or \"2GB\", got %s", tomlType(v))
		}
		*sz = ns
		return ""
	}
	switch f.Kind() {
	case reflect.Bool:
		if b, ok := v.(bool); ok {
			f.SetBool(b)
			return ""
		}
		return "must be true or false, got " + tomlType(v)
	case reflect.Int:
		n, ok := v.(int64)
		if !ok {
			return "must be an integer, got " + tomlType(v)
		}
		if f.OverflowInt(n) {
			return fmt.Sprintf("%d is too large", n)
		}
		f.SetInt(n)
		return ""
	case reflect.Uint64:
		n, ok := v.(int64)
		if !ok {
			return "must be an integer, got " + tomlType(v)
		}
		if n < 0 {
			return fmt.Sprintf("must not be negative, got %d", n)
		}
		f.SetUint(uint64(n))
		return ""
	case reflect.Float64:
		switch n := v.(type) {
		case float64:
			f.SetFloat(n)
			return ""
		case int64:
			f.SetFloat(float64(n))
			return ""
		}
		return "must be a number, got " + tomlType(v)
	case reflect.String:
		if s, ok := v.(string); ok {
			f.SetString(s)
			return ""
		}
		return "must be a string, got " + tomlType(v)
	case reflect.Slice:
		list, ok := v.([]any)
		if f.Type().Elem().Kind() == reflect.Int {
			if !ok {
				return "must be an array of integers, got " + tomlType(v)
			}
			out := make([]int, 0, len(list))
			for i, item := range list {
				n, ok := item.(int64)
				if !ok || int64(int(n)) != n {
					return fmt.Sprintf("must be an array of integers, item %d is %s", i+1, tomlType(item))
				}
				out = append(out, int(n))
			}
			f.Set(reflect.ValueOf(out))
			return ""
		}
		if !ok {
			return "must be an array of strings, got " + tomlType(v)
		}
		out := make([]string, 0, len(list))
		for i, item := range list {
			s, ok := item.(string)
			if !ok {
				return fmt.Sprintf("must be an array of strings, item %d is %s", i+1, tomlType(item))
			}
			out = append(out, s)
		}
		f.Set(reflect.ValueOf(out))
		return ""
	}
	return fmt.Sprintf("cannot decode into %s", f.Type()) // a schema type this file does not know yet
}

// tomlType names the TOML type of a decoded value, with an article.
func tomlType(v any) string {
	switch v := v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return fmt.Sprintf("an integer (%d)", v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Sprintf("a float (%v)", v)
		}
		return fmt.Sprintf("a float (%g)", v)
	case string:
		if len(v) > 40 {
			return "a string"
		}
		return fmt.Sprintf("a string (%q)", v)
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date or time"
	}
	return fmt.Sprintf("a %T", v)
}

// suggestSection hints at the section meant by an unknown one.
func suggestSection(name string) string {
	var c Config
	root := reflect.ValueOf(&c).Elem()
	best, bestDist := "", 3
	for i := range root.NumField() {
		s := tagName(root.Type().Field(i))
		if d := distance(s, name); d < bestDist {
			best, bestDist = s, d
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean [%s]?)", best)
	}
	return ""
}

// suggestKey hints at the key meant by an unknown one: a near spelling in
// the same section, or the same name in another section.
func suggestKey(c *Config, section, name string) string {
	best, bestDist := "", 3
	for _, f := range fields(c) {
		if f.section != section {
			continue
		}
		if d := distance(f.name, name); d < bestDist {
			best, bestDist = f.name, d
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	for _, f := range fields(c) {
		if f.name == name {
			return fmt.Sprintf(" (%s belongs in [%s])", name, f.section)
		}
	}
	return ""
}

// distance is how far apart two names are for a "did you mean": 0 when
// they differ only in case, else their edit distance; long names are not
// compared (a typo hint is not worth quadratic work on hostile input).
func distance(a, b string) int {
	if strings.EqualFold(a, b) {
		return 0
	}
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	return editDistance(strings.ToLower(a), strings.ToLower(b))
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
