package server

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol/handle"
)

// Accounts are the registered handles of a server, read from an accounts
// file: one account per line, "handle bcrypt-hash [titles]", with blank
// lines and lines starting with '#' ignored. Titles are ICC-style letters
// such as "C" for a computer account. Make a hash with `kriegbot serve hash`.
type Accounts struct {
	byName map[string]Account
}

// Account is one registered handle.
type Account struct {
	Handle string
	Hash   []byte
	Titles string
}

// Check reports whether password matches the account's hash.
func (a Account) Check(password string) bool {
	return bcrypt.CompareHashAndPassword(a.Hash, []byte(password)) == nil
}

// Bounds of an accounts file, so a wrong file cannot exhaust memory.
const (
	maxAccounts    = 100000
	maxAccountLine = 1024
)

// LoadAccounts reads an accounts file.
func LoadAccounts(name string) (*Accounts, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAccounts(f, name)
}

// ReadAccounts parses accounts from r; name is used in errors ("file:line: ...").
func ReadAccounts(r io.Reader, name string) (*Accounts, error) {
	a := &Accounts{byName: map[string]Account{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxAccountLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("%s:%d: want \"handle bcrypt-hash [titles]\"", name, line)
		}
		if !handle.Valid(f[0]) {
			return nil, fmt.Errorf("%s:%d: bad handle %q (1-20 letters, digits, '-' or '_')", name, line, f[0])
		}
		if strings.EqualFold(f[0], "g") || strings.EqualFold(f[0], "guest") {
			return nil, fmt.Errorf("%s:%d: %q is reserved for guest logins", name, line, f[0])
		}
		if _, err := bcrypt.Cost([]byte(f[1])); err != nil {
			return nil, fmt.Errorf("%s:%d: handle %s: not a bcrypt hash (make one with `kriegbot serve hash`)", name, line, f[0])
		}
		key := strings.ToLower(f[0])
		if _, dup := a.byName[key]; dup {
			return nil, fmt.Errorf("%s:%d: handle %s listed twice", name, line, f[0])
		}
		if len(a.byName) >= maxAccounts {
			return nil, fmt.Errorf("%s:%d: more than %d accounts", name, line, maxAccounts)
		}
		acct := Account{Handle: f[0], Hash: []byte(f[1])}
		if len(f) == 3 {
			acct.Titles = f[2]
		}
		a.byName[key] = acct
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return a, nil
}

// NewAccounts builds accounts in memory (tests, the embedded server of the
// daemon) from handle -> password, hashing at the given bcrypt cost.
func NewAccounts(passwords map[string]string, titles string, cost int) (*Accounts, error) {
	a := &Accounts{byName: map[string]Account{}}
	for h, pw := range passwords {
		if !handle.Valid(h) {
			return nil, fmt.Errorf("server: bad handle %q", h)
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
		if err != nil {
			return nil, err
		}
		a.byName[strings.ToLower(h)] = Account{Handle: h, Hash: hash, Titles: titles}
	}
	return a, nil
}

// IsComputer reports whether ICC-style titles mark a computer: the title
// C, alone or among others ("C", "GM C", "C,GM"). ICC shows it as (C).
func IsComputer(titles string) bool {
	for _, t := range strings.FieldsFunc(titles, func(r rune) bool { return r == ' ' || r == ',' }) {
		if t == "C" {
			return true
		}
	}
	return false
}

// HashPassword returns a bcrypt hash for an accounts file line.
func HashPassword(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	return string(h), err
}

// Lookup finds a handle, ignoring case. A nil *Accounts has none.
func (a *Accounts) Lookup(handle string) (Account, bool) {
	if a == nil {
		return Account{}, false
	}
	acct, ok := a.byName[strings.ToLower(handle)]
	return acct, ok
}

// Has reports whether handle is registered.
func (a *Accounts) Has(handle string) bool {
	_, ok := a.Lookup(handle)
	return ok
}

// ThrowAwayAccounts registers handles, with titles, under fresh random
// passwords at bcrypt's lowest cost: for a server whose players a program
// starts itself in the same process (the embedded demo server, the local
// olympiad), so the real login path runs with passwords nobody keeps. It
// returns the accounts and each handle's password.
func ThrowAwayAccounts(titles string, handles ...string) (*Accounts, map[string]string, error) {
	passwords := make(map[string]string, len(handles))
	for _, h := range handles {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, nil, err
		}
		passwords[h] = hex.EncodeToString(b[:])
	}
	a, err := NewAccounts(passwords, titles, bcrypt.MinCost)
	if err != nil {
		return nil, nil, err
	}
	return a, passwords, nil
}
