package config

import (
	"reflect"
	"strings"
)

// The schema is read from the struct tags of Config, so that the loader,
// Set, Effective and the tests can never disagree with config.go.

// field is one key of the schema and the value it addresses in a Config.
type field struct {
	section, name string
	v             reflect.Value // addressable
}

func (f field) key() string { return f.section + "." + f.name }

// tagName is the TOML name of a struct field.
func tagName(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("toml"), ",")
	return name
}

// sectionOf returns the section struct of c named name.
func sectionOf(c *Config, name string) (reflect.Value, bool) {
	root := reflect.ValueOf(c).Elem()
	for i := range root.NumField() {
		if tagName(root.Type().Field(i)) == name {
			return root.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// fieldOf returns the field of section sec named name.
func fieldOf(sec reflect.Value, name string) (reflect.Value, bool) {
	for i := range sec.NumField() {
		if tagName(sec.Type().Field(i)) == name {
			return sec.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// fields lists every key of c in declaration order.
func fields(c *Config) []field {
	var out []field
	root := reflect.ValueOf(c).Elem()
	for i := range root.NumField() {
		sec := root.Field(i)
		secName := tagName(root.Type().Field(i))
		for j := range sec.NumField() {
			out = append(out, field{secName, tagName(sec.Type().Field(j)), sec.Field(j)})
		}
	}
	return out
}

// lookup returns the field of c addressed by a dotted key such as
// "policy.max_games".
func lookup(c *Config, key string) (reflect.Value, bool) {
	secName, name, ok := strings.Cut(key, ".")
	if !ok {
		return reflect.Value{}, false
	}
	sec, ok := sectionOf(c, secName)
	if !ok {
		return reflect.Value{}, false
	}
	return fieldOf(sec, name)
}

// Keys returns every configuration key ("server.embedded", ...) in the order
// of config.go.
func Keys() []string {
	var c Config
	fs := fields(&c)
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.key()
	}
	return out
}
