package driver

import (
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// valued wraps a real player and reports a fixed value, to drive the
// value-based decisions.
type valued struct {
	players.Player
	v float64
}

func (p *valued) Value() (float64, bool) { return p.v, true }

func spec(t *testing.T, v *float64) players.Spec {
	t.Helper()
	sp, err := players.Parse("random", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		return sp
	}
	kinds := []players.Kind{{Name: "valued", Build: func(*players.Options) (func() players.Player, error) {
		return func() players.Player { return &valued{Player: sp.New(), v: *v} }, nil
	}}}
	vs, err := players.Parse("valued", kinds)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func newGame(t *testing.T, sp players.Spec, st Settings) (*Game, chan Thought) {
	t.Helper()
	done := make(chan Thought, 1)
	g, err := New(Setup{Spec: sp, Game: players.Game{Color: chess.White, Rules: umpire.ICC(), Seed: 1}, Settings: st}, done)
	if err != nil {
		t.Fatal(err)
	}
	return g, done
}

// TestAttemptRoundTrip: Act starts a search, its Thought comes back on the
// channel and Done turns it into the attempt; events heard meanwhile wait.
func TestAttemptRoundTrip(t *testing.T) {
	g, done := newGame(t, spec(t, nil), Settings{})
	now := time.Now()
	if acts := g.Act(now, Situation{Since: now}); len(acts) != 0 || !g.Thinking() {
		t.Fatalf("Act: %v, thinking %v; want a search and nothing to send", acts, g.Thinking())
	}
	if acts := g.Act(now, Situation{Since: now}); acts != nil {
		t.Fatalf("a second Act while thinking sent %v", acts)
	}
	g.Hear([]players.Event{{Kind: players.ClockUpdate}}, now) // queued
	if len(g.queued) != 1 {
		t.Fatalf("%d events queued while thinking, want 1", len(g.queued))
	}
	r := <-done
	acts := g.Done(r, true, now)
	if len(acts) != 1 || acts[0].Kind != Attempt || acts[0].Move == chess.NullMove {
		t.Fatalf("Done: %+v, want one attempt", acts)
	}
	if acts := g.Done(r, true, now); acts != nil {
		t.Fatalf("the same Thought twice sent %v", acts)
	}
	g.Hear(nil, now)
	if len(g.queued) != 0 {
		t.Fatal("queued events not delivered after the search")
	}
}

// TestUnwantedThought: a search that ends after the turn moved on, or after
// a rebuild, sends nothing.
func TestUnwantedThought(t *testing.T) {
	g, done := newGame(t, spec(t, nil), Settings{})
	now := time.Now()
	g.Act(now, Situation{Since: now})
	if acts := g.Done(<-done, false, now); acts != nil {
		t.Fatalf("unwanted search sent %v", acts)
	}
	g.Act(now, Situation{Since: now})
	if err := g.Rebuild(nil, "test", now); err != nil {
		t.Fatal(err)
	}
	if acts := g.Done(<-done, true, now); acts != nil {
		t.Fatalf("a search from before the rebuild sent %v", acts)
	}
}

// TestResignAndDraw: ResignMoves turns below the line resign (once); an
// offered draw is accepted below DrawBelow.
func TestResignAndDraw(t *testing.T) {
	v := -0.9
	g, done := newGame(t, spec(t, &v), Settings{Resign: true, ResignBelow: -0.8, ResignMoves: 2, AcceptDraw: true, DrawBelow: -0.5})
	now := time.Now()
	g.Offered(true)
	acts := g.Act(now, Situation{Since: now})
	if len(acts) != 1 || acts[0].Kind != AcceptDraw {
		t.Fatalf("first turn: %+v, want the draw accepted", acts)
	}
	g.Done(<-done, false, now)
	acts = g.Act(now, Situation{Since: now})
	if len(acts) != 1 || acts[0].Kind != Resign || acts[0].Value != v {
		t.Fatalf("second low turn: %+v, want a resignation", acts)
	}
	if acts := g.Act(now, Situation{Since: now}); acts != nil || g.Thinking() {
		t.Fatalf("after resigning: %+v, thinking %v", acts, g.Thinking())
	}
}

// TestNoAttemptResigns: a player with nothing to ask resigns, with the error.
func TestNoAttemptResigns(t *testing.T) {
	g, done := newGame(t, spec(t, nil), Settings{})
	now := time.Now()
	g.Act(now, Situation{Since: now})
	r := <-done
	r.err, r.move = players.ErrNoAttempt, chess.NullMove
	if acts := g.Done(r, true, now); len(acts) != 1 || acts[0].Kind != Resign || acts[0].Err == nil {
		t.Fatalf("Done after a failed search: %+v, want a resignation with the error", acts)
	}
}

// seeker is a valued player that cannot win.
type seeker struct{ valued }

func (*seeker) CannotWin() bool { return true }

// TestOffersDrawNowAndThen: a player that cannot win offers a draw once
// every offerEvery attempts, not at every one.
func TestOffersDrawNowAndThen(t *testing.T) {
	base, err := players.Parse("random", players.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	kinds := []players.Kind{{Name: "seeker", Build: func(*players.Options) (func() players.Player, error) {
		return func() players.Player { return &seeker{valued{Player: base.New(), v: 0}} }, nil
	}}}
	sp, err := players.Parse("seeker", kinds)
	if err != nil {
		t.Fatal(err)
	}
	g, done := newGame(t, sp, Settings{})
	now := time.Now()
	offers := 0
	for i := 0; i < 3*offerEvery; i++ {
		for _, a := range g.Act(now, Situation{Since: now}) {
			if a.Kind == OfferDraw {
				offers++
			}
		}
		g.Done(<-done, false, now)
	}
	if offers != 3 {
		t.Fatalf("%d draw offers in %d attempts, want 3", offers, 3*offerEvery)
	}
}
