package kshttp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The error shapes as the site writes them, byte for byte.
func TestWriteError(t *testing.T) {
	for _, tc := range []struct {
		e      *Error
		status int
		retry  string
		body   string
	}{
		{GameError(400, "NOT_YOUR_TURN", "It is not your turn"), 400, "",
			`{"error":{"code":"NOT_YOUR_TURN","details":{},"message":"It is not your turn"}}`},
		{AuthError(), 401, "", `{"detail":"Authentication required"}`},
		{Invalid("uci", "4 or 5 characters"), 422, "",
			`{"detail":[{"loc":["body","uci"],"msg":"4 or 5 characters","type":"value_error"}]}`},
		{&Error{Status: 429, Detail: "Too Many Requests", Retry: 1500 * time.Millisecond}, 429, "2", `{"detail":"Too Many Requests"}`},
	} {
		w := httptest.NewRecorder()
		WriteError(w, tc.e)
		if w.Code != tc.status || w.Header().Get("Retry-After") != tc.retry || w.Body.String() != tc.body ||
			w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%+v: %d %q %q", tc.e, w.Code, w.Header().Get("Retry-After"), w.Body.String())
		}
	}
}

// A body that is not one JSON object of the right shape is a 422 naming
// what is wrong; one over the limit a 413.
func TestDecodeBody(t *testing.T) {
	for _, tc := range []struct {
		body   string
		status int
		says   string
	}{
		{`{"uci":"e2e4"}`, 0, ""},
		{`{"uci":42}`, 422, "uci"},
		{`{"uci":"e2e4"`, 422, "JSON decode error"},
		{`{"uci":"e2e4"} {}`, 422, "trailing data"},
		{`{"uci":"` + strings.Repeat("x", 100) + `"}`, 413, "too large"},
	} {
		r := httptest.NewRequest("POST", "/game/x/move", strings.NewReader(tc.body))
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 64)
		var v struct {
			UCI string `json:"uci"`
		}
		e := DecodeBody(r, &v)
		switch {
		case tc.status == 0 && e != nil:
			t.Errorf("%s: %+v", tc.body, e)
		case tc.status != 0 && (e == nil || e.Status != tc.status || !strings.Contains(strings.ToLower(fmtDetail(e)), strings.ToLower(tc.says))):
			t.Errorf("%s: %+v, want %d saying %q", tc.body, e, tc.status, tc.says)
		}
	}
}

func fmtDetail(e *Error) string {
	w := httptest.NewRecorder()
	WriteError(w, e)
	return w.Body.String()
}
