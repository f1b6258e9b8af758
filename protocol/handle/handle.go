// Package handle holds the syntax of a chess-server handle (account name),
// the one rule shared by the configuration checks (config), the command
// encoders (protocol) and the loopback server (protocol/iccserver).
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
