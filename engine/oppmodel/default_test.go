package oppmodel

import (
	"strings"
	"testing"

	"kriegbot/engine/chess"
)

func TestDefaultModel(t *testing.T) {
	c, err := DefaultCounts()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Meta.Source, "heuristic") || !strings.HasPrefix(c.Meta.Builder, "kriegbot model build") {
		t.Errorf("default meta %+v does not say what it was built from", c.Meta)
	}
	if c.Games[0] < 1000 || c.Horizon != DefaultHorizon {
		t.Errorf("default: %v games, horizon %d", c.Games, c.Horizon)
	}
	if len(defaultModelFile) > 400<<10 {
		t.Errorf("embedded default is %d bytes, keep it under 400 KB", len(defaultModelFile))
	}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for col := chess.White; col <= chess.Black; col++ {
		if m.Horizon(col) < 60 {
			t.Errorf("default serves %s only to move %d", col, m.Horizon(col))
		}
	}
	for _, f := range m.ParamsFit() {
		if !f.Fitted {
			t.Errorf("default: %s not fitted (%d trials)", f.Event, f.Tally.Trials)
		}
	}
}
