// Package iccclient is the client side of an ICC-protocol connection: it
// does the I/O that the pure codec in package protocol leaves out.
//
// Dial opens a TCP connection (through github.com/ziutek/telnet, which
// answers the server's telnet option negotiation, and reads on past a stray
// IAC byte that the library refuses; tests plug in any Dialer,
// such as one end of a net.Pipe), logs in (the one-line and the
// password-prompt flows, DG 69 refusals as *LoginError, DG 120 redirections
// followed), enables the datagrams and sends the settings. The Session it
// returns runs two goroutines: one reads the connection and hands decoded
// protocol.Messages to Next (or the Messages channel), one sends keep-alives
// and closes a connection that has gone silent (ErrDead). Send writes one
// command line, paced by a token bucket so that the bot never floods the
// server. When Config.Transcript is set, every byte of both directions is
// written to it, time-stamped, in the transcript format of package protocol,
// with the password masked.
//
// Tokenizing, datagram decoding, command encoding and the transcript format
// live in protocol; this package only moves bytes and keeps time.
package iccclient
