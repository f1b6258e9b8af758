package kshttp

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestParsePaging(t *testing.T) {
	for _, tc := range []struct {
		query     string
		page, per int
		bad       string // the parameter a 422 names
	}{
		{"", 1, 20, ""},
		{"page=3&per_page=100", 3, 100, ""},
		{"per_page=1", 1, 1, ""},
		{"page=2&page=5", 5, 20, ""},
		{"page=0", 0, 0, "page"},
		{"page=-1", 0, 0, "page"},
		{"page=1.5", 0, 0, "page"},
		{"page=", 0, 0, "page"},
		{"page=99999999999999999999", 0, 0, "page"},
		{"per_page=101", 0, 0, "per_page"},
		{"per_page=0", 0, 0, "per_page"},
		{"per_page=ten", 0, 0, "per_page"},
		{"other=7", 1, 20, ""},
	} {
		q, _ := url.ParseQuery(tc.query)
		page, per, e := ParsePaging(q)
		switch {
		case tc.bad == "" && (e != nil || page != tc.page || per != tc.per):
			t.Errorf("%q: page %d per %d %+v, want %d %d", tc.query, page, per, e, tc.page, tc.per)
		case tc.bad != "" && (e == nil || e.Status != 422 || !strings.Contains(fmt.Sprint(e.Detail), tc.bad)):
			t.Errorf("%q: %+v, want a 422 naming %s", tc.query, e, tc.bad)
		}
	}
}

func TestPage(t *testing.T) {
	for _, tc := range []struct{ n, page, per, lo, hi, pages int }{
		{0, 1, 20, 0, 0, 0},
		{45, 1, 20, 0, 20, 3},
		{45, 3, 20, 40, 45, 3},
		{45, 4, 20, 45, 45, 3},
		{45, 1000000, 100, 45, 45, 1},
	} {
		lo, hi, pages := Page(tc.n, tc.page, tc.per)
		if lo != tc.lo || hi != tc.hi || pages != tc.pages {
			t.Errorf("Page(%d, %d, %d) = %d %d %d", tc.n, tc.page, tc.per, lo, hi, pages)
		}
	}
}

// FuzzParsePaging: no query panics the parser, and what it takes is in range.
func FuzzParsePaging(f *testing.F) {
	for _, s := range []string{"", "page=2&per_page=50", "page=0", "per_page=%00", "page=1&page=x", "page=9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		page, per, e := ParsePaging(q)
		if e == nil && (page < 1 || page > maxPage || per < 1 || per > MaxPerPage) {
			t.Fatalf("%q: page %d per %d taken", raw, page, per)
		}
		if e == nil {
			lo, hi, _ := Page(1000, page, per)
			if lo < 0 || hi < lo || hi > 1000 {
				t.Fatalf("Page: %d %d", lo, hi)
			}
		}
	})
}
