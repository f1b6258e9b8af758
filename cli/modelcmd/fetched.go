package modelcmd

import (
	"fmt"
	"hash/fnv"

	"kriegbot/engine/oppmodel"
	"kriegbot/opponent/sitegames"
)

// readFetched adds the games `model fetch` stored for a variant; with
// humans, only people's moves are counted and games of two bots are
// skipped. It returns what the games were, for the model's metadata:
// variant, number of games and players, and the dates they span.
func (b *builder) readFetched(dir, variant string, humans bool, slice heldOut) (string, error) {
	st, warnings, err := sitegames.Open(dir)
	if err != nil {
		return "", err
	}
	for _, w := range warnings {
		fmt.Fprintln(b.stderr, w)
	}
	used := 0
	players := map[string]bool{}
	first, last := "", ""
	err = st.Read(variant, func(g sitegames.Game) error {
		place := fmt.Sprintf("%s: game %s", st.Path(variant), g.ID)
		if !slice.takes(g.ID) {
			return nil // the other slice's
		}
		if humans && !g.HasHuman() {
			b.skip(place+": skipped: two bots", "two bots")
			return nil
		}
		moves, err := g.Played()
		if err != nil {
			b.skip(fmt.Sprintf("%s: skipped: %v", place, err), err.Error())
			return nil
		}
		sides := [2]bool{!humans || !g.White.Bot, !humans || !g.Black.Bot}
		if err := b.counts.AddGame(moves, sides); err != nil {
			b.skip(fmt.Sprintf("%s: skipped: %v", place, err), "illegal move")
			return nil
		}
		b.used++
		used++
		for _, p := range []sitegames.Player{g.White, g.Black} {
			if !humans || !p.Bot {
				players[p.Name] = true
			}
		}
		if day := dayOf(g.PlayedAt); day != "" {
			if first == "" || day < first {
				first = day
			}
			if day > last {
				last = day
			}
		}
		b.showProgress()
		return nil
	}, func(place string, err error) { b.skip(place+": "+err.Error(), "unreadable line") })
	if err != nil {
		return "", err
	}
	who := "both sides' moves"
	if humans {
		who = "people's moves only"
	}
	desc := fmt.Sprintf("kriegspiel.org %s: %d games, %d players, %s", variant, used, len(players), who)
	if first != "" {
		desc += fmt.Sprintf(", played %s to %s", first, last)
	}
	if len(desc) > oppmodel.MaxMetaLen {
		desc = desc[:oppmodel.MaxMetaLen]
	}
	return desc, nil
}

// dayOf is the date part of a site timestamp ("2026-11-05T12:00:00Z").
func dayOf(ts string) string {
	if len(ts) >= 10 && ts[4] == '-' && ts[7] == '-' {
		return ts[:10]
	}
	return ""
}

// heldOut is the held-out slice of the stored games: every game whose id
// hashes to 0 modulo Every. A build with it leaves the slice out, an eval
// with it reads only the slice, so the two never share a game whatever
// order the games were fetched in. Every 0 takes every game.
type heldOut struct {
	Every int
	Only  bool // read the slice alone (eval), else everything but it (build)
}

func (h heldOut) takes(id string) bool {
	if h.Every <= 0 {
		return true
	}
	f := fnv.New32a()
	f.Write([]byte(id))
	return (f.Sum32()%uint32(h.Every) == 0) == h.Only
}
