package tourney

// allocateColours gives the colours of a pair, a ranked above b, by the
// rules of C.04.3 E:
//
//	E.1 grant both preferences;
//	E.2 grant the stronger preference (for two absolute ones, the wider
//	    colour difference);
//	E.3 alternate both relative to the latest game where they had
//	    different colours;
//	E.4 grant the higher-ranked player's preference;
//	E.5 no preferences: the higher-ranked player gets the initial colour
//	    if his pairing number is odd, else the other.
func (e *Event) allocateColours(a, b *spl) (white, black *spl) {
	give := func(p *spl, c Colour) (*spl, *spl) {
		if p == a {
			if c == White {
				return a, b
			}
			return b, a
		}
		if c == White {
			return b, a
		}
		return a, b
	}
	ca, sa := a.pref()
	cb, sb := b.pref()
	switch {
	case sa == prefNone && sb == prefNone:
		c := e.InitialColour
		if a.seed%2 == 0 {
			c = c.Opposite()
		}
		return give(a, c)
	case sa == prefNone:
		return give(b, cb)
	case sb == prefNone:
		return give(a, ca)
	case ca != cb:
		return give(a, ca)
	case sa != sb:
		if sa > sb {
			return give(a, ca)
		}
		return give(b, cb)
	}
	if sa == prefAbsolute {
		da, db := abs(a.cd()), abs(b.cd())
		if da > db {
			return give(a, ca)
		}
		if db > da {
			return give(b, cb)
		}
	}
	// E.3: walk back through the games both played.
	for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a.colours[i] != b.colours[j] {
			return give(a, a.colours[i].Opposite())
		}
	}
	return give(a, ca)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
