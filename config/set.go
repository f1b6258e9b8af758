package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Set changes one key from text, as the owner's "set" tell does: the key
// must be listed in Owner.Settable (a subset of SettableKeys), and the whole
// config must still validate; on any error c is left unchanged.
//
// Values are read as typed by a person: booleans as true/false, on/off or
// yes/no; durations as "2m"; strings verbatim, or in double quotes (Go
// syntax) to give an empty string or surrounding spaces. As in Validate, a
// player spec is only checked to be present; the caller checks its syntax.
func (c *Config) Set(key, value string) error {
	if !slices.Contains(c.Owner.Settable, key) {
		if slices.Contains(SettableKeys(), key) {
			return &Error{Key: key, Msg: "is not in owner.settable, so it cannot be changed by tell"}
		}
		return &Error{Key: key, Msg: "cannot be changed by tell; settable keys are " + strings.Join(c.Owner.Settable, ", ")}
	}
	next := *c // Set replaces values; it never writes into shared slices
	f, ok := lookup(&next, key)
	if !ok {
		return &Error{Key: key, Msg: "unknown key"}
	}
	if msg := setText(f, value); msg != "" {
		return &Error{Key: key, Msg: msg}
	}
	if err := joinErrors(next.validate()); err != nil {
		return err
	}
	*c = next
	return nil
}

// setText stores a value typed as text in f, or says why it cannot.
func setText(f reflect.Value, text string) string {
	trimmed := strings.TrimSpace(text)
	if d, ok := f.Addr().Interface().(*Duration); ok {
		var nd Duration
		if err := nd.UnmarshalText([]byte(trimmed)); err != nil {
			return err.Error()
		}
		*d = nd
		return ""
	}
	if sz, ok := f.Addr().Interface().(*Size); ok {
		var ns Size
		if err := ns.UnmarshalText([]byte(trimmed)); err != nil {
			return err.Error()
		}
		*sz = ns
		return ""
	}
	switch f.Kind() {
	case reflect.Bool:
		switch strings.ToLower(trimmed) {
		case "true", "on", "yes":
			f.SetBool(true)
		case "false", "off", "no":
			f.SetBool(false)
		default:
			return fmt.Sprintf("must be true or false (or on/off, yes/no), got %q", text)
		}
	case reflect.Int:
		n, err := strconv.Atoi(trimmed)
		if err != nil {
			return fmt.Sprintf("must be an integer, got %q", text)
		}
		f.SetInt(int64(n))
	case reflect.Uint64:
		n, err := strconv.ParseUint(trimmed, 10, 64)
		if err != nil {
			return fmt.Sprintf("must be a non-negative integer, got %q", text)
		}
		f.SetUint(n)
	case reflect.Float64:
		n, err := strconv.ParseFloat(trimmed, 64)
		if err != nil {
			return fmt.Sprintf("must be a number, got %q", text)
		}
		f.SetFloat(n)
	case reflect.String:
		s := text
		if len(trimmed) >= 2 && trimmed[0] == '"' && trimmed[len(trimmed)-1] == '"' {
			u, err := strconv.Unquote(trimmed)
			if err != nil {
				return fmt.Sprintf("bad quoted string %s: %v", trimmed, err)
			}
			s = u
		}
		f.SetString(s)
	case reflect.Slice:
		if f.Type().Elem().Kind() != reflect.String {
			return fmt.Sprintf("cannot be set from text (%s)", f.Type())
		}
		var list []string
		for item := range strings.SplitSeq(trimmed, ",") {
			if item = strings.TrimSpace(item); item != "" {
				list = append(list, item)
			}
		}
		if list == nil {
			list = []string{}
		}
		f.Set(reflect.ValueOf(list))
	default:
		return fmt.Sprintf("cannot be set from text (%s)", f.Type())
	}
	return ""
}
