package server

import (
	"slices"
	"time"
)

// Limits that hold hostile clients: the budget for what a client's
// commands send to others, failed logins per address, connections per
// address. docs/robustness.md tells the scenarios they answer.

// spend tops up c's budget for output to others and reports whether a
// command that reaches others may run now. A client out of budget is told
// so, at most once a second.
func (tel *telnetDoor) spend(ev *Events, c *Client) bool {
	s := tel.s
	now := s.cfg.Now()
	if el := now.Sub(c.budgetAt); el > 0 {
		c.budget = min(float64(s.cfg.FanoutBurst), c.budget+el.Seconds()*float64(s.cfg.FanoutRate))
	}
	c.budgetAt = now
	if c.budget > 0 {
		return true
	}
	if now.Sub(c.warnedAt) >= time.Second {
		c.warnedAt = now
		ev.text(c, "You are sending too much to other players: wait a few seconds. Until then your tells, seeks and offers are refused.")
	}
	return false
}

// reserveLogin takes a place for one password check from host before the
// check runs (the check itself runs outside the server lock): a check
// counts as a failure unless it succeeds, so however many connections
// guess at once, one host gets LoginFailures+1 checks a minute. It
// reports the place, to give back on success, and false when none is left.
func (tel *telnetDoor) reserveLogin(host string) (time.Time, bool) {
	s := tel.s
	if tel.loginBlocked(host) {
		return time.Time{}, false
	}
	now := s.cfg.Now()
	tel.failures[host] = append(tel.failures[host], now)
	if len(tel.failures) > 10000 { // bound the table under a flood of hosts
		for h, ts := range tel.failures {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= time.Minute {
				delete(tel.failures, h)
			}
		}
	}
	return now, true
}

// releaseLogin gives back the place of a check that succeeded.
func (tel *telnetDoor) releaseLogin(host string, at time.Time) {
	ts := tel.failures[host]
	if i := slices.IndexFunc(ts, at.Equal); i >= 0 {
		tel.failures[host] = slices.Delete(ts, i, i+1)
	}
}

// loginBlocked reports whether host has used up its failed logins for the
// minute (LoginFailures, and the one that went over).
func (tel *telnetDoor) loginBlocked(host string) bool {
	s := tel.s
	now := s.cfg.Now()
	keep := tel.failures[host][:0]
	for _, t := range tel.failures[host] {
		if now.Sub(t) < time.Minute {
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 {
		delete(tel.failures, host)
	} else {
		tel.failures[host] = keep
	}
	return len(keep) > s.cfg.LoginFailures
}
