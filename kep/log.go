package kep

import (
	"io"

	"github.com/rs/zerolog"
)

// newLog is the engine's logger on w: zerolog, the project's one logger, in
// its console form without colours or time (a harness shows or timestamps
// an engine's standard error itself), one line per event: the level, the
// message, then the fields (line=N names the input line). Writes are
// serialised: the reader goroutine logs too.
func newLog(w io.Writer) zerolog.Logger {
	return zerolog.New(zerolog.ConsoleWriter{
		Out:        zerolog.SyncWriter(w),
		NoColor:    true,
		PartsOrder: []string{zerolog.LevelFieldName, zerolog.MessageFieldName},
	})
}
