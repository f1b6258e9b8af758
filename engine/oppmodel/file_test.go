package oppmodel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// reseal replaces the trailing checksum so that a deliberately damaged body
// reaches the parser behind the checksum.
func reseal(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	out := append([]byte(nil), b...)
	body := out[:len(out)-4]
	binary.LittleEndian.PutUint32(out[len(body):], crc32.Checksum(body, castagnoli))
	return out
}

func smallCounts(t testing.TB) *Counts {
	return countsFrom(t, randomGames(11, 6, 120), 12)
}

func TestFileRoundTrip(t *testing.T) {
	c := smallCounts(t)
	b := c.AppendFile(nil)
	got, err := ReadCounts(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Fatal("decoded counts differ from the written ones")
	}
	if again := got.AppendFile(nil); !bytes.Equal(again, b) {
		t.Fatal("re-encoding the decoded counts changed the bytes")
	}
	// A reader returning one byte at a time reads the same.
	if got, err := ReadCounts(iotest.OneByteReader(bytes.NewReader(b))); err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("one-byte reader: %v", err)
	}
	// Empty counts round-trip too.
	e := NewCounts(1)
	if got, err := DecodeCounts(e.AppendFile(nil)); err != nil || !reflect.DeepEqual(got, e) {
		t.Fatalf("empty counts: %v", err)
	}
}

func TestFileDeterministic(t *testing.T) {
	a := smallCounts(t).AppendFile(nil)
	b := smallCounts(t).AppendFile(nil)
	if !bytes.Equal(a, b) {
		t.Fatal("the same games gave different files")
	}
}

// patch returns a copy of b with the uvarint at the given offset replaced.
func patchUvarint(t *testing.T, b []byte, off int, v uint64) []byte {
	t.Helper()
	_, n := binary.Uvarint(b[off:])
	if n <= 0 {
		t.Fatalf("no uvarint at %d", off)
	}
	out := append([]byte(nil), b[:off]...)
	out = binary.AppendUvarint(out, v)
	return append(out, b[off+n:]...)
}

func TestFileCorrupt(t *testing.T) {
	c := smallCounts(t)
	good := c.AppendFile(nil)
	m := len(fileMagic)
	// Offsets of the header fields of a file written by AppendFile.
	versionAt, horizonAt := m, m+1
	builderAt := horizonAt + 1
	gamesAt := builderAt + 1 + len(c.Meta.Builder) + 1 + len(c.Meta.Source)

	withSource := func(s string) []byte {
		d := *c
		d.Meta.Source = s
		return d.AppendFile(nil)
	}
	tests := []struct {
		name string
		data []byte
		want string // substring of the error
	}{
		{"empty", nil, "bad magic"},
		{"magic only", []byte(fileMagic), "truncated"},
		{"wrong magic", append([]byte("KBOPMDL\n"), good[m:]...), "bad magic"},
		{"text file", []byte("hello, world\n"), "bad magic"},
		{"truncated by one", good[:len(good)-1], "checksum"},
		{"truncated in half", good[:len(good)/2], "checksum"},
		{"flipped byte", func() []byte { b := append([]byte(nil), good...); b[len(b)/2] ^= 0x40; return b }(), "checksum"},
		{"version 2", reseal(patchUvarint(t, good, versionAt, 2)), "format version 2"},
		{"horizon 0", reseal(patchUvarint(t, good, horizonAt, 0)), "horizon 0 out of range"},
		{"horizon huge", reseal(patchUvarint(t, good, horizonAt, MaxHorizon+1)), "out of range"},
		{"horizon larger than data", reseal(patchUvarint(t, good, horizonAt, 13)), ""},
		{"builder too long", reseal(patchUvarint(t, good, builderAt, MaxMetaLen+1)), "exceeds"},
		{"builder past end", reseal(patchUvarint(t, good, builderAt, 4000)), ""},
		{"control character in source", withSource("a\x00b"), "unprintable"},
		{"invalid utf-8 in source", withSource("a\xffb"), "UTF-8"},
		{"games changed", reseal(patchUvarint(t, good, gamesAt, 5)), "coverage"},
		{"trailing byte", reseal(append(append([]byte(nil), good[:len(good)-4]...), 0, 0, 0, 0, 0)), "unexpected bytes"},
		{"non-minimal varint", reseal(append(append(append([]byte(nil), good[:versionAt]...), 0x81, 0x00), good[versionAt+1:]...)), "non-minimal"},
		{"overflowing varint", reseal(append(append(append([]byte(nil), good[:versionAt]...), bytes.Repeat([]byte{0xff}, 11)...), good[versionAt+1:]...)), "overflows"},
		{"too large", append(append([]byte(nil), fileMagic...), make([]byte, MaxFileSize)...), "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCounts(bytes.NewReader(tc.data))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *FormatError", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "offset ") {
				t.Errorf("error %q, want one naming the offset and containing %q", err, tc.want)
			}
		})
	}
}

// TestFileInvariants damages single counts behind a valid checksum: each
// must be caught by the invariant it breaks.
func TestFileInvariants(t *testing.T) {
	tests := []struct {
		name   string
		damage func(c *Counts)
		want   string
	}{
		{"mass does not sum", func(c *Counts) { c.Mass[0][Piece][3][10]++ }, "masses sum"},
		{"mass without coverage", func(c *Counts) { c.Mass[1][King][12][0] = 5 }, ""},
		{"pawn on the last rank", func(c *Counts) {
			c.Mass[0][Pawn][1][8] -= 7
			c.Mass[0][Pawn][1][60] += 7
		}, "first or last rank"},
		{"king comes back", func(c *Counts) {
			h := c.Horizon
			c.Coverage[1][King][h] = c.Coverage[1][King][h-1] + 1
		}, ""},
		{"impossible double step", func(c *Counts) { c.Pawn[0][20][PawnDouble] = 1 }, "impossible step"},
		{"capture west from the a-file", func(c *Counts) { c.Pawn[1][48][PawnCaptureWest] = 1 }, "impossible step"},
		{"movers off", func(c *Counts) { c.Movers[0][8][7][King]++ }, "mover counts"},
		{"hits above trials", func(c *Counts) { c.Events[1][EventRecapture].Hits = c.Events[1][EventRecapture].Trials + 1 }, "exceeds"},
		{"material shares too small", func(c *Counts) { c.Material[0].Knight = 0 }, "material shares sum"},
		{"material share above one per position", func(c *Counts) { c.Material[1].Straight = c.Material[1].Positions*MassScale + 1 }, "exceeds"},
		{"material positions above plies", func(c *Counts) { c.Material[0].Positions = c.Plies[0] + 1 }, "exceeds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := smallCounts(t)
			tc.damage(c)
			_, err := DecodeCounts(c.AppendFile(nil))
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *FormatError containing %q", err, tc.want)
			}
		})
	}
}

func FuzzReadModel(f *testing.F) {
	good := smallCounts(f).AppendFile(nil)
	f.Add(good)
	f.Add(good[:len(good)/3])
	f.Add(NewCounts(1).AppendFile(nil))
	f.Add([]byte(fileMagic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		// Both the bytes as given and resealed, so the fuzzer reaches the parser.
		for _, in := range [][]byte{b, reseal(b)} {
			c, err := DecodeCounts(in)
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("error of type %T: %v", err, err)
				}
				continue
			}
			// The encoding is canonical: what decodes re-encodes to the same bytes.
			if out := c.AppendFile(nil); !bytes.Equal(out, in) {
				t.Fatalf("decoded file re-encodes differently")
			}
			NewModel(c) // must not panic on any accepted counts
		}
	})
}
