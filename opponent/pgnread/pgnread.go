package pgnread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"kriegbot/engine/chess"
)

// Limits bound the work one game may cost and say which games are read.
// Zero fields take the defaults.
type Limits struct {
	// MaxGameBytes is the largest game text parsed (default 256 KiB; the
	// longest of 4,000 match games, 300 moves with the referee's messages as
	// comments, is 21 KB). It bounds the memory and time one game costs.
	MaxGameBytes int
	// MaxPlies is the longest move list accepted (default 2000).
	MaxPlies int
	// MaxVariationDepth is the deepest nesting of (variations) accepted
	// (default 32). Variations are skipped, not parsed, so depth costs
	// nothing; the limit refuses what no sane game record holds.
	MaxVariationDepth int
	// Workers is how many games are parsed at once (default 1). Games are
	// still returned in input order, so the output does not depend on it.
	Workers int
	// SetUp accepts games that start from a FEN tag's position; without it
	// they are skipped (the opponent model learns from whole games only).
	SetUp bool
}

func (l Limits) withDefaults() Limits {
	if l.MaxGameBytes <= 0 {
		l.MaxGameBytes = 256 << 10
	}
	if l.MaxPlies <= 0 {
		l.MaxPlies = 2000
	}
	if l.MaxVariationDepth <= 0 {
		l.MaxVariationDepth = 32
	}
	if l.Workers <= 0 {
		l.Workers = 1
	}
	return l
}

// Game is one game record read from the PGN.
type Game struct {
	Line   int // line where the game's text starts
	White  string
	Black  string
	Result string            // the Result tag
	Tags   map[string]string // every tag pair, by name
	Moves  []chess.Move      // the main line, from the FEN tag's position or the standard start
}

// SkipError is a game that could not be used. Reading goes on after it.
type SkipError struct {
	Name   string // the input's name
	Line   int    // where the game starts
	Reason string
}

func (e *SkipError) Error() string {
	return fmt.Sprintf("%s:%d: game skipped: %s", e.Name, e.Line, e.Reason)
}

// Reader reads game records one by one from PGN text.
type Reader struct {
	name string
	lim  Limits
	br   *bufio.Reader
	line int  // lines read so far
	eof  bool // the input is exhausted
	// lastEndedLine is true when the previous chunk ended its line.
	lastEndedLine bool
	// The game being collected.
	buf       []byte
	firstLine int  // the line of buf's first byte
	start     int  // the game's first non-blank line
	inEscape  bool // the rest of a % escape line is being dropped
	hasMoves  bool
	oversized bool
	inBrace   bool
	depth     int // open (variations) outside comments
	maxDepth  int
	// A tag line that began the next game, held until the current one is out.
	pending     []byte
	pendingLine int
	pendingBig  bool

	// The parallel pipeline (Workers > 1), started by the first Next.
	results   chan result
	waiting   map[int]result // results that arrived before their turn
	nextSeq   int
	final     *result // the terminal result (io.EOF or a fatal error), once seen
	done      chan struct{}
	closeOnce sync.Once
}

// result is one game's outcome in the pipeline; terminal marks io.EOF or a
// fatal error, after which nothing follows.
type result struct {
	seq      int
	game     *Game
	err      error
	terminal bool
}

// NewReader reads PGN from r; name is used in error messages.
func NewReader(r io.Reader, name string, lim Limits) *Reader {
	return &Reader{name: name, lim: lim.withDefaults(), br: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next game, a *SkipError for a game that cannot be used
// (call Next again), io.EOF at the end, or another error when reading
// fails.
func (r *Reader) Next() (*Game, error) {
	if r.lim.Workers > 1 {
		return r.nextParallel()
	}
	for {
		text, start, big, ok, err := r.nextText()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, io.EOF
		}
		if err := r.refuse(big, start); err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		return r.parse(text, r.firstLine, start)
	}
}

// refuse returns the skip for a game whose text is too long or whose
// variations nest too deep, or nil.
func (r *Reader) refuse(big bool, start int) error {
	switch {
	case big:
		return r.skip(start, fmt.Sprintf("game text longer than %d bytes", r.lim.MaxGameBytes))
	case r.maxDepth > r.lim.MaxVariationDepth:
		return r.skip(start, fmt.Sprintf("variations nested %d deep, more than %d", r.maxDepth, r.lim.MaxVariationDepth))
	}
	return nil
}

// Close stops the parsing goroutines of a Reader with Workers > 1 that is
// abandoned before the end of its input. Reading to io.EOF or to a fatal
// error stops them too.
func (r *Reader) Close() {
	if r.done != nil {
		r.closeOnce.Do(func() { close(r.done) })
	}
}

type job struct {
	seq       int
	text      []byte
	firstLine int
	start     int
}

// nextParallel returns the results of the pipeline in input order.
func (r *Reader) nextParallel() (*Game, error) {
	if r.final != nil {
		return nil, r.final.err
	}
	if r.results == nil {
		r.startPipeline()
	}
	for {
		res, ok := r.waiting[r.nextSeq]
		if !ok {
			res = <-r.results
			r.waiting[res.seq] = res
			continue
		}
		delete(r.waiting, r.nextSeq)
		r.nextSeq++
		if res.terminal {
			r.final = &res
			r.Close()
		}
		return res.game, res.err
	}
}

// startPipeline starts one splitter, which reads the input in order, and
// Workers parsers.
func (r *Reader) startPipeline() {
	n := r.lim.Workers
	jobs := make(chan job, 2*n)
	r.results = make(chan result, 4*n)
	r.waiting = map[int]result{}
	r.done = make(chan struct{})
	send := func(res result) bool {
		select {
		case r.results <- res:
			return true
		case <-r.done:
			return false
		}
	}
	go func() {
		defer close(jobs)
		for seq := 0; ; seq++ {
			text, start, big, ok, err := r.nextText()
			refused := r.refuse(big, start)
			switch {
			case err != nil:
				send(result{seq: seq, err: err, terminal: true})
				return
			case !ok:
				send(result{seq: seq, err: io.EOF, terminal: true})
				return
			case refused != nil:
				if !send(result{seq: seq, err: refused}) {
					return
				}
				continue
			case len(bytes.TrimSpace(text)) == 0:
				seq--
				continue
			}
			select {
			case jobs <- job{seq: seq, text: bytes.Clone(text), firstLine: r.firstLine, start: start}:
			case <-r.done:
				return
			}
		}
	}()
	for range n {
		go func() {
			for j := range jobs {
				g, err := r.parse(j.text, j.firstLine, j.start)
				var se *SkipError
				if !send(result{seq: j.seq, game: g, err: err, terminal: err != nil && !errors.As(err, &se)}) {
					return
				}
			}
		}()
	}
}

func (r *Reader) skip(line int, reason string) error {
	return &SkipError{Name: r.name, Line: line, Reason: reason}
}

// nextText collects the text of the next game: its tag lines and the
// movetext after them, up to the next tag line that follows movetext.
// Lines are read in bounded chunks, so no line length can exhaust memory.
func (r *Reader) nextText() (text []byte, start int, big, ok bool, err error) {
	r.buf, r.hasMoves, r.oversized, r.inBrace = r.buf[:0], false, false, false
	r.depth, r.maxDepth = 0, 0
	r.start, r.firstLine = 0, 0
	if r.pending != nil {
		r.buf = append(r.buf, r.pending...)
		r.start, r.oversized = r.pendingLine, r.pendingBig
		r.firstLine = r.pendingLine
		r.pending = nil
	}
	for !r.eof {
		chunk, isLineStart, lineNo, rerr := r.readChunk()
		if rerr != nil {
			return nil, 0, false, false, rerr
		}
		if chunk == nil {
			break
		}
		if r.inEscape && !isLineStart {
			// The rest of an escape line: keep only its newline, so that
			// line numbers in the game's text stay right.
			if chunk[len(chunk)-1] == '\n' {
				r.inEscape = false
				r.buf = append(r.buf, '\n')
			}
			continue
		}
		r.inEscape = false
		if isLineStart {
			trimmed := bytes.TrimLeft(chunk, " \t\r")
			isTag := !r.inBrace && len(trimmed) > 0 && trimmed[0] == '['
			if isTag && r.hasMoves {
				// A new game begins; keep this line for it.
				r.pending = append(r.pending[:0], chunk...)
				r.pendingLine, r.pendingBig = lineNo, len(chunk) > r.lim.MaxGameBytes
				if r.pendingBig {
					r.pending = r.pending[:0]
				}
				return r.buf, r.start, r.oversized, true, nil
			}
			if r.firstLine == 0 {
				r.firstLine = lineNo
			}
			if len(chunk) > 0 && chunk[0] == '%' && !r.inBrace {
				// A PGN escape line: drop it but keep its newline.
				if chunk[len(chunk)-1] == '\n' {
					r.buf = append(r.buf, '\n')
				} else {
					r.inEscape = true
				}
				continue
			}
			if len(bytes.TrimSpace(chunk)) > 0 {
				if r.start == 0 {
					r.start = lineNo
				}
				if !isTag {
					r.hasMoves = true
				}
			}
			if !isTag {
				r.scanBraces(chunk)
			}
		} else if r.hasMoves {
			r.scanBraces(chunk)
		}
		if len(r.buf)+len(chunk) > r.lim.MaxGameBytes {
			r.oversized = true
		}
		if !r.oversized {
			r.buf = append(r.buf, chunk...)
		}
	}
	if r.start == 0 && len(bytes.TrimSpace(r.buf)) == 0 {
		return nil, 0, false, false, nil
	}
	return r.buf, r.start, r.oversized, true, nil
}

// scanBraces tracks whether a {comment} stays open past the end of a line
// (tag-looking lines inside a comment do not start a game).
func (r *Reader) scanBraces(b []byte) {
	for _, c := range b {
		switch {
		case r.inBrace:
			if c == '}' {
				r.inBrace = false
			}
		case c == '{':
			r.inBrace = true
		case c == '(':
			r.depth++
			r.maxDepth = max(r.maxDepth, r.depth)
		case c == ')':
			r.depth--
		case c == ';':
			return // a rest-of-line comment
		}
	}
}

// readChunk returns the next piece of a line (the whole line when it fits
// the buffer), whether it starts a line, and that line's number; nil at the
// end of the input.
func (r *Reader) readChunk() (chunk []byte, lineStart bool, line int, err error) {
	atStart := r.line == 0 || r.lastEndedLine
	b, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		r.lastEndedLine = true
	case errors.Is(err, bufio.ErrBufferFull):
		r.lastEndedLine = false
		err = nil
	case errors.Is(err, io.EOF):
		r.eof = true
		r.lastEndedLine = true
		err = nil
		if len(b) == 0 {
			return nil, false, 0, nil
		}
	default:
		return nil, false, 0, fmt.Errorf("%s:%d: %w", r.name, r.line+1, err)
	}
	if atStart {
		r.line++
	}
	return b, atStart, r.line, nil
}

// parse reads one game's text, whose first line is firstLine and whose
// first non-blank line is start.
func (r *Reader) parse(text []byte, firstLine, start int) (*Game, error) {
	g, err := parseGame(text, firstLine, r.lim.SetUp)
	switch {
	case errors.Is(err, errSetUp):
		return nil, r.skip(start, err.Error())
	case err != nil:
		return nil, r.skip(start, "PGN: "+err.Error())
	case len(g.Moves) == 0:
		return nil, r.skip(start, "no moves")
	case len(g.Moves) > r.lim.MaxPlies:
		return nil, r.skip(start, fmt.Sprintf("%d plies, more than %d", len(g.Moves), r.lim.MaxPlies))
	}
	g.Line = start
	return g, nil
}
