package retention

import (
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
)

// Open opens a record, transcript or any file a pass may have compressed:
// when name is missing but name+".gz" is there, that is opened instead,
// and a file that starts with gzip's magic bytes is read decompressed.
// Plain files read as they are.
func Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(name, ".gz") {
		if g, gerr := os.Open(name + ".gz"); gerr == nil {
			f, err = g, nil
		}
	}
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, err
		}
		return gzipFile{zr, f}, nil
	}
	return plainFile{br, f}, nil
}

type plainFile struct {
	*bufio.Reader
	f *os.File
}

func (p plainFile) Close() error { return p.f.Close() }

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}
