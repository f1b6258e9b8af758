package kshttp

import (
	"net/url"
	"strconv"
)

// Paging of GET /user/{name}/games, as the site's FastAPI route takes it:
// page from 1, per_page from 1 to 100, 20 by default.
const (
	DefaultPerPage = 20
	MaxPerPage     = 100
	// maxPage bounds the page asked for, so that page*per_page stays small.
	maxPage = 1_000_000
)

// ParsePaging reads page and per_page from a query; a bad value is the
// site's 422 naming the parameter.
func ParsePaging(q url.Values) (page, perPage int, e *Error) {
	page, perPage = 1, DefaultPerPage
	read := func(name string, lo, hi int, into *int) *Error {
		vs, ok := q[name]
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(vs[len(vs)-1])
		if err != nil || n < lo || n > hi {
			return queryInvalid(name, "Input should be an integer from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi))
		}
		*into = n
		return nil
	}
	if e := read("page", 1, maxPage, &page); e != nil {
		return 0, 0, e
	}
	if e := read("per_page", 1, MaxPerPage, &perPage); e != nil {
		return 0, 0, e
	}
	return page, perPage, nil
}

// Page cuts one page out of n items: the half-open range [lo, hi) and the
// number of pages.
func Page(n, page, perPage int) (lo, hi, pages int) {
	pages = (n + perPage - 1) / perPage
	lo = min((page-1)*perPage, n)
	hi = min(lo+perPage, n)
	return lo, hi, pages
}
