package ksapi

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		body, code, msg string
	}{
		{`{"error":{"code":"GAME_NOT_FOUND","message":"Game not found","details":{}}}`, "GAME_NOT_FOUND", "Game not found"},
		{`{"detail":"Authentication required"}`, "", "Authentication required"},
		{`{"detail":{"field":"username","code":"USERNAME_TAKEN","message":"taken"}}`, "USERNAME_TAKEN", "taken"},
		{`{"detail":[{"loc":["body","uci"],"msg":"bad"}]}`, "", ""},
		{`{"detail":null}`, "", ""},
		{`<html>bad gateway</html>`, "", ""},
		{``, "", ""},
	} {
		code, msg := ParseError([]byte(tc.body))
		if code != tc.code || msg != tc.msg {
			t.Errorf("%s: %q %q; want %q %q", tc.body, code, msg, tc.code, tc.msg)
		}
	}
}

func TestFormatError(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{NewGameError("NOT_YOUR_TURN", "It is not your turn"), `{"error":{"code":"NOT_YOUR_TURN","details":{},"message":"It is not your turn"}}`},
		{Detail{Detail: "Authentication required"}, `{"detail":"Authentication required"}`},
		{Detail{Detail: CodedDetail{Code: "USERNAME_TAKEN", Field: "username", Message: "taken"}},
			`{"detail":{"code":"USERNAME_TAKEN","field":"username","message":"taken"}}`},
		{Detail{Detail: []Invalid{{Loc: []string{"body", "uci"}, Msg: "4 or 5 characters", Type: "value_error"}}},
			`{"detail":[{"loc":["body","uci"],"msg":"4 or 5 characters","type":"value_error"}]}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("%s, %v; want %s", b, err, tc.want)
		}
	}
}

// FuzzError: any bytes parse without panic, and a formatted error
// parses back to its code and message.
func FuzzError(f *testing.F) {
	for _, s := range []string{"GAME_NOT_FOUND", "", `"quoted"`, "\xff", "USERNAME_TAKEN"} {
		f.Add(s, "message "+s)
	}
	f.Fuzz(func(t *testing.T, code, msg string) {
		ParseError([]byte(code))
		ParseError([]byte(msg))
		if !utf8.ValidString(code) || !utf8.ValidString(msg) || len(code)+len(msg) > maxErrorBody/8 {
			return // encoding/json replaces invalid UTF-8; a long body is cut
		}
		b, _ := json.Marshal(NewGameError(code, msg))
		if c, m := ParseError(b); c != code || m != msg {
			t.Fatalf("envelope %s came back as %q %q", b, c, m)
		}
		b, _ = json.Marshal(Detail{Detail: CodedDetail{Code: code, Message: msg}})
		if c, m := ParseError(b); c != code || m != msg {
			t.Fatalf("detail %s came back as %q %q", b, c, m)
		}
		b, _ = json.Marshal(Detail{Detail: msg})
		if c, m := ParseError(b); c != "" || m != msg {
			t.Fatalf("string detail %s came back as %q %q", b, c, m)
		}
	})
}
