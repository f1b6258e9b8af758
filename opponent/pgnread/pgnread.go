package pgnread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pgn "github.com/corentings/chess/v2"

	"kriegbot/engine/chess"
)

// Limits bound the work one game may cost. Zero fields take the defaults.
type Limits struct {
	// MaxGameBytes is the largest game text parsed (default 256 KiB; the
	// longest of 4,000 match games, 300 moves with the referee's messages as
	// comments, is 21 KB). It bounds what one game can cost the PGN library:
	// a 255 KB game of 34,000 plies took it 2.3 s and 52 MB (loaded machine).
	MaxGameBytes int
	// MaxPlies is the longest move list accepted (default 2000).
	MaxPlies int
	// MaxVariationDepth is the deepest nesting of (variations) accepted
	// (default 32): the PGN library parses them recursively, and 100,000
	// levels in one game cost it 6 s and 200 MB.
	MaxVariationDepth int
	// ParseTimeout is how long the PGN library may take on one game before
	// the game is skipped (default 60 s: a 600-ply game takes about 15 ms,
	// but over 1 s was seen on a machine loaded five times over).
	ParseTimeout time.Duration
	// MaxStalls is how many timed-out games end the reading with an error
	// (default 3): each leaves a goroutine behind that cannot be stopped.
	MaxStalls int
	// Workers is how many games are parsed at once (default 1). Games are
	// still returned in input order, so the output does not depend on it.
	Workers int
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
	if l.ParseTimeout <= 0 {
		l.ParseTimeout = time.Minute
	}
	if l.MaxStalls <= 0 {
		l.MaxStalls = 3
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
	Result string // the Result tag
	Moves  []chess.Move
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
	stalls        atomic.Int32
	// The game being collected.
	buf       []byte
	start     int
	hasMoves  bool
	oversized bool
	inBrace   bool
	depth     int // open (variations) outside comments
	maxDepth  int
	// A tag line that began the next game, held until the current one is out.
	pending     []byte
	pendingLine int
	pendingBig  bool
	// parseGame is the PGN library call, a field so tests can check the
	// guard against panics and stalls.
	parseGame func(raw string) (*pgn.Game, error)

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
	rd := &Reader{name: name, lim: lim.withDefaults(), br: bufio.NewReaderSize(r, 64<<10)}
	rd.parseGame = rd.libraryParse
	return rd
}

// errSetUp marks a game that starts from a set-up position.
var errSetUp = errors.New("starts from a set-up position (FEN tag)")

// libraryFEN serialises the PGN library's FEN decoding, which writes a
// package-level buffer of that library (see libraryParse). It guards the
// library's global, not state of ours, so it has to be process-wide too.
var libraryFEN sync.Mutex

// libraryParse parses one game's text with github.com/corentings/chess/v2.
//
// That library (v2.3.2) decodes FEN through a package-level buffer
// (rankBuffer in its fen.go), so decoding FEN in two goroutines at once is a
// data race, whichever Readers the goroutines belong to. NewParser decodes
// the start position, and Parse decodes a FEN tag: NewParser runs under
// libraryFEN, games with a FEN tag other than the
// standard start are refused before Parse, and a game with the standard
// start as FEN tag is parsed entirely under the lock.
func (r *Reader) libraryParse(raw string) (*pgn.Game, error) {
	tokens, err := pgn.TokenizeGame(&pgn.GameScanned{Raw: raw})
	if err != nil {
		return nil, err
	}
	fen, hasFEN := fenTag(tokens)
	if hasFEN && fen != chess.StartFEN {
		return nil, errSetUp
	}
	libraryFEN.Lock()
	p := pgn.NewParser(tokens)
	if hasFEN {
		defer libraryFEN.Unlock()
		return p.Parse()
	}
	libraryFEN.Unlock()
	return p.Parse()
}

// fenTag returns the value of the FEN tag among a game's tokens.
func fenTag(tokens []pgn.Token) (string, bool) {
	for i := 0; i+1 < len(tokens); i++ {
		if tokens[i].Type == pgn.TagKey && tokens[i].Value == "FEN" && tokens[i+1].Type == pgn.TagValue {
			return tokens[i+1].Value, true
		}
	}
	return "", false
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
		return r.parse(string(text), start)
	}
}

// refuse returns the skip for a game whose text is too long or whose
// variations nest too deep to hand to the PGN library, or nil.
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
	seq   int
	raw   string
	start int
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
			case jobs <- job{seq: seq, raw: string(text), start: start}:
			case <-r.done:
				return
			}
		}
	}()
	for range n {
		go func() {
			for j := range jobs {
				g, err := r.parse(j.raw, j.start)
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
	r.start = 0
	if r.pending != nil {
		r.buf = append(r.buf, r.pending...)
		r.start, r.oversized = r.pendingLine, r.pendingBig
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
			if len(chunk) > 0 && chunk[0] == '%' && !r.inBrace {
				continue // PGN escape line
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

type parseResult struct {
	game *pgn.Game
	err  error
}

// parse runs the PGN library on one game's text, guarded: a panic or an
// error skips the game, and so does a parse that does not finish in time.
func (r *Reader) parse(raw string, start int) (*Game, error) {
	done := make(chan parseResult, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- parseResult{err: fmt.Errorf("PGN library panicked: %v", p)}
			}
		}()
		g, err := r.parseGame(raw)
		done <- parseResult{game: g, err: err}
	}()
	timer := time.NewTimer(r.lim.ParseTimeout)
	defer timer.Stop()
	var res parseResult
	select {
	case res = <-done:
	case <-timer.C:
		if n := r.stalls.Add(1); int(n) >= r.lim.MaxStalls {
			return nil, fmt.Errorf("%s:%d: the PGN library stalled on %d games; giving up", r.name, start, n)
		}
		return nil, r.skip(start, fmt.Sprintf("the PGN library did not finish within %v", r.lim.ParseTimeout))
	}
	if errors.Is(res.err, errSetUp) {
		return nil, r.skip(start, res.err.Error())
	}
	if res.err != nil {
		return nil, r.skip(start, "PGN: "+oneLine(res.err.Error()))
	}
	return r.convert(res.game, start)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// convert checks the parsed game against our own rules core and returns
// its moves.
func (r *Reader) convert(g *pgn.Game, start int) (*Game, error) {
	moves := g.Moves()
	if len(moves) == 0 {
		return nil, r.skip(start, "no moves")
	}
	if len(moves) > r.lim.MaxPlies {
		return nil, r.skip(start, fmt.Sprintf("%d plies, more than %d", len(moves), r.lim.MaxPlies))
	}
	out := &Game{Line: start, White: g.GetTagPair("White"), Black: g.GetTagPair("Black"), Result: g.GetTagPair("Result")}
	out.Moves = make([]chess.Move, 0, len(moves))
	pos := chess.StartPosition()
	for i, pm := range moves {
		m, err := chess.ParseUCI(pm.String())
		if err != nil || !pos.IsLegal(m) {
			return nil, r.skip(start, fmt.Sprintf("move %d (%s): not legal by our rules core in %s", i/2+1, pm.String(), pos.FEN()))
		}
		pos.Make(m)
		out.Moves = append(out.Moves, m)
	}
	return out, nil
}
