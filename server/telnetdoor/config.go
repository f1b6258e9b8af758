package telnetdoor

import "time"

// Config sets up the telnet door's limits on what its clients send and
// are sent. Zero fields take the defaults in their comments. The table's
// server.Config holds the rest: the connections (MaxConns,
// MaxConnsPerHost), the accounts and guests, the clock and the log.
type Config struct {
	// MaxLine bounds one input line (default 4096 bytes); longer lines are
	// refused and skipped.
	MaxLine int
	// MaxOutput bounds the bytes queued for one client (default 256 KiB,
	// about ICC's 122,000-byte buffer twice over); a client that lets it
	// fill is disconnected. Once half of it is taken, what other clients'
	// commands would send it (tells, seek ads, challenges) is held back, so
	// only its own commands and games can fill it.
	MaxOutput int
	// FanoutBurst and FanoutRate are each client's budget for what its
	// commands send to others (tells, says, seeks, offers), in bytes: a
	// command costs the most it sends to any one other client; the budget
	// holds FanoutBurst (default 32 KiB) and refills at FanoutRate per
	// second (default 4 KiB). A client out of budget is told so and its
	// commands that reach others are refused until it refills.
	FanoutBurst int
	FanoutRate  int
	// LoginTimeout bounds the time from connect to a finished login
	// (default 60 s). IdleTimeout logs out a client silent that long
	// outside a game (default 2 h; negative disables).
	LoginTimeout time.Duration
	IdleTimeout  time.Duration
	// LoginFailures is how many failed logins one address may make per
	// minute before it is cut off (default 10).
	LoginFailures int
}

func (c *Config) fill() {
	if c.FanoutBurst == 0 {
		c.FanoutBurst = 32 << 10
	}
	if c.FanoutRate == 0 {
		c.FanoutRate = 4 << 10
	}
	if c.MaxLine == 0 {
		c.MaxLine = 4096
	}
	if c.MaxOutput == 0 {
		c.MaxOutput = 256 << 10
	}
	if c.LoginTimeout == 0 {
		c.LoginTimeout = 60 * time.Second
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 2 * time.Hour
	}
	if c.LoginFailures == 0 {
		c.LoginFailures = 10
	}
}
