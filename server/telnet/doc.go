// Package telnet is the telnet door's reader of what a client types:
// LineReader assembles bounded lines from the bytes of a connection,
// stripping telnet negotiation (IAC sequences) and NUL bytes, and taking
// CR, LF, CRLF and LFCR each as one line end. It is pure: the server's
// connection loop feeds it what it reads and gets whole lines back.
package telnet
