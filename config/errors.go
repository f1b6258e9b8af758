package config

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem in a configuration, placed as precisely as known.
// Load and Parse return all of them joined (errors.Join), sorted by line;
// errors.As finds the first.
type Error struct {
	File string // file name as given to Parse; "" from Validate or Set
	Line int    // 1-based; 0 when the key is not in the file (a default)
	Col  int    // 1-based; 0 when unknown (only syntax errors have one)
	Key  string // "policy.max_games"; "" for syntax errors
	Msg  string // what is wrong, and what would be right

	path []string // Key in parts, for the line locator
	also []string // keys to place the error by when Key is not in the file
}

// Error formats the problem as "config.toml:42: policy.max_games: must be
// 1-16, got 0", leaving out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	}
	if e.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// joinErrors sorts errs by line, then key, and joins them; nil if none.
func joinErrors(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Msg, b.Msg))
	})
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}
