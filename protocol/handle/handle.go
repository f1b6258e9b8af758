// Package handle holds the syntax of a chess-server handle (account name),
// the one rule shared by the configuration checks (config), the command
// encoders (protocol) and the loopback server (server).
//
// It is pure and imports nothing, so that checking a configured handle does
// not pull the wire codec or the network client into config.
package handle

// MaxLen bounds a handle: ICC handles have at most 15 characters, and we
// allow a little more for other servers.
const MaxLen = 20

// Syntax describes a valid handle, for error messages.
const Syntax = "1-20 letters, digits, '-' or '_'"

// Valid reports whether s can be sent as a handle: 1 to MaxLen ASCII
// letters, digits, '-' or '_'. Nothing else can smuggle a second word or
// command onto a command line.
func Valid(s string) bool {
	if len(s) == 0 || len(s) > MaxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// IsGuest reports a guest's handle: the login names "g" and "guest", and
// the names servers assign to guests ("guest1234" on ICC, "Guest0001" on
// kriegbot serve). Nothing is learnt about a guest: the next guest of that
// name is someone else.
func IsGuest(s string) bool {
	if len(s) < 5 || !(s[0] == 'g' || s[0] == 'G') {
		return s == "g" || s == "G"
	}
	for i, c := range []byte("guest") {
		if s[i]|0x20 != c {
			return false
		}
	}
	for i := 5; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
