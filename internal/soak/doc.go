// Package soak holds the restart soak (restart_test.go), an opt-in test
// that builds kriegbot and kills its server with SIGKILL again and again
// under playing daemons: two seeking daemons, then two daemons in a TD
// event. It checks that every game each daemon started has exactly one
// record, that each record replays without error (kriegbot replay), that
// the server's records hold every finished game, and that the daemons
// play on after each restart.
//
// It never runs in CI or a plain go test ./...: it takes minutes and
// starts processes. Run it with
//
//	KRIEGBOT_RESTART_SOAK=1 go test -run RestartSoak -timeout 60m -v ./internal/soak
//
// KRIEGBOT_RESTART_SOAK_N sets the number of restarts per part (20),
// KRIEGBOT_RESTART_SOAK_SEED the schedule of kills (1), and
// KRIEGBOT_RESTART_SOAK_DIR keeps the servers' and daemons' logs and
// records there (else a temporary folder); each part leaves its figures in
// summary.txt. (bot's TestSoak is the other soak: faults on the wire.)
// The package has no code of its own.
package soak
