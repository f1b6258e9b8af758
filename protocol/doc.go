// Package protocol is the codec of the Internet Chess Club (ICC) telnet wire
// protocol: level-0 text, level-1 units (^Y[ ... ^Y]) and level-2
// datagrams (^Y( ... ^Y)); ^Y is the byte 0x19. It holds
//
//   - the tokenizer (Reader: bytes to Events) and MessageReader, which adds
//     datagram decoding and the level-1 unit around each Message;
//   - typed datagram decoding (Decoder, the ...DG types, the DG numbers);
//   - command encoding (MoveLine, SeekLine, TellLine, ...; handles are
//     checked with package protocol/handle);
//   - the server side's encoding (AppendDatagram, AppendUnitBegin), for
//     server and tests;
//   - the referee-announcement parser (ParseAnnouncements);
//   - the transcript format (AppendTranscriptEntry, TranscriptReader).
//
// The package is pure: no goroutines, no network, no clock, no files, no
// package state that changes. The only reader of outside bytes it does not get fed is
// TranscriptReader, which reads an io.Reader its caller opened, as
// encoding/csv does. The client connection (dial, login, keep-alive, paced
// writes, writing transcripts) is package protocol/iccclient; the loopback
// server is server.
//
// A Reader is fed raw bytes with Feed and drained with Next, which yields
// one Event at a time:
//
//	var r protocol.Reader
//	r.Feed(buf[:n])
//	for {
//		ev, ok := r.Next()
//		if !ok {
//			break // needs more input
//		}
//		handle(ev)
//	}
//
// The event stream does not depend on how the input is chunked: feeding a
// stream in 1-byte, 7-byte or 4096-byte pieces yields the same events.
// Call Flush at end of stream to obtain a final unterminated line.
//
// Framing rules (see docs/icc-protocol.md, section a):
//
//   - Text is split into lines on \r, \n, \r\n and \n\r; a \r\n or \n\r
//     pair is one line end. BEL (0x07) is dropped everywhere; other bytes,
//     including ISO-8859-1 bytes >= 0x80, are kept as they are. Empty text
//     pieces are never reported.
//   - A marker (^Y( , ^Y[ or ^Y]) in the middle of a line ends the current
//     text piece: text before a datagram and text after it are reported as
//     two separate Text events (the line is split at the datagram).
//   - A leading "aics% " prompt (possibly repeated) is stripped from every
//     text piece, and a piece that is exactly "aics%" is dropped.
//   - Datagram fields are bare tokens, {...} or ^Y{...^Y}; Fields hold the
//     field contents with the quotes removed (so {} gives an empty field).
//     Any amount of blank space (space, tab, \r, \n) separates fields.
//   - ^Y followed by a byte that is not a marker is dropped and the byte is
//     processed as ordinary data. ^Y{ and ^Y} outside a datagram are
//     dropped; a stray ^Y) outside a datagram gives an Error event.
//   - ^Z (0x1A) or ^O (0x0F) anywhere gives an Overflow event: the partial
//     datagram or unit header is discarded and unit nesting resets to 0.
//   - Units nest up to MaxDepth; a deeper ^Y[ gives an Error event instead
//     of UnitBegin and its matching ^Y] gives nothing. A ^Y] with no unit
//     open is still reported as UnitEnd (the server sends one at logout).
//
// Memory is bounded by MaxLine, MaxDatagram and MaxFields: exceeding one
// gives an Error event, after which the reader discards input up to the
// next line end (text, unit header) or ^Y) (datagram) and resynchronises.
// A new marker also ends the discarding.
package protocol
