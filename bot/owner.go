package bot

import (
	"fmt"
	"strings"
	"time"

	"kriegbot/engine/players"
	"kriegbot/protocol"
)

// tell handles a personal tell: commands from an owner, a polite refusal
// (at most once an hour per handle, so nobody can make us flood) for others.
func (d *Daemon) tell(v protocol.PersonalTellDG) {
	if v.Type != 1 || strings.EqualFold(v.Name, d.sess.Handle()) {
		return // says from opponents, and our own keep-alive tells
	}
	cfg := d.config()
	text := strings.TrimSpace(v.Text)
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
	switch word {
	case "status":
		f, w, l, dr := d.Score()
		soft, _ := d.quitting()
		d.mu.Lock()
		paused := d.paused
		d.mu.Unlock()
		games := make([]string, 0, len(d.games))
		for n, g := range d.games {
			games = append(games, fmt.Sprintf("game %d vs %s, ply %d", n, g.t.opponent(), g.t.plies))
		}
		d.reply(v.Name, fmt.Sprintf("%d games finished (+%d -%d =%d); playing: %s; paused %v; quitting %v; seek %v; player %s",
			f, w, l, dr, orNone(games), paused, soft, cfg.Policy.Seek, d.opt.Spec.String()))
	case "pause":
		d.mu.Lock()
		d.paused = true
		d.mu.Unlock()
		d.sess.Send(protocol.UnseekLine(0))
		d.seekPosted = false
		d.reply(v.Name, "Paused: I finish my games and accept nothing new.")
	case "resume":
		d.mu.Lock()
		d.paused = false
		d.mu.Unlock()
		d.reply(v.Name, "Resumed.")
	case "softquit":
		d.reply(v.Name, "I will finish my games, then leave.")
		d.SoftQuit()
	case "hardquit":
		d.reply(v.Name, "Leaving now.")
		d.HardQuit()
	case "seek":
		on := rest == "on"
		if rest != "on" && rest != "off" {
			d.reply(v.Name, "Usage: seek on|off")
			return
		}
		d.mu.Lock()
		d.cfg.Policy.Seek = on
		d.mu.Unlock()
		if !on {
			d.sess.Send(protocol.UnseekLine(0))
			d.seekPosted = false
		}
		d.reply(v.Name, "seek "+rest)
	case "set":
		key, val, _ := strings.Cut(rest, " ")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !contains(cfg.Owner.Settable, key) {
			d.reply(v.Name, fmt.Sprintf("Not set: %s is not in owner.settable (%s).", key, strings.Join(cfg.Owner.Settable, ", ")))
			return
		}
		var spec players.Spec
		var err error
		if key == "engine.player" {
			spec, err = players.Parse(val, d.kinds())
		}
		if err == nil {
			d.mu.Lock()
			err = d.cfg.Set(key, val)
			d.mu.Unlock()
		}
		if err == nil && key == "engine.player" {
			d.opt.Spec = spec // from the next game on
		}
		if err != nil {
			d.reply(v.Name, "Not set: "+err.Error())
			return
		}
		d.reply(v.Name, fmt.Sprintf("%s set to %s.", key, strings.TrimSpace(val)))
	default:
		d.reply(v.Name, "Commands: status, pause, resume, softquit, hardquit, seek on|off, set <key> <value>.")
	}
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
	return strings.Join(s, "; ")
}
