package bench

import (
	"bytes"
	"testing"
)

func TestGameStreamDecodes(t *testing.T) {
	stream := gameStream(1, 3)
	if !bytes.Contains(stream, []byte("?x")) || !bytes.Contains(stream, []byte("Illegal move")) || !bytes.Contains(stream, []byte("check")) {
		t.Fatal("stream lacks hidden captures, illegal attempts or checks")
	}
	c := newStreamConsumer()
	if err := c.consume(stream); err != nil {
		t.Fatal(err)
	}
	if c.sink == 0 {
		t.Fatal("nothing decoded")
	}
	// Warm: the whole hot path allocates nothing per datagram or line.
	if n := testing.AllocsPerRun(5, func() {
		if err := c.consume(stream); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per stream of %d bytes", n, len(stream))
	}
}

func BenchmarkProtocolStream(b *testing.B) {
	stream := gameStream(1, 20)
	c := newStreamConsumer()
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		if err := c.consume(stream); err != nil {
			b.Fatal(err)
		}
	}
}
