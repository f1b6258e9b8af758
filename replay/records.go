package replay

import (
	"io"

	"kriegbot/record"
)

// The game record's types live in package record (one schema for the
// writer and the reader); replay works on them under these names.
type (
	Record     = record.Record
	GameInfo   = record.GameInfo
	Step       = record.Step
	StepKind   = record.StepKind
	Search     = record.Search
	ResultInfo = record.ResultInfo
	LineError  = record.LineError
)

// Step kinds, as in package record.
const (
	StepAttempt = record.StepAttempt
	StepAnswer  = record.StepAnswer
	StepClock   = record.StepClock
	StepPonder  = record.StepPonder
)

// ReadRecord reads a per-game record (record.Read).
func ReadRecord(r io.Reader, name string) (*Record, error) { return record.Read(r, name) }
