package bot

import (
	"fmt"
	"time"

	"kriegbot/driver"
	"kriegbot/engine/chess"
	"kriegbot/engine/clock"
	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
	"kriegbot/live"
	"kriegbot/record"
	"kriegbot/track"
)

// The one game loop of both backends: a game starts (startGame), is driven
// at every turn of its backend's loop (drive: the tracker's events to the
// driver, the driver's actions to the backend), hears its searches' results
// (thought), and finishes (endGame). What differs by server (how an
// attempt is sent, what a desync costs, how a record is completed) is the
// backend's adapter: the playing interface, implemented by gameRun (ICC,
// games.go) and ksGame (kriegspiel.org, ksgames.go).

// seat is one game in progress as the loop sees it, whichever the server.
type seat struct {
	drv     *driver.Game
	number  int    // the game's number (the record's)
	opp     string // the opponent's handle
	control clock.Control
	// model is the per-opponent model the player was given (zero: none).
	model prior
	// lastAttempt is the last attempt sent, for the console's move lines.
	lastAttempt driver.Action
	// live is what the operator's page shows of the game.
	live liveGame
}

// playing is one game of a backend, as the game loop drives it.
type playing interface {
	// shared is the game's driver and what is shown of it.
	shared() *seat
	// tracker is the game's tracker.
	tracker() track.Game
	// heed acts on what the tracker noticed besides the player's events
	// (a desync, words not understood), before they are heard.
	heed(now time.Time)
	// showAnswers prints answers heard (verbose console).
	showAnswers(ev []players.Event)
	// mayAct reports that the backend can take an attempt now (beside
	// the tracker's Due).
	mayAct() bool
	// wanted reports that a finished search's attempt is still wanted.
	wanted() bool
	// send carries out the driver's actions.
	send(acts []driver.Action)
	// finish closes the game (endGame, then the backend's records).
	finish(now time.Time)
}

// gameStart is what a backend knows of a game about to be played.
type gameStart struct {
	us chess.Color
	// me is our handle as the server knows it (a guest's is the one it
	// assigned at login), which names the record's file.
	me      string
	control clock.Control
	number  int    // the game's number, mixed into its seed
	opp     string // the opponent's handle
	learn   bool   // use and teach the opponent's model (not for a guest)
	// line is the record's game line with the backend's fields (players,
	// time control, rated, wild); the rest is filled here.
	line record.GameLine
	// resumed is a record to go on with (a game given back after a
	// reconnection), or nil for a new one.
	resumed *record.Writer
	// spec is the player of the game resumed (its record names it), the
	// zero Spec for a new game: specFor's.
	spec players.Spec
	// rules are the game's rules when not the daemon's (a kriegspiel.org
	// game in a variant other than wild 16), else nil.
	rules *umpire.Rules
}

// startGame makes a game's driver, its player prepared with the opponent's
// model, and its record, into s; it returns the game's seed. An error is a
// player that refused the game (logged here: the backend resigns it).
func (d *Daemon) startGame(st gameStart, s *seat, now time.Time) (uint64, error) {
	cfg := d.config()
	d.gameSeq++
	seed := d.opt.Seed ^ (d.gameSeq * 0x9e3779b97f4a7c15) ^ uint64(st.number)
	s.number, s.opp, s.control = st.number, st.opp, st.control
	rules := d.rules()
	if st.rules != nil {
		rules = *st.rules
	}
	spec := st.spec
	if spec.String() == "" {
		spec = d.specFor(rules)
	}
	setup := driver.Setup{
		Spec: spec, Game: players.Game{Color: st.us, Rules: rules, Control: st.control, Seed: seed},
		Prepare: func(p players.Player) {
			s.model = d.learner.priorFor(p, st.opp, rules.Variant.Name, cfg.Engine.VariantModels, st.learn, d.opt.Log)
		},
		Settings: d.settings(),
	}
	drv, err := driver.New(setup, d.thinkDone)
	if err != nil {
		d.opt.Log.Error().Err(err).Msg("player refused the game; resigning")
		return seed, err
	}
	s.drv = drv
	if st.resumed != nil {
		drv.SetRecord(st.resumed)
	} else if d.opt.Dir != "" && cfg.Logs.Records {
		gl := st.line
		gl.Seed, gl.Player, gl.Build, gl.OpponentModel, gl.BaseModel = record.Seed(seed), spec.String(), d.build, s.model.name, s.model.baseName
		gl.SetRules(rules)
		drv.SetRecord(record.CreateWith(d.opt.Dir, st.me, gl, st.us, now, s.model.files))
	}
	return seed, nil
}

// specFor is the player of a game under rules: engine.wild16_player's
// under wild 16's announcements when set, else engine.player's.
func (d *Daemon) specFor(rules umpire.Rules) players.Spec {
	if rules.Variant.IsWild16() && d.opt.Wild16Spec.String() != "" {
		return d.opt.Wild16Spec
	}
	return d.opt.Spec
}

// players names the player, and the wild 16 games' when another.
func (d *Daemon) players() string { return playersText(d.opt.Spec, d.opt.Wild16Spec) }

// playersText names spec, and wild16 when it is set and another.
func playersText(spec, wild16 players.Spec) string {
	if w := wild16.String(); w != "" && w != spec.String() {
		return fmt.Sprintf("%s (wild 16: %s)", spec, w)
	}
	return spec.String()
}

// drive hands each game's events to its driver, lets it act, and finishes
// the games that are over.
func drive[K comparable, G playing](d *Daemon, games map[K]G, now time.Time) {
	for _, g := range games {
		d.driveOne(g, now)
	}
}

func (d *Daemon) driveOne(g playing, now time.Time) {
	s, t := g.shared(), g.tracker()
	g.heed(now)
	ev := t.TakeEvents()
	g.showAnswers(ev)
	s.drv.Hear(ev, now)
	if len(ev) > 0 {
		d.liveHeard(&s.live, s.drv, ev)
	}
	_, _, _, over := t.Over()
	if s.drv.Thinking() {
		if over {
			s.drv.Stop()
		}
		return
	}
	if over {
		g.finish(now)
		return
	}
	if g.mayAct() && t.Due() {
		acts := s.drv.Act(now, driver.Situation{Since: t.TurnStart(), Clock: t.Clock(t.Us(), now),
			Lag: t.Lag(), MoveNumber: t.Plies()/2 + 1})
		s.live.searched(acts, t.Plies())
		g.send(acts)
	}
}

// thought hands a finished search to its game, if still in progress: its
// attempt is sent if still wanted.
func thought[K comparable, G playing](d *Daemon, games map[K]G, th driver.Thought) {
	for _, g := range games {
		if s := g.shared(); s.drv == th.Game {
			acts := s.drv.Done(th, g.wanted(), d.opt.Now())
			s.live.searched(acts, g.tracker().Plies())
			g.send(acts)
			return
		}
	}
}

// stopThinking stops every game's search.
func stopThinking[K comparable, G playing](games map[K]G) {
	for _, g := range games {
		g.shared().drv.Stop()
	}
}

// endGame closes a finished game's player and record line, and counts it:
// the operator's page, the score, the console. label names the game in the
// log and on the console. It returns the tracker's ending.
func (d *Daemon) endGame(g playing, label string, now time.Time) (result, code, reason string) {
	s, t := g.shared(), g.tracker()
	result, code, reason, _ = t.Over()
	illegal := t.Illegal()
	s.drv.End(players.Outcome{Result: result, Reason: reason},
		record.ResultLine{Code: code, Plies: t.Plies(), LagMs: t.Lag().Milliseconds()}, now)
	us := t.Us()
	d.liveFinished(live.Finished{Number: s.number, Opponent: s.opp, Us: us.String(),
		Result: result, Reason: reason, Plies: t.Plies()}, s.drv)
	d.scoreGame(label, s.opp, us, result, code, reason, t.Plies(), illegal, t.Clock(us, now), now)
	return result, code, reason
}

// abandonGames ends the games we leave in progress (a second signal,
// hardquit, or a quitting daemon whose server stays down): each record gets
// its result line, "*" (the server decides the game, we cannot know how)
// with why, and is closed. It returns a description of each, by describe.
func abandonGames[K comparable, G playing](games map[K]G, why string, now time.Time, describe func(G) string) []string {
	var out []string
	for k, g := range games {
		out = append(out, describe(g))
		s, t := g.shared(), g.tracker()
		s.drv.End(players.Outcome{Result: "*", Reason: why},
			record.ResultLine{Plies: t.Plies(), LagMs: t.Lag().Milliseconds()}, now)
		if r := s.drv.Record(); r != nil {
			r.Close()
		}
		delete(games, k)
	}
	return out
}

// liveGames are the games in progress for the operator's page.
func liveGames[K comparable, G playing](games map[K]G, now time.Time) []live.Game {
	var out []live.Game
	for _, g := range games {
		s, t := g.shared(), g.tracker()
		us := t.Us()
		out = append(out, liveGameOf(liveView{number: s.number, opponent: s.opp, us: us, control: s.control,
			plies: t.Plies(), clockUs: t.Clock(us, now), clockThem: t.Clock(us.Other(), now), ourTurn: t.OurTurn(),
			drv: s.drv, lastAttempt: s.lastAttempt, live: &s.live}))
	}
	return out
}
