package match

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// OpenResume opens the JSON Lines file of a match cut short (a killed run,
// the end of a session) to go on with it: it returns the games the file
// holds and the file, opened for appending. What follows the last complete
// game line (the attempts of a game in progress, a line cut by the kill) is
// cut off first. The file's match line must be h: the same players, budgets,
// seed, games, shard and rules, so that every game is the one an uncut run
// would have played.
func OpenResume(path string, h MatchLine) ([]GameLine, *os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	played, end, err := readResume(path, f, h)
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return played, f, nil
}

// readResume reads a match file up to its last complete game line and
// returns its games and the byte offset just past that line (or past the
// match line when no game is complete).
func readResume(name string, r io.ReadSeeker, h MatchLine) ([]GameLine, int64, error) {
	end, err := resumeEnd(r)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v", name, err)
	}
	if end == 0 {
		return nil, 0, fmt.Errorf("%s: no match line", name)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	sh, err := ReadShard(name, io.LimitReader(r, end))
	if err != nil {
		return nil, 0, err
	}
	if d := matchDiff(sh.Header, h); d != "" {
		return nil, 0, fmt.Errorf("%s is from another match: %s (the file's against this run's)", name, d)
	}
	return sh.Games, end, nil
}

// resumeEnd returns the offset just past the last complete game line, or
// past the first line (the match line) when there is none. A line is
// complete when its newline was written.
func resumeEnd(r io.Reader) (int64, error) {
	br := bufio.NewReader(r)
	gameLine := []byte(`{"type":"game"`)
	var off, end int64
	for {
		chunk, err := br.ReadSlice('\n')
		// A line's first bytes tell its type (the field written first).
		isGame := bytes.HasPrefix(chunk, gameLine)
		n := int64(len(chunk))
		for errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = br.ReadSlice('\n')
			n += int64(len(chunk))
		}
		if errors.Is(err, io.EOF) {
			return end, nil // the end, or a line the kill cut (no newline)
		}
		if err != nil {
			return 0, err
		}
		off += n
		if end == 0 || isGame {
			end = off
		}
	}
}

// matchDiff lists the fields in which match line a differs from b, as the
// file spells them ("seed \"24\" against \"23\""), or "" for the same match;
// the players' own budgets compare by value.
func matchDiff(a, b MatchLine) string {
	fa, fb := lineFields(a), lineFields(b)
	keys := slices.Collect(maps.Keys(fa))
	for k := range fb {
		if _, ok := fa[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var diffs []string
	for _, k := range keys {
		if x, y := fa[k], fb[k]; x != y {
			diffs = append(diffs, fmt.Sprintf("%s %s against %s", k, cmp.Or(x, "none"), cmp.Or(y, "none")))
		}
	}
	return strings.Join(diffs, "; ")
}

// lineFields is match line h's JSON fields, each as its text.
func lineFields(h MatchLine) map[string]string {
	raw, _ := json.Marshal(h) // strings, numbers, bools and a struct of them
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields)
	out := make(map[string]string, len(fields))
	for k, v := range fields {
		out[k] = string(v)
	}
	return out
}
