package tddoor

import (
	"fmt"

	"kriegbot/protocol/handle"
	"kriegbot/server"
)

// New opens the TD on the table s: it checks cfg, reads the events kept
// in Dir, resumes them, opens cfg.Events not already running, and
// becomes the table's Director (it follows the games before the doors
// opened after it).
func New(s *server.Server, cfg Config) (*Door, error) {
	cfg.fill()
	d := &Door{s: s, cfg: cfg, cmds: tdCommands(), nextID: 1, budgets: map[*server.Client]*tellBudget{}}
	if !handle.Valid(cfg.Handle) || cfg.Style != "icc" && cfg.Style != "fics" {
		return nil, fmt.Errorf("server: TD handle %q or style %q not valid", cfg.Handle, cfg.Style)
	}
	s.Lock()
	defer s.Unlock()
	s.SetDirector(d)
	if err := d.load(); err != nil {
		return nil, fmt.Errorf("server: TD: %w", err)
	}
	d.resume()
	ev := s.NewEvents()
	for _, sp := range cfg.Events {
		if d.runningNamed(sp.Name) {
			continue // kept in Dir from before a restart
		}
		if _, err := d.openEvent(ev, sp); err != nil {
			return nil, fmt.Errorf("server: TD: %s: %w", sp, err)
		}
	}
	ev.Flush()
	return d, nil
}

// The table's questions (server.Director), asked with its lock held.

// Handle is the TD's name.
func (d *Door) Handle() string { return d.handle() }

// Login greets a user who logged in: its pairings, its events.
func (d *Door) Login(ev *server.Events, c *server.Client) { d.login(ev, c) }

// Left forgets a user who left; a guest leaves its events at once (it
// never comes back under its name).
func (d *Door) Left(ev *server.Events, c *server.Client) {
	delete(d.budgets, c)
	if c.Guest() && !d.s.Closed() {
		d.departed(ev, c.Handle())
	}
}

// ListEvents sends c DG 63 for every event not over.
func (d *Door) ListEvents(ev *server.Events, c *server.Client) {
	for _, te := range d.events {
		if !te.over() {
			d.listDGTo(ev, c, te)
		}
	}
}

// Refuse reports (and tells c) whether a pairing keeps c from a game with
// opponent ("" for a seek ad).
func (d *Door) Refuse(ev *server.Events, c *server.Client, opponent string) bool {
	return d.refuse(ev, c, opponent)
}

// Pairing returns the terms of the game handle is paired to play with
// opponent, if any.
func (d *Door) Pairing(handle, opponent string) (minutes, inc int, event string, ok bool) {
	b := d.pairedBoard(handle, opponent)
	if b == nil {
		return 0, 0, "", false
	}
	return b.ev.Spec.Minutes, b.ev.Spec.Inc, b.ev.title(), true
}

// Answer answers c's pairing with opponent.
func (d *Door) Answer(ev *server.Events, c *server.Client, opponent string) {
	if b := d.pairedBoard(c.Handle(), opponent); b != nil {
		d.answer(ev, c, b)
	}
}

// Flush writes the events with changes not yet written.
func (d *Door) Flush() { d.flush() }
