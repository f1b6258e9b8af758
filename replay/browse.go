package replay

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Browse steps through the frames on a terminal: Enter or n for the next
// attempt, p for the previous one, a number to jump to that attempt, q to
// quit (the terminal stays in line mode, so every key is followed by Enter).
// Heat maps are coloured. It ends with the summary line.
func Browse(in io.Reader, out io.Writer, res *Result) error {
	var head strings.Builder
	writeHeader(&head, res)
	br := bufio.NewReader(io.LimitReader(in, 1<<20))
	i := 0
	for len(res.Frames) > 0 {
		var sb strings.Builder
		sb.WriteString("\x1b[H\x1b[2J") // home, clear
		sb.WriteString(head.String())
		writeFrame(&sb, res, i, true)
		fmt.Fprintf(&sb, "\n[%d/%d] Enter/n next, p previous, NUMBER go to attempt, q quit: ", i+1, len(res.Frames))
		if _, err := io.WriteString(out, sb.String()); err != nil {
			return err
		}
		line, err := br.ReadString('\n')
		if err != nil && line == "" {
			break // end of input: leave the view as it is
		}
		cmd := strings.TrimSpace(line)
		switch {
		case cmd == "q":
			i = -1
		case cmd == "p":
			i = max(i-1, 0)
		case cmd == "" || cmd == "n":
			if i == len(res.Frames)-1 {
				i = -1
			} else {
				i++
			}
		default:
			if n, err := strconv.Atoi(cmd); err == nil && n >= 1 && n <= len(res.Frames) {
				i = n - 1
			}
		}
		if i < 0 {
			break
		}
	}
	var sb strings.Builder
	sb.WriteByte('\n')
	writeFinal(&sb, res)
	sb.WriteString(Summary(res))
	sb.WriteByte('\n')
	_, err := io.WriteString(out, sb.String())
	return err
}
