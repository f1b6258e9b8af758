package oppmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"unicode"
	"unicode/utf8"

	"kriegbot/engine/chess"
)

// The model file format, version 1 (docs/opponent-model.md). A file is
//
//	magic    8 bytes  "KBOPMDL\x1a"
//	version  uvarint  1
//	horizon  uvarint  H, 1..MaxHorizon
//	builder  string   uvarint length ≤ MaxMetaLen, then printable UTF-8
//	source   string   the same
//	per colour (white, black): games, plies                       uvarints
//	per colour, class (king, pawn, piece), move t = 0..H:
//	         coverage, then a uvarint bit mask of the squares with
//	         non-zero mass, then those masses in square order     uvarints
//	per colour, square a2..h7: the five pawn-step counts           uvarints
//	per colour, pawns 0..8, pieces 0..15: the three mover counts   uvarints
//	per colour, event: trials, hits                                uvarints
//	per colour: material positions, straight, diagonal, knight     uvarints
//	crc      4 bytes  CRC-32C (Castagnoli) of everything before, little endian
//
// Every uvarint is minimal (the shortest encoding of its value), so one set
// of counts has exactly one file. The reader checks the invariants that
// follow from how counts are made: each mass row sums to coverage ×
// MassScale, coverage never exceeds the games, kings and pawns never come
// back, pawns never stand on the first or last rank, impossible pawn steps
// are zero, the mover counts sum to the plies, hits never exceed trials,
// piece shares stay between 1 and 2 per position.
const (
	fileMagic = "KBOPMDL\x1a"
	// FormatVersion is the version this package writes and reads.
	FormatVersion = 1
	// MaxFileSize bounds what the reader accepts (a built model is a few
	// hundred KB).
	MaxFileSize = 8 << 20
	// maxCount caps games and plies so that no sum the reader checks or
	// Counts.Add makes can overflow.
	maxCount = 1 << 40
)

// FormatError is a model file that cannot be read: the byte offset where
// the problem was found and what it is.
type FormatError struct {
	Offset int
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// AppendFile appends the file encoding of c to dst.
func (c *Counts) AppendFile(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, fileMagic...)
	dst = binary.AppendUvarint(dst, FormatVersion)
	dst = binary.AppendUvarint(dst, uint64(c.Horizon))
	for _, s := range []string{c.Meta.Builder, c.Meta.Source} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	for col := range 2 {
		dst = binary.AppendUvarint(dst, c.Games[col])
		dst = binary.AppendUvarint(dst, c.Plies[col])
	}
	for col := range 2 {
		for cls := range NumClasses {
			for t := 0; t <= c.Horizon; t++ {
				dst = binary.AppendUvarint(dst, c.Coverage[col][cls][t])
				row := &c.Mass[col][cls][t]
				var mask uint64
				for sq, v := range row {
					if v != 0 {
						mask |= 1 << sq
					}
				}
				dst = binary.AppendUvarint(dst, mask)
				for sq, v := range row {
					if v != 0 {
						dst = binary.AppendUvarint(dst, row[sq])
					}
				}
			}
		}
	}
	for col := range 2 {
		for sq := 8; sq < 56; sq++ {
			for s := range NumPawnSteps {
				dst = binary.AppendUvarint(dst, c.Pawn[col][sq][s])
			}
		}
	}
	for col := range 2 {
		for p := range c.Movers[col] {
			for q := range c.Movers[col][p] {
				for cls := range NumClasses {
					dst = binary.AppendUvarint(dst, c.Movers[col][p][q][cls])
				}
			}
		}
	}
	for col := range 2 {
		for e := range NumEvents {
			dst = binary.AppendUvarint(dst, c.Events[col][e].Trials)
			dst = binary.AppendUvarint(dst, c.Events[col][e].Hits)
		}
	}
	for col := range 2 {
		m := &c.Material[col]
		for _, v := range []uint64{m.Positions, m.Straight, m.Diagonal, m.Knight} {
			dst = binary.AppendUvarint(dst, v)
		}
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// WriteFile writes the file encoding of c to w: the round trip that the
// reader's tests and fuzz target check (the store writes through
// opponent.WriteFileAtomic).
func (c *Counts) WriteFile(w io.Writer) error {
	_, err := w.Write(c.AppendFile(nil))
	return err
}

// ReadCounts reads one model file from r, reading at most MaxFileSize+1
// bytes. Errors other than read errors are *FormatError.
func ReadCounts(r io.Reader) (*Counts, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return DecodeCounts(b)
}

// DecodeCounts decodes a whole model file.
func DecodeCounts(b []byte) (*Counts, error) {
	if len(b) > MaxFileSize {
		return nil, &FormatError{MaxFileSize, fmt.Sprintf("file larger than %d bytes", MaxFileSize)}
	}
	if len(b) < len(fileMagic) || string(b[:len(fileMagic)]) != fileMagic {
		return nil, &FormatError{0, "not a kriegbot opponent model file (bad magic)"}
	}
	if len(b) < len(fileMagic)+4 {
		return nil, &FormatError{len(b), "file truncated"}
	}
	body := b[:len(b)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[len(body):]); got != want {
		return nil, &FormatError{len(body), fmt.Sprintf("checksum mismatch (stored %08x, computed %08x): file truncated or corrupt", want, got)}
	}
	d := decoder{b: body, off: len(fileMagic)}
	c, err := d.counts()
	if err != nil {
		return nil, err
	}
	if d.off != len(body) {
		return nil, &FormatError{d.off, fmt.Sprintf("%d unexpected bytes before the checksum", len(body)-d.off)}
	}
	return c, nil
}

type decoder struct {
	b   []byte
	off int
}

func (d *decoder) fail(at int, format string, args ...any) error {
	return &FormatError{at, fmt.Sprintf(format, args...)}
}

func (d *decoder) uvarint(what string) (uint64, error) {
	v, n := binary.Uvarint(d.b[d.off:])
	switch {
	case n == 0:
		return 0, d.fail(d.off, "%s: unexpected end of data", what)
	case n < 0:
		return 0, d.fail(d.off, "%s: number overflows 64 bits", what)
	case n != uvarintLen(v):
		return 0, d.fail(d.off, "%s: non-minimal number encoding", what)
	}
	d.off += n
	return v, nil
}

func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// bounded reads a uvarint and checks it does not exceed limit.
func (d *decoder) bounded(what string, limit uint64) (uint64, error) {
	at := d.off
	v, err := d.uvarint(what)
	if err == nil && v > limit {
		err = d.fail(at, "%s: %d exceeds %d", what, v, limit)
	}
	return v, err
}

func (d *decoder) str(what string) (string, error) {
	at := d.off
	n, err := d.bounded(what+" length", MaxMetaLen)
	if err != nil {
		return "", err
	}
	if uint64(len(d.b)-d.off) < n {
		return "", d.fail(at, "%s: unexpected end of data", what)
	}
	s := string(d.b[d.off : d.off+int(n)])
	if err := CheckMetaString(s); err != nil {
		return "", d.fail(d.off, "%s: %v", what, err)
	}
	d.off += int(n)
	return s, nil
}

// CheckMetaString reports why s cannot be a Meta string, or nil.
func CheckMetaString(s string) error {
	if len(s) > MaxMetaLen {
		return fmt.Errorf("longer than %d bytes", MaxMetaLen)
	}
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("unprintable character %q", r)
		}
	}
	return nil
}

func (d *decoder) counts() (*Counts, error) {
	at := d.off
	v, err := d.uvarint("version")
	if err != nil {
		return nil, err
	}
	if v != FormatVersion {
		return nil, d.fail(at, "format version %d, this build reads version %d", v, FormatVersion)
	}
	at = d.off
	h, err := d.uvarint("horizon")
	if err != nil {
		return nil, err
	}
	if h < 1 || h > MaxHorizon {
		return nil, d.fail(at, "horizon %d out of range 1..%d", h, MaxHorizon)
	}
	c := NewCounts(int(h))
	if c.Meta.Builder, err = d.str("builder"); err != nil {
		return nil, err
	}
	if c.Meta.Source, err = d.str("source"); err != nil {
		return nil, err
	}
	for col := range 2 {
		if c.Games[col], err = d.bounded("games", maxCount); err != nil {
			return nil, err
		}
		if c.Plies[col], err = d.bounded("plies", maxCount); err != nil {
			return nil, err
		}
	}
	if err := d.occupancy(c); err != nil {
		return nil, err
	}
	if err := d.pawns(c); err != nil {
		return nil, err
	}
	if err := d.movers(c); err != nil {
		return nil, err
	}
	for col := range 2 {
		for e := range NumEvents {
			t := &c.Events[col][e]
			if t.Trials, err = d.bounded(e.String()+" trials", c.Plies[col]); err != nil {
				return nil, err
			}
			if t.Hits, err = d.bounded(e.String()+" hits", t.Trials); err != nil {
				return nil, err
			}
		}
	}
	if err := d.material(c); err != nil {
		return nil, err
	}
	return c, nil
}

func (d *decoder) material(c *Counts) error {
	for col := range 2 {
		m := &c.Material[col]
		var err error
		if m.Positions, err = d.bounded("material positions", c.Plies[col]); err != nil {
			return err
		}
		at := d.off
		limit := m.Positions * MassScale // a share is at most 1 per position
		for _, f := range []*uint64{&m.Straight, &m.Diagonal, &m.Knight} {
			if *f, err = d.bounded("material share", limit); err != nil {
				return err
			}
		}
		// Every piece moves like a rook, a bishop or a knight (a queen like
		// both of the first two), so the shares add up to at least 1.
		if sum := m.Straight + m.Diagonal + m.Knight; sum < limit || sum > 2*limit {
			return d.fail(at, "material shares sum to %d, outside 1 to 2 times the %d positions × %d", sum, m.Positions, MassScale)
		}
	}
	return nil
}

func (d *decoder) occupancy(c *Counts) error {
	for col := range 2 {
		for cls := range NumClasses {
			for t := 0; t <= c.Horizon; t++ {
				what := fmt.Sprintf("%s %s move %d", []string{"white", "black"}[col], cls, t)
				at := d.off
				cov, err := d.bounded(what+" coverage", c.Games[col])
				if err != nil {
					return err
				}
				if (cls == King || cls == Pawn) && t > 0 && cov > c.Coverage[col][cls][t-1] {
					return d.fail(at, "%s coverage: %d games, more than the %d at the move before (%ss never come back)", what, cov, c.Coverage[col][cls][t-1], cls)
				}
				if cls == King && t == 0 && cov != c.Games[col] {
					return d.fail(at, "%s coverage: %d, want the %d games", what, cov, c.Games[col])
				}
				c.Coverage[col][cls][t] = cov
				mask, err := d.uvarint(what + " square mask")
				if err != nil {
					return err
				}
				if cls == Pawn && mask&0xff000000000000ff != 0 {
					return d.fail(at, "%s: pawn mass on the first or last rank", what)
				}
				if cov == 0 && mask != 0 {
					return d.fail(at, "%s: mass without coverage", what)
				}
				row := &c.Mass[col][cls][t]
				var sum, carry uint64
				for m := mask; m != 0; m &= m - 1 {
					sq := bits.TrailingZeros64(m)
					vAt := d.off
					v, err := d.uvarint(what + " mass")
					if err != nil {
						return err
					}
					if v == 0 {
						return d.fail(vAt, "%s: zero mass on a square marked non-zero", what)
					}
					row[sq] = v
					sum, carry = bits.Add64(sum, v, 0)
					if carry != 0 {
						return d.fail(vAt, "%s: mass overflows", what)
					}
				}
				if hi, lo := bits.Mul64(cov, MassScale); hi != 0 || lo != sum {
					return d.fail(at, "%s: masses sum to %d, want coverage %d × %d", what, sum, cov, MassScale)
				}
			}
		}
	}
	return nil
}

func (d *decoder) pawns(c *Counts) error {
	for col := range 2 {
		home := pawnHomeRank(chess.Color(col))
		var total uint64
		for sq := 8; sq < 56; sq++ {
			for s := range NumPawnSteps {
				at := d.off
				what := fmt.Sprintf("pawn %s on square %d", PawnStep(s), sq)
				v, err := d.bounded(what, 8*c.Plies[col])
				if err != nil {
					return err
				}
				impossible := (s == PawnDouble && sq>>3 != home) ||
					(s == PawnCaptureWest && sq&7 == 0) || (s == PawnCaptureEast && sq&7 == 7)
				if impossible && v != 0 {
					return d.fail(at, "%s: impossible step counted %d times", what, v)
				}
				c.Pawn[col][sq][s] = v
				total += v
			}
		}
		if total > 8*c.Plies[col] {
			return d.fail(d.off, "pawn steps: %d, more than 8 per ply", total)
		}
	}
	return nil
}

func (d *decoder) movers(c *Counts) error {
	for col := range 2 {
		var total uint64
		for p := range c.Movers[col] {
			for q := range c.Movers[col][p] {
				for cls := range NumClasses {
					v, err := d.bounded("mover count", c.Plies[col])
					if err != nil {
						return err
					}
					c.Movers[col][p][q][cls] = v
					total += v
				}
			}
		}
		if total != c.Plies[col] {
			return d.fail(d.off, "mover counts sum to %d, want the %d plies", total, c.Plies[col])
		}
	}
	return nil
}

// LoadCounts reads a model file; errors name the file.
func LoadCounts(path string) (*Counts, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := ReadCounts(f)
	if err != nil {
		return nil, fmt.Errorf("model file %s: %w", path, err)
	}
	return c, nil
}
