package servecmd

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestHashCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := hashCommand(nil, strings.NewReader("s3cret\n"), &out, &errb); code != 0 {
		t.Fatalf("code %d: %s", code, errb.String())
	}
	h := strings.TrimSpace(out.String())
	if bcrypt.CompareHashAndPassword([]byte(h), []byte("s3cret")) != nil || strings.Contains(h, "s3cret") {
		t.Fatalf("hash %q", h)
	}
	if code := hashCommand([]string{"s3cret"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("password as argument: code %d", code)
	}
	if code := Command([]string{"-rules", "fide"}, &out, &errb); code != 2 {
		t.Fatalf("bad rules: code %d", code)
	}
}

// TestServeHTTPFlags: -http refuses a non-loopback address unless
// -http-public is given, and -http-time is checked.
func TestServeHTTPFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-addr", "127.0.0.1:0", "-http", "0.0.0.0:0"}, "not a loopback address"},
		{[]string{"-addr", "127.0.0.1:0", "-http", ":8000"}, "not a loopback address"},
		{[]string{"-addr", "127.0.0.1:0", "-http", "127.0.0.1:0", "-http-time", "25"}, "-http-time"},
	} {
		var out, errb strings.Builder
		if code := Command(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errb.String())
		}
	}
	for _, a := range []string{"127.0.0.1:80", "[::1]:80", "localhost:80"} {
		if !loopbackAddr(a) {
			t.Errorf("%s is loopback", a)
		}
	}
}

// TestServeTDFlags: bad TD flags are usage errors that say what is wrong.
func TestServeTDFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-tourney", "system=cup"}, `system "cup"`},
		{[]string{"-tourney", "name=KS1"}, "start=manual needs -td-managers"},
		{[]string{"-td-style", "mamer"}, `-td-style "mamer"`},
		{[]string{"-td-absent", "0s"}, "must be positive"},
		{[]string{"-td", "T D", "-addr", "127.0.0.1:0"}, "TD handle"},
	} {
		var out, errb strings.Builder
		if code := Command(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// TestServeBindsBeforeBanner (issue 44 item 9): serve announced "server on
// ..." and then failed to bind the HTTP door, so its output claimed a
// server that never ran. Both doors are bound first; a failure prints no
// banner.
func TestServeBindsBeforeBanner(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, args := range [][]string{
		{"-addr", "127.0.0.1:0", "-http", taken.Addr().String(), "-q"},
		{"-addr", taken.Addr().String(), "-q"},
	} {
		var out, errb bytes.Buffer
		code := Command(args, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "address already in use") {
			t.Errorf("%q: exit %d, stderr %q; want 1 and the bind error", args, code, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%q: printed %q before failing to bind", args, out.String())
		}
	}
}
