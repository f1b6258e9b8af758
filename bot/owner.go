package bot

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/config"
	"kriegbot/engine/players"
	"kriegbot/protocol"
)

// ownerCommand is one command the owner may tell the bot. The table below
// is the only list: dispatch and the help line are made from it.
type ownerCommand struct {
	name string
	args string // usage of the arguments, "" for none
	help string
	run  func(d *Daemon, from, rest string)
}

// ownerCommands is the owner's command table, in help order.
func ownerCommands() []ownerCommand {
	return []ownerCommand{
		{"status", "", "games, score, pause and quit state, the player", (*Daemon).ownerStatus},
		{"pause", "", "finish the games in progress and accept nothing new", (*Daemon).ownerPause},
		{"resume", "", "accept games again", (*Daemon).ownerResume},
		{"softquit", "", "finish the games in progress, then leave", func(d *Daemon, from, _ string) {
			d.reply(from, "I will finish my games, then leave.")
			d.SoftQuit()
		}},
		{"hardquit", "", "leave now (games in progress are lost)", func(d *Daemon, from, _ string) {
			d.reply(from, "Leaving now.")
			d.HardQuit()
		}},
		{"seek", "on|off", "post or withdraw our seek", (*Daemon).ownerSeek},
		{"set", "<key> <value>", "change a key listed in owner.settable", (*Daemon).ownerSet},
		{"tourney", "[join N [td]|leave [N]]", "tournament status; join an event (of a trusted TD), or leave", (*Daemon).ownerTourney},
	}
}

// ownerHelp is the reply to an unknown command.
func ownerHelp() string {
	var names []string
	for _, c := range ownerCommands() {
		names = append(names, strings.TrimSpace(c.name+" "+c.args))
	}
	return "Commands: " + strings.Join(names, ", ") + "."
}

// tell handles a personal tell: commands from an owner, a polite refusal
// (at most once an hour per handle, so nobody can make us flood) for others.
func (d *Daemon) tell(v protocol.PersonalTellDG) {
	if strings.EqualFold(v.Name, d.sess.Handle()) {
		return // our own keep-alive tells
	}
	cfg := d.config()
	text := strings.TrimSpace(v.Text)
	if l, err := protocol.ParseTDLine(text); err == nil {
		// A TD line in a tell (any tell type: a TD may qtell): obeyed
		// from a trusted TD only, which tdLine checks and logs.
		now := d.opt.Now()
		d.tourney(now, func(t *entrant) { t.tdLine(l, v.Name, text, now) })
		return
	}
	if d.trustedTD(v.Name) && !contains(cfg.Owner.Handles, v.Name) {
		text := strings.TrimRight(v.Text, " \t\r\n") // a table row keeps its leading blanks
		d.tourney(d.opt.Now(), func(t *entrant) { t.tdTell(v.Name, text) })
		return
	}
	if v.Type != 1 {
		return // says from opponents
	}
	if !contains(cfg.Owner.Handles, v.Name) {
		now := d.opt.Now()
		if last, ok := d.refusedTell[strings.ToLower(v.Name)]; ok && now.Sub(last) < time.Hour {
			return
		}
		if len(d.refusedTell) > 1000 {
			d.refusedTell = map[string]time.Time{}
		}
		d.refusedTell[strings.ToLower(v.Name)] = now
		d.opt.Log.Info().Str("from", v.Name).Str("text", text).Msg("tell from a non-owner")
		d.reply(v.Name, "I am a computer program (kriegbot) and take commands only from my owner. Challenge me to wild 16!")
		return
	}
	word, rest, _ := strings.Cut(text, " ")
	word = strings.ToLower(word)
	rest = strings.TrimSpace(rest)
	d.opt.Log.Info().Str("owner", v.Name).Str("command", word).Str("args", rest).Msg("owner command")
	for _, c := range ownerCommands() {
		if c.name == word {
			c.run(d, v.Name, rest)
			return
		}
	}
	d.reply(v.Name, ownerHelp())
}

func (d *Daemon) ownerStatus(from, _ string) {
	cfg := d.config()
	f, w, l, dr := d.Score()
	soft, _ := d.quitting()
	d.mu.Lock()
	paused := d.paused
	d.mu.Unlock()
	games := make([]string, 0, len(d.games))
	for _, g := range d.games {
		games = append(games, g.t.String())
	}
	d.reply(from, fmt.Sprintf("%d games finished (+%d -%d =%d), playing: %s, paused %v, quitting %v, seek %v, player %s, tourney: %s",
		f, w, l, dr, orNone(games), paused, soft, cfg.Policy.Seek, d.players(), d.tour.status()))
}

func (d *Daemon) ownerPause(from, _ string) {
	d.mu.Lock()
	d.paused = true
	d.mu.Unlock()
	d.unseek()
	d.reply(from, "Paused: I finish my games and accept nothing new.")
}

func (d *Daemon) ownerResume(from, _ string) {
	d.mu.Lock()
	d.paused = false
	d.mu.Unlock()
	d.reply(from, "Resumed.")
}

func (d *Daemon) ownerSeek(from, rest string) {
	on := rest == "on"
	if rest != "on" && rest != "off" {
		d.reply(from, "Usage: seek on|off")
		return
	}
	d.mu.Lock()
	d.cfg.Policy.Seek = on
	d.mu.Unlock()
	if !on {
		d.unseek()
	}
	d.reply(from, "seek "+rest)
}

func (d *Daemon) ownerSet(from, rest string) {
	cfg := d.config()
	key, val, _ := strings.Cut(rest, " ")
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if !contains(cfg.Owner.Settable, key) {
		d.reply(from, fmt.Sprintf("Not set: %s is not in owner.settable (%s).", key, strings.Join(cfg.Owner.Settable, ", ")))
		return
	}
	// A player spec is parsed from the value as Set reads it (quotes
	// taken off) before the config takes it; "" for wild16_player is none.
	next := cfg
	err := next.Set(key, val)
	var spec players.Spec
	if text := playerSpec(next, key); err == nil && text != "" {
		spec, err = players.Parse(text, players.Kinds())
	}
	if err == nil {
		d.mu.Lock()
		err = d.cfg.Set(key, val)
		d.mu.Unlock()
	}
	if err != nil {
		d.reply(from, "Not set: "+err.Error())
		return
	}
	switch key { // a player from the next game on
	case "engine.player":
		d.opt.Spec = spec
	case "engine.wild16_player":
		d.opt.Wild16Spec = spec
	default:
		d.reply(from, fmt.Sprintf("%s set to %s.", key, val))
		return
	}
	d.reply(from, fmt.Sprintf("%s set to %s: from the next game on I play %s.", key, val, d.players()))
}

// playerSpec is the player spec key holds in c, "" for a key that holds
// none.
func playerSpec(c config.Config, key string) string {
	switch key {
	case "engine.player":
		return c.Engine.Player
	case "engine.wild16_player":
		return c.Engine.Wild16Player
	}
	return ""
}

func (d *Daemon) reply(to, text string) {
	if line, err := protocol.TellLine(to, text); err == nil {
		d.sess.Send(line)
	}
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " / ")
}
