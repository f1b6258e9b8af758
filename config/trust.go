package config

import (
	"net/url"
	"strings"
)

// OwnTD is the handle of the director built into `kriegbot serve`.
const OwnTD = "TD"

// TrustedTDs is tournament.td in effect: the list as set, or, when the
// key is not set, OwnTD on our own server (OwnServer) and nobody
// elsewhere. On an outside server "TD" is whoever registered that handle,
// and trusting it would let a stranger pair the bot or end its events.
// The result is a new slice.
func (c Config) TrustedTDs() []string {
	if c.Tournament.TD != nil {
		return append([]string{}, c.Tournament.TD...)
	}
	if c.OwnServer() {
		return []string{OwnTD}
	}
	return []string{}
}

// OwnServer reports whether the bot plays on a server of ours: the
// embedded one, or one on this machine (a loopback host, where `kriegbot
// serve` or `kriegbot tourney` listens). For server.protocol
// "kriegspiel" the host is server.url's.
func (c Config) OwnServer() bool {
	s := c.Server
	if s.Embedded {
		return true
	}
	if s.Protocol == "kriegspiel" {
		u, err := url.Parse(s.URL)
		return err == nil && isLoopback(u.Hostname())
	}
	return isLoopback(s.Host)
}

// tdNote explains, in -check's output, where tournament.td comes from.
func (c Config) tdNote() string {
	switch {
	case c.Tournament.TD != nil:
		return ""
	case c.OwnServer():
		return "# td is not set: the default trusts \"" + OwnTD + "\", because the server is our own (embedded or on loopback)\n"
	}
	host := c.Server.Host
	if c.Server.Protocol == "kriegspiel" {
		host = c.Server.URL
	}
	return "# td is not set: the default trusts no TD, because " + strings.TrimSpace(host) + " is not our own server (\"" + OwnTD + "\" there is whoever holds the handle)\n"
}
