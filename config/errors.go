package config

import (
	"cmp"
	"errors"
	"fmt"
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

// maxErrors bounds the errors reported at once: a wrong file (say, a log
// fed to -config) should give a screenful, not a flood.
const maxErrors = 50

// joinErrors sorts errs by line, then key, and joins at most maxErrors of
// them (saying how many were left out); nil if none.
func joinErrors(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Msg, b.Msg))
	})
	out := make([]error, 0, min(len(errs), maxErrors)+1)
	for _, e := range errs[:min(len(errs), maxErrors)] {
		out = append(out, e)
	}
	if len(errs) > maxErrors {
		out = append(out, &Error{File: errs[0].File, Msg: fmt.Sprintf("%d more errors not shown", len(errs)-maxErrors)})
	}
	return errors.Join(out...)
}
