// Package opponent builds, keeps and scores opponent models around the
// engine's model (engine/oppmodel, which holds the Counts, the file format,
// the Model the belief reads and the embedded default): a Store keeps one
// Counts file per opponent handle, adds each finished game to it and blends
// it with the default (oppmodel.Blend); Evaluate and TrendAgreement score a
// model on held-out games; WriteFileAtomic writes model files safely.
// PGN game records are read by opponent/pgnread; the `kriegbot model`
// command is cli/modelcmd.
package opponent
