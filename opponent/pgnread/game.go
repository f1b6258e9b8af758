package pgnread

import (
	"errors"
	"fmt"
	"io"

	"kriegbot/engine/chess"
)

// errSetUp marks a game that starts from a set-up position.
var errSetUp = errors.New("starts from a set-up position (FEN tag)")

// parseGame reads one game's text, whose first line is firstLine: its tag
// pairs, then the main line of its movetext up to the result, each move
// found by our rules core's SAN reader. The game starts from its FEN tag's
// position, or the standard start; with setUp false a FEN tag other than
// the standard start is refused (errSetUp) before any move is read.
func parseGame(text []byte, firstLine int, setUp bool) (*Game, error) {
	t := newTokenizer(text, firstLine)
	g := &Game{Tags: map[string]string{}}
	var pos chess.Position
	started, ended := false, false
	for {
		tok, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if ended {
			return nil, fmt.Errorf("line %d: %q after the result", tok.line, tok.value)
		}
		switch tok.kind {
		case tagPair:
			if started {
				return nil, fmt.Errorf("line %d: tag %s after the movetext began", tok.line, tok.name)
			}
			g.Tags[tok.name] = tok.value
			continue
		case gameResult:
			ended = true
		}
		if !started {
			if pos, err = startPosition(g.Tags, setUp); err != nil {
				return nil, err
			}
			started = true
		}
		if tok.kind != sanMove {
			continue
		}
		m, err := pos.ParseSAN(tok.value)
		if err != nil {
			return nil, fmt.Errorf("line %d: move %d: %v", tok.line, pos.FullmoveNumber(), err)
		}
		pos.Make(m)
		g.Moves = append(g.Moves, m)
	}
	if !started {
		if _, err := startPosition(g.Tags, setUp); err != nil {
			return nil, err
		}
	}
	g.White, g.Black, g.Result = g.Tags["White"], g.Tags["Black"], g.Tags["Result"]
	return g, nil
}

// startPosition is the position a game's moves start from.
func startPosition(tags map[string]string, setUp bool) (chess.Position, error) {
	fen, ok := tags["FEN"]
	if !ok || fen == chess.StartFEN {
		return chess.StartPosition(), nil
	}
	if !setUp {
		return chess.Position{}, errSetUp
	}
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		return chess.Position{}, fmt.Errorf("FEN tag: %v", err)
	}
	return pos, nil
}

// ParseGame reads the text of one game, from its FEN tag's position when
// it has one. It applies none of a Reader's limits: it is for text we
// wrote ourselves, such as a game record read back in a test.
func ParseGame(text []byte) (*Game, error) {
	g, err := parseGame(text, 1, true)
	if err != nil {
		return nil, err
	}
	g.Line = 1
	return g, nil
}
