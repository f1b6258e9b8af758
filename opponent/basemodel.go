package opponent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"kriegbot/engine/oppmodel"
)

// ModelPath is where the model of a rule variant's games lives in a models
// folder: `kriegbot model build -games` writes it there, and the daemon
// plays that variant's games with it (dir/wild16.kbm, dir/berkeley_any.kbm).
func ModelPath(dir, variant string) string { return filepath.Join(dir, variant+".kbm") }

// Base is the model a variant's games start from, before any per-opponent
// blend: a built model file, or the embedded default.
type Base struct {
	Variant string
	// Path is the file it was read from; "" for the embedded default.
	Path string
	// File is the file's bytes (nil for the default), which a game record
	// keeps so that a replay gives the player the same model, and SHA256
	// their hash in hex.
	File   []byte
	SHA256 string
	Counts *oppmodel.Counts
	Model  *oppmodel.Model
	// Unused says why a file at Path was not used (then the base is the
	// default); nil when it was used or there is none.
	Unused error
}

// Name says which model this is, for the record and `run -check`.
func (b Base) Name() string {
	if b.Path == "" {
		return "embedded default"
	}
	return fmt.Sprintf("%s (sha256 %.12s): %s", b.Path, b.SHA256, b.Counts.Meta.Source)
}

// Bases are the base models of the variants, read once from a models
// folder; a variant without a usable file there plays with the default.
type Bases struct {
	def       Base
	byVariant map[string]Base
}

// LoadBases reads dir's model file of each variant (ModelPath). A missing
// file, or dir "", leaves the variant on the embedded default; a file that
// cannot be read or decoded does too, and says why in its Base.Unused. The
// error is the embedded default's, which no game can do without.
func LoadBases(dir string, variants []string) (*Bases, error) {
	def, err := oppmodel.DefaultCounts()
	if err != nil {
		return nil, err
	}
	b := &Bases{def: Base{Counts: def, Model: oppmodel.NewModel(def)}, byVariant: map[string]Base{}}
	for _, v := range variants {
		base := b.def
		base.Variant = v
		if dir != "" {
			base = b.load(ModelPath(dir, v), v)
		}
		b.byVariant[v] = base
	}
	return b, nil
}

func (b *Bases) load(path, variant string) Base {
	fallback := b.def
	fallback.Variant = variant
	data, err := readBounded(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fallback
	}
	if err == nil && len(data) > oppmodel.MaxFileSize {
		err = fmt.Errorf("%s: over %d bytes", path, oppmodel.MaxFileSize)
	}
	var c *oppmodel.Counts
	if err == nil {
		c, err = oppmodel.DecodeCounts(data)
		if err != nil {
			err = fmt.Errorf("model file %s: %w", path, err)
		}
	}
	if err != nil {
		fallback.Unused = err
		return fallback
	}
	sum := sha256.Sum256(data)
	return Base{Variant: variant, Path: path, File: data, SHA256: hex.EncodeToString(sum[:]), Counts: c, Model: oppmodel.NewModel(c)}
}

// For is variant's base ("" is wild 16); a variant not loaded gets the
// default.
func (b *Bases) For(variant string) Base {
	if variant == "" {
		variant = "wild16"
	}
	if base, ok := b.byVariant[variant]; ok {
		return base
	}
	base := b.def
	base.Variant = variant
	return base
}

// Default is the embedded default's counts, the base of the per-opponent
// store's horizon.
func (b *Bases) Default() *oppmodel.Counts { return b.def.Counts }

// readBounded reads a file of at most MaxFileSize+1 bytes, so a wrong file
// cannot exhaust memory (the decoder refuses the extra byte).
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, oppmodel.MaxFileSize+1))
}
