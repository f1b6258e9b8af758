package bench

import (
	"fmt"
	"slices"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/search"
	"kriegbot/engine/umpire"
)

// Figure is one measured speed.
type Figure struct {
	Name  string
	Value float64
	Unit  string
}

// A Benchmark measures one figure, running for at least min.
type Benchmark struct {
	Name    string
	Summary string
	Run     func(min time.Duration) (Figure, error)
}

// All lists the figures, in the order kriegbot bench prints them.
func All() []Benchmark {
	all := []Benchmark{
		{"perft", "legal move generation and copy-make: start position depth 5 plus Kiwipete depth 4, every leaf made", perftFigure},
		{"umpire", "referee answers on a long stream of random askable attempts (legal and illegal), wild 16", umpireFigure},
		{"protocol", "ICC wire input of 20 random games (units, DG 24/56/139/42, referee text): tokenized, decoded, announcements parsed", protocolFigure},
		{"belief", "belief update after each opponent move (spread, captures, checks, pawn tries) over 20 random games", beliefFigure},
		{"search", "MCTS approach C iterations on middlegame beliefs (plies 20-60 of random games), one thread, 10000 per search", func(min time.Duration) (Figure, error) {
			v, err := search.Speed(1, 10000, min)
			return Figure{"search", v, "iterations/s"}, err
		}},
		{"search2", "the same with two threads (root parallelism, independent trees)", func(min time.Duration) (Figure, error) {
			v, err := search.Speed(2, 10000, min)
			return Figure{"search2", v, "iterations/s"}, err
		}},
		{"boardtree", "boardtree (wild 16's default player) iterations on the same beliefs, one tree, 10000 per search", func(min time.Duration) (Figure, error) {
			f, err := boardtreeFigures(10000, min)
			return Figure{"boardtree", f.perSecond, "iterations/s"}, err
		}},
		{"boardtree-pool", "the iterations one search may run before its tree fills the default memory cap (mem=256), at the nodes an iteration those searches make", func(min time.Duration) (Figure, error) {
			f, err := boardtreeFigures(10000, min)
			return Figure{"boardtree-pool", f.capacity / f.nodesPerIteration, "iterations"}, err
		}},
	}
	// The umpire in each of the site's other variants, after wild 16's figure.
	var variants []Benchmark
	for _, v := range umpire.Variants() {
		if v.IsWild16() {
			continue // wild 16 is "umpire"
		}
		variants = append(variants, Benchmark{"umpire-" + v.Name,
			"the same in " + v.Name + " (ask-any at a turn's start with p = 0.3 where the variant has it)",
			func(min time.Duration) (Figure, error) { return variantFigure(v, min) }})
	}
	return slices.Concat(all[:2], variants, all[2:])
}

// repeat runs work until min has passed and returns the units done per second.
func repeat(min time.Duration, work func() (units uint64, err error)) (float64, error) {
	var total uint64
	start := time.Now()
	for {
		n, err := work()
		if err != nil {
			return 0, err
		}
		total += n
		if el := time.Since(start); el >= min {
			return float64(total) / el.Seconds(), nil
		}
	}
}

func perftFigure(min time.Duration) (Figure, error) {
	cases := []struct {
		fen   string
		depth int
		nodes uint64
	}{
		{chess.StartFEN, 5, 4865609},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603},
	}
	v, err := repeat(min, func() (uint64, error) {
		var total uint64
		for _, c := range cases {
			p, err := chess.ParseFEN(c.fen)
			if err != nil {
				return 0, err
			}
			if n := chess.Perft(p, c.depth); n != c.nodes {
				return 0, fmt.Errorf("perft(%d) of %s = %d, want %d", c.depth, c.fen, n, c.nodes)
			}
			total += c.nodes
		}
		return total, nil
	})
	return Figure{"perft", v, "nodes/s"}, err
}

func umpireFigure(min time.Duration) (Figure, error) {
	stream := umpire.RandomStream(1, 200, 300)
	u := umpire.New(umpire.ICC())
	v, err := repeat(min, func() (uint64, error) {
		n, _ := stream.Replay(u)
		return uint64(n), nil
	})
	return Figure{"umpire", v, "attempts/s"}, err
}

// variantFigure is umpireFigure in one of the site's other variants.
func variantFigure(variant umpire.Variant, min time.Duration) (Figure, error) {
	rules := umpire.Site(variant)
	stream := umpire.RandomStreamFor(rules, 1, 200, 300)
	u := umpire.New(rules)
	v, err := repeat(min, func() (uint64, error) {
		n, _ := stream.Replay(u)
		return uint64(n), nil
	})
	return Figure{"umpire-" + variant.Name, v, "attempts/s"}, err
}
