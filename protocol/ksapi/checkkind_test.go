package ksapi

import (
	"testing"

	"kriegbot/engine/chess"
)

func TestCheckKinds(t *testing.T) {
	for _, c := range []struct {
		site   Check
		engine chess.CheckKind
	}{
		{NoCheck, chess.NoCheck},
		{CheckRank, chess.CheckRank},
		{CheckFile, chess.CheckFile},
		{CheckLongDiagonal, chess.CheckLongDiagonal},
		{CheckShortDiagonal, chess.CheckShortDiagonal},
		{CheckKnight, chess.CheckKnight},
	} {
		if got := CheckOf(c.engine); got != c.site {
			t.Errorf("CheckOf(%v) = %v, want %v", c.engine, got, c.site)
		}
		if got := c.site.Kind(); got != c.engine {
			t.Errorf("%v.Kind() = %v, want %v", c.site, got, c.engine)
		}
	}
}
