package oppmodel

import (
	_ "embed"
	"fmt"
)

//go:generate sh mkdefault.sh

// defaultModelFile is the embedded default model (docs/opponent-model.md
// says how it is rebuilt). Read-only: only DefaultCounts reads it.
//
//go:embed default.kbm
var defaultModelFile []byte

// DefaultCounts decodes the embedded default model. Each call returns fresh
// counts the caller may change.
func DefaultCounts() (*Counts, error) {
	c, err := DecodeCounts(defaultModelFile)
	if err != nil {
		return nil, fmt.Errorf("embedded default model: %w", err)
	}
	return c, nil
}

// Default returns the model derived from the embedded default counts.
func Default() (*Model, error) {
	c, err := DefaultCounts()
	if err != nil {
		return nil, err
	}
	return NewModel(c), nil
}
