package bot

import (
	"github.com/rs/zerolog"

	"kriegbot/engine/umpire"
	"kriegbot/server/loopback"
)

// testParts are the run command's parts as cli gives them, composed here
// because the tests of package bot cannot import cli (cli imports bot).
func testParts() Parts { return Parts{StartServer: startLoopback} }

func startLoopback(rules umpire.Rules, handles []string, recordDir, addr string, log zerolog.Logger) (EmbeddedServer, error) {
	srv, err := loopback.Start(rules, handles, recordDir, addr, log)
	if err != nil {
		return nil, err
	}
	return srv, nil
}
