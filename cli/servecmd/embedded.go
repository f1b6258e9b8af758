package servecmd

import (
	"github.com/rs/zerolog"

	"kriegbot/bot"
	"kriegbot/engine/umpire"
	"kriegbot/server/loopback"
)

// StartEmbedded starts kriegbot run's embedded server: the daemon asks for
// it through bot.StartServer, so that the daemon does not import the
// server it plays on.
func StartEmbedded(rules umpire.Rules, handles []string, recordDir, addr string, log zerolog.Logger) (bot.EmbeddedServer, error) {
	srv, err := loopback.Start(rules, handles, recordDir, addr, log)
	if err != nil {
		return nil, err // not a nil *loopback.Server inside a non-nil interface
	}
	return srv, nil
}
