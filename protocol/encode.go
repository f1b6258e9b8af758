package protocol

import "strconv"

// Encoding of the server side of the wire, used by server and by
// tests that play a server: datagrams and level-1 unit brackets exactly as the
// Reader expects them from ICC.

// AppendDatagram appends ^Y(n f1 f2 ...^Y) to dst. Each field is written in
// the lightest quoting that holds it: bare when it is a non-empty token
// without blanks, braces or control bytes; {…} when it holds no braces and no
// line end; ^Y{…^Y} otherwise. The bytes no quoting can carry (^Y, ^Z, ^O,
// BEL) are dropped.
func AppendDatagram(dst []byte, n int, fields ...string) []byte {
	dst = append(dst, esc, '(')
	dst = strconv.AppendInt(dst, int64(n), 10)
	for _, f := range fields {
		dst = append(dst, ' ')
		dst = appendField(dst, f)
	}
	return append(dst, esc, ')')
}

// unquotable are the bytes no field can carry: the reader treats them as
// markers (^Y), overflow marks (^Z, ^O) or noise (BEL) wherever they are.
func unquotable(c byte) bool { return c == esc || c == ctrlZ || c == ctrlO || c == bel }

func appendField(dst []byte, f string) []byte {
	bare, braces := f != "", true
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c <= ' ' || c == '{' || c == '}' || c == 0x7f {
			bare = false
		}
		if c == '{' || c == '}' || c == '\r' || c == '\n' {
			braces = false
		}
	}
	if bare {
		return append(dst, f...)
	}
	open, closing := []byte{'{'}, []byte{'}'}
	if !braces {
		open, closing = []byte{esc, '{'}, []byte{esc, '}'}
	}
	dst = append(dst, open...)
	for i := 0; i < len(f); i++ {
		if !unquotable(f[i]) {
			dst = append(dst, f[i])
		}
	}
	return append(dst, closing...)
}

// AppendUnitBegin appends a level-1 unit header ^Y[cn issuer[ tag]\r\n.
func AppendUnitBegin(dst []byte, cn int, issuer, tag string) []byte {
	dst = append(dst, esc, '[')
	dst = strconv.AppendInt(dst, int64(cn), 10)
	dst = append(dst, ' ')
	dst = append(dst, issuer...)
	if tag != "" {
		dst = append(dst, ' ')
		dst = append(dst, tag...)
	}
	return append(dst, '\r', '\n')
}

// AppendUnitEnd appends ^Y].
func AppendUnitEnd(dst []byte) []byte { return append(dst, esc, ']') }
