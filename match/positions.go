package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"kriegbot/engine/chess"
)

// Limits of a positions file: a line longer than maxPositionLine or more
// than maxPositions positions is an error, so a wrong file cannot take
// unbounded memory.
const (
	maxPositionLine = 4096
	maxPositions    = 100000
)

// ReadPositionsFile reads a positions file (ParsePositions) from path.
func ReadPositionsFile(path string) ([]chess.Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParsePositions(path, f)
}

// ParsePositions reads start positions, one a line: a FEN (six fields) or an
// EPD line (four fields, then operations such as `id "kqk 1";`, which are
// ignored). Text from a '#' outside double quotes to the end of the line is a
// comment; blank lines are skipped. Each position must be legal with the side
// to move having a move (a game still to play). Errors name the place as
// name:line.
func ParsePositions(name string, r io.Reader) ([]chess.Position, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), maxPositionLine)
	var out []chess.Position
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(stripComment(sc.Text()))
		if text == "" {
			continue
		}
		pos, err := parsePositionLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(out) == maxPositions {
			return nil, fmt.Errorf("%s:%d: more than %d positions", name, line, maxPositions)
		}
		out = append(out, pos)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxPositionLine)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no positions", name)
	}
	return out, nil
}

// stripComment cuts s at the first '#' outside double quotes.
func stripComment(s string) string {
	quoted := false
	for i := range len(s) {
		switch s[i] {
		case '"':
			quoted = !quoted
		case '#':
			if !quoted {
				return s[:i]
			}
		}
	}
	return s
}

// parsePositionLine parses one FEN or EPD line (comment already cut).
func parsePositionLine(text string) (chess.Position, error) {
	f := strings.Fields(text)
	if len(f) < 4 {
		return chess.Position{}, fmt.Errorf("want a FEN (6 fields) or an EPD line (4 fields and operations), got %d fields", len(f))
	}
	n := 4
	if len(f) >= 6 && isCounter(f[4]) && isCounter(f[5]) {
		n = 6
		if len(f) > 6 {
			return chess.Position{}, fmt.Errorf("unexpected %q after the FEN", f[6])
		}
	} else if len(f) > 4 && isCounter(f[4]) {
		return chess.Position{}, fmt.Errorf("a FEN has both move counters: %q", text)
	}
	pos, err := chess.ParseFEN(strings.Join(f[:n], " "))
	if err != nil {
		return chess.Position{}, err
	}
	if !pos.HasLegalMove() {
		return chess.Position{}, fmt.Errorf("%s: the side to move has no legal move", pos.FEN())
	}
	if pos.IsInsufficientMaterial() {
		return chess.Position{}, fmt.Errorf("%s: neither side can mate", pos.FEN())
	}
	return pos, nil
}

// isCounter reports whether s is a FEN move counter.
func isCounter(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n < 1<<20
}
