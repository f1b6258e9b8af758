package bot

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/engine/chess"
	"kriegbot/protocol"
)

// effectText writes an effect as the tables below expect it; console
// lines are left out (their wording is the console's business).
func effectText(f effect) string {
	switch f.kind {
	case fxSend:
		return "send " + f.line
	case fxClearOffers:
		return "clear offers"
	case fxOfferOut:
		return "offer out"
	case fxAccepting:
		return "accepting " + f.line
	case fxNormalPlay:
		return "normal play"
	case fxStatus:
		return "status " + f.line
	}
	return ""
}

// entrantStep is one input of a table case: a TD line (parsed as the
// daemon parses it), a tell from a handle, a challenge, a game's start or
// end, the owner's word or a tick, at minute at, with the effects it must
// have.
type entrantStep struct {
	at      int    // minutes since the start
	line    string // a TD line in the server's text
	from    string // with line: a tell from this handle
	owner   string // the owner's "tourney ..." arguments
	started string // a game (number 10) with this opponent started
	over    string // game 10 is over with this result (we are White)
	match   string // a challenge from this handle at 1 1 / 1 1, wild 16
	tick    bool
	login   bool                // a (re)connection
	dg103   *protocol.TourneyDG // an event announced
	games   []envGame           // games in progress at this input
	soft    bool                // the daemon is quitting
	want    []string
	reply   string // the owner's reply, when owner is set
	taken   *bool  // the challenge's answer, when match is set
}

func TestEntrantTable(t *testing.T) {
	yes, no := true, false
	cfg := config.Defaults()
	cfg.Tournament.TD = []string{"TD"}
	cfg.Tournament.Join = []int{6}
	cfg.Tournament.AutoJoin = true
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		steps []entrantStep
	}{
		{"join, confirmed, paired, answered, played", []entrantStep{
			{owner: "join 4", want: []string{"send tell TD join 4", "clear offers"}, reply: "Joining tourney #4 (TD)."},
			{line: ":You have joined tourney #4.", from: "TD"},
			{line: "You play white against bob in this round of tourney #4.", from: "TD", want: []string{"send td play 4", "offer out"}},
			{match: "bob", want: []string{"accepting bob", "send accept bob"}, taken: &yes},
			{started: "bob"},
			{over: "1-0", want: nil},
			{tick: true, want: []string{"status in tourney #4 (TD): waiting for the next round"}},
		}},
		{"a pairing waits while a game is in progress", []entrantStep{
			{owner: "join 4", want: []string{"send tell TD join 4", "clear offers"}, reply: "Joining tourney #4 (TD)."},
			{line: "You play black against bob in this round of tourney #4.", from: "TD", games: []envGame{{number: 3, opp: "carol"}}},
			{tick: true, games: []envGame{{number: 3, opp: "carol"}}},
			{tick: true, want: []string{"send td play 4", "offer out"}},
		}},
		{"the paired game never starts", []entrantStep{
			{owner: "join 2", want: []string{"send tell TD join 2", "clear offers"}, reply: "Joining tourney #2 (TD)."},
			{line: "You play white against bob in this round of tourney #2.", from: "TD", want: []string{"send td play 2", "offer out"}},
			{at: 11, tick: true, want: []string{"status in tourney #2 (TD): waiting for the next round"}},
			{match: "bob", want: []string{"send decline bob"}, taken: &yes},
		}},
		{"the ICC form: the paired time control only", []entrantStep{
			{line: `tourney set to "TD K16 * bob 1 1 1 1 r w16 white 2" by TD.`, want: []string{"clear offers", "send match bob!", "offer out"}},
			{match: "bob", want: []string{"accepting bob", "send accept bob"}, taken: &yes},
			{line: `tourney set to "TD K16 * carol 3 0 3 0 r w16 black 3" by TD.`, want: []string{"send match carol!", "offer out"}},
			{match: "carol", want: []string{"send decline carol"}, taken: &yes},
		}},
		{"logins: tournament.join, then rejoin, and a pairing answered again", []entrantStep{
			{login: true, want: []string{"send set-2 103 1", "send tell TD join 6", "clear offers"}},
			{line: "You play white against bob in this round of tourney #6.", from: "TD", want: []string{"send td play 6", "offer out"}},
			{login: true, want: []string{"send set-2 103 1", "send tell TD join 6"}},
			{tick: true, want: []string{"send td play 6", "offer out"}},
		}},
		{"auto_join: a wild 16 event of a trusted TD, once", []entrantStep{
			{dg103: &protocol.TourneyDG{ID: 8, Description: "KS8 w16 swiss", Join: "tell TD join 8"}, want: []string{"send tell TD join 8", "clear offers"}},
			{line: ":Tourney #8 has been aborted!", want: []string{"normal play"}},
			{dg103: &protocol.TourneyDG{ID: 8, Description: "KS8 w16 swiss", Join: "tell TD join 8"}},
			{dg103: &protocol.TourneyDG{ID: 9, Description: "blitz", Join: "tell TD join 9"}},
			{dg103: &protocol.TourneyDG{ID: 10, Description: "w16", Join: "tell TD join 10&quit"}},
		}},
		{"an untrusted teller is ignored", []entrantStep{
			{line: "You play white against bob in this round of tourney #4.", from: "Mallory"},
			{match: "bob", taken: &no},
			{owner: "", reply: "In no tournament."},
		}},
		{"a trusted TD's pairing follows the event", []entrantStep{
			{line: "You play white against bob in this round of tourney #5.", from: "TD", want: []string{"clear offers", "send td play 5", "offer out"}},
			{owner: "", reply: "tourney #5 (TD): in, 0 games, 0 points; paired with bob, answered, waiting for the game."},
		}},
		{"the join refused", []entrantStep{
			{owner: "join 7", want: []string{"send tell TD join 7", "clear offers"}, reply: "Joining tourney #7 (TD)."},
			{line: "You cannot join tourney #7: it is full (2 players).", from: "TD", want: []string{"normal play"}},
			{owner: "", reply: "In no tournament."},
		}},
		{"aborted: back to normal play", []entrantStep{
			{owner: "join 7", want: []string{"send tell TD join 7", "clear offers"}, reply: "Joining tourney #7 (TD)."},
			{line: ":Tourney #7 has been aborted!", want: []string{"normal play"}},
			{owner: "", reply: "In no tournament."},
		}},
		{"leaving, not while quitting", []entrantStep{
			{owner: "join 3", want: []string{"send tell TD join 3", "clear offers"}, reply: "Joining tourney #3 (TD)."},
			{owner: "leave", soft: true, want: []string{"send tell TD leave !"},
				reply: "Left; back to normal play once the game in progress, if any, is over."},
			{owner: "join 3", soft: true, reply: "Not joining: I am leaving."},
		}},
		{"silence ends the event", []entrantStep{
			{owner: "join 3", want: []string{"send tell TD join 3", "clear offers"}, reply: "Joining tourney #3 (TD)."},
			{at: 181, tick: true, want: []string{"normal play"}},
		}},
		{"the owner's usage", []entrantStep{
			{owner: "join x", reply: "Usage: tourney join N [td], N an event number."},
			{owner: "join 3 Mallory", reply: "Mallory is not a trusted TD (tournament.td: TD)."},
			{owner: "dance", reply: "Usage: tourney, tourney join N [td], tourney leave [N]."},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &entrant{log: zerolog.Nop()}
			for i, s := range tc.steps {
				now := t0.Add(time.Duration(s.at) * time.Minute)
				env := entrantEnv{cfg: cfg.Tournament, tds: cfg.TrustedTDs(), me: "kriegbot", soft: s.soft, games: s.games}
				var reply string
				var taken bool
				fx := e.input(env, func() {
					switch {
					case s.owner != "" || s.reply != "":
						reply = e.owner(s.owner, now)
					case s.line != "":
						l, err := protocol.ParseTDLine(s.line)
						if err != nil {
							t.Fatalf("step %d: %q: %v", i, s.line, err)
						}
						e.tdLine(l, s.from, s.line, now)
					case s.match != "":
						taken = e.challenge(protocol.MatchDG{Challenger: s.match, Receiver: "kriegbot", Wild: 16,
							ChallengerTime: 1, ChallengerInc: 1, ReceiverTime: 1, ReceiverInc: 1}, "")
					case s.started != "":
						e.gameStarted(10, s.started, now)
					case s.over != "":
						e.gameOver(10, "bob", chess.White, s.over, "checkmate", now)
					case s.tick:
						e.tick(now)
					case s.login:
						e.connected(now)
					case s.dg103 != nil:
						e.announce(*s.dg103, now)
					}
				})
				var got []string
				for _, f := range fx {
					if txt := effectText(f); txt != "" {
						got = append(got, txt)
					}
				}
				if !slices.Equal(got, s.want) {
					t.Errorf("step %d: effects %q, want %q", i, got, s.want)
				}
				if reply != s.reply {
					t.Errorf("step %d: reply %q, want %q", i, reply, s.reply)
				}
				if s.taken != nil && taken != *s.taken {
					t.Errorf("step %d: challenge taken %v, want %v", i, taken, *s.taken)
				}
			}
		})
	}
}

// The entrant does nothing outside an input: its effects are returned, and
// the environment of one input does not leak into the next.
func TestEntrantInputIsolated(t *testing.T) {
	e := &entrant{log: zerolog.Nop()}
	cfg := config.Defaults()
	cfg.Tournament.TD = []string{"TD"}
	fx := e.input(entrantEnv{cfg: cfg.Tournament, tds: cfg.TrustedTDs()}, func() { e.owner("join 1", time.Time{}) })
	if len(fx) == 0 || e.out != nil || e.env.tds != nil {
		t.Fatalf("effects %v; left behind out %v, env %+v", fx, e.out, e.env)
	}
	if got := fmt.Sprint(e.active()); got != "true" {
		t.Fatalf("active %s after a join", got)
	}
}
