package server

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestReadAccounts(t *testing.T) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	good := "# accounts\n\nkriegbot " + string(hash) + " C\nowner " + string(hash) + "\n"
	a, err := ReadAccounts(strings.NewReader(good), "acc")
	if err != nil {
		t.Fatal(err)
	}
	k, ok := a.Lookup("KRIEGBOT")
	if !ok || k.Titles != "C" || !k.Check("pw") || k.Check("PW") {
		t.Fatalf("lookup %+v %v", k, ok)
	}
	if !a.Has("owner") || a.Has("nobody") {
		t.Fatal("Has")
	}
	for _, c := range []struct{ in, want string }{
		{"solo\n", "acc:1: want"},
		{"\nbad!name " + string(hash) + "\n", "acc:2: bad handle"},
		{"g " + string(hash) + "\n", "reserved for guest"},
		{"bot plaintext\n", "acc:1: handle bot: not a bcrypt hash"},
		{"bot " + string(hash) + "\nBOT " + string(hash) + "\n", "acc:2: handle BOT listed twice"},
		{"bot " + string(hash) + " C extra\n", "acc:1: want"},
		{strings.Repeat("x", 2000) + "\n", "acc:1:"},
	} {
		if _, err := ReadAccounts(strings.NewReader(c.in), "acc"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%q: err %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzReadAccounts(f *testing.F) {
	hash, _ := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	f.Add([]byte("bot " + string(hash) + " C\n# c\n"))
	f.Add([]byte("a b c d\n\x00\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ReadAccounts(bytes.NewReader(b), "fuzz")
		if err == nil && a == nil {
			t.Fatal("nil accounts without error")
		}
	})
}

// TestThrowAwayAccounts: each handle gets its own fresh password, which
// its account accepts, with the titles asked; a bad handle is refused.
func TestThrowAwayAccounts(t *testing.T) {
	acc, pw, err := ThrowAwayAccounts("C", "alpha", "beta")
	if err != nil {
		t.Fatal(err)
	}
	if len(pw) != 2 || pw["alpha"] == pw["beta"] || len(pw["alpha"]) != 24 {
		t.Fatalf("passwords %d, distinct %v", len(pw), pw["alpha"] != pw["beta"])
	}
	for h, p := range pw {
		a, ok := acc.Lookup(h)
		if !ok || !a.Check(p) || a.Check(p+"x") || a.Titles != "C" {
			t.Errorf("%s: account %v, titles %q", h, ok, a.Titles)
		}
	}
	if _, _, err := ThrowAwayAccounts("C", "two words"); err == nil {
		t.Error("a bad handle was accepted")
	}
}

func TestIsComputer(t *testing.T) {
	for titles, want := range map[string]bool{"C": true, "GM C": true, "C,GM": true, "": false, "GM": false, "CM": false, "c": false} {
		if got := IsComputer(titles); got != want {
			t.Errorf("IsComputer(%q) = %v, want %v", titles, got, want)
		}
	}
}
