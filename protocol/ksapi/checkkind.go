package ksapi

import "kriegbot/engine/chess"

// checkPair is a site's check and the engine's check kind it names.
type checkPair struct {
	site   Check
	engine chess.CheckKind
}

// checkPairs is the one table both directions read (client, server and
// fakes).
func checkPairs() [5]checkPair {
	return [5]checkPair{
		{CheckRank, chess.CheckRank},
		{CheckFile, chess.CheckFile},
		{CheckLongDiagonal, chess.CheckLongDiagonal},
		{CheckShortDiagonal, chess.CheckShortDiagonal},
		{CheckKnight, chess.CheckKnight},
	}
}

// CheckOf is the site's check of the engine's check kind (NoCheck for
// chess.NoCheck).
func CheckOf(k chess.CheckKind) Check {
	for _, p := range checkPairs() {
		if p.engine == k {
			return p.site
		}
	}
	return NoCheck
}

// Kind is the engine's check kind of the site's check (chess.NoCheck for
// NoCheck).
func (c Check) Kind() chess.CheckKind {
	for _, p := range checkPairs() {
		if p.site == c {
			return p.engine
		}
	}
	return chess.NoCheck
}
