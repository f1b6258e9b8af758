package belief

import (
	"math"
	"math/rand/v2"
	"testing"

	"kriegbot/engine/chess"
)

// TestTriesPosteriorMatchesEnumeration checks the pawn-try evidence model
// against brute force: for random small term sets, the posterior occupancy of
// each square given the count is what enumerating every occupation and every
// pattern of counted captures gives.
func TestTriesPosteriorMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := range 300 {
		var tm triesModel
		n := 1 + rng.IntN(6)
		pairs := make([][]float64, n)
		for i := range n {
			k := 1 + rng.IntN(2)
			pairs[i] = make([]float64, k)
			for j := range k {
				pairs[i][j] = 1
				if rng.IntN(2) == 0 {
					pairs[i][j] = uncertainLegal
				}
			}
			tm.add(chess.Square(i), false, 0.05+0.9*rng.Float64(), pairs[i])
		}
		count := rng.IntN(2*n + 1)
		// Brute force over occupations and counted pairs.
		var num [40]float64
		den := 0.0
		for occ := 0; occ < 1<<n; occ++ {
			var rec func(i, c int, p float64)
			rec = func(i, c int, p float64) {
				if i == n {
					if c == count {
						den += p
						for j := range n {
							if occ&(1<<j) != 0 {
								num[j] += p
							}
						}
					}
					return
				}
				q := tm.term[i].q
				if occ&(1<<i) == 0 {
					rec(i+1, c, p*(1-q))
					return
				}
				var sub func(j, c int, p float64)
				sub = func(j, c int, p float64) {
					if j == len(pairs[i]) {
						rec(i+1, c, p)
						return
					}
					l := pairs[i][j]
					sub(j+1, c+1, p*l)
					if l < 1 {
						sub(j+1, c, p*(1-l))
					}
				}
				sub(0, c, p*q)
			}
			rec(0, 0, 1)
		}
		var post [40]float64
		ok := tm.posterior(count, &post)
		if count > maxCount {
			if ok {
				t.Fatalf("trial %d: count %d above maxCount used", trial, count)
			}
			continue
		}
		if !ok {
			if den > 1e-15 {
				t.Fatalf("trial %d: model refused count %d that has chance %g", trial, count, den)
			}
			continue
		}
		for j := range n {
			want := num[j] / den
			if math.Abs(post[j]-want) > 1e-9 {
				t.Fatalf("trial %d, count %d: square %d posterior %g, enumeration %g", trial, count, j, post[j], want)
			}
		}
	}
}

// TestTriesZeroNeedsProof: a count of 0 rules a square out only when every
// capture onto it would surely count.
func TestTriesZeroNeedsProof(t *testing.T) {
	var tm triesModel
	tm.add(0, false, 0.5, []float64{1})
	tm.add(1, false, 0.5, []float64{uncertainLegal})
	var post [40]float64
	if !tm.posterior(0, &post) {
		t.Fatal("count refused")
	}
	if post[0] != 0 {
		t.Errorf("sure capture square keeps chance %g after 0 tries", post[0])
	}
	if post[1] <= 0 || post[1] >= 0.5 {
		t.Errorf("uncertain capture square: chance %g, want in (0, 0.5)", post[1])
	}
}
