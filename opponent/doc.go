// Package opponent builds, keeps and scores opponent models around the
// engine's model (engine/oppmodel, which holds the Counts, the file format,
// the Model the belief reads and the embedded default): a Store keeps one
// Counts file per opponent handle, adds each finished game to it and blends
// it with a base model (oppmodel.Blend); Bases are those base models, one
// per rule variant: a built file (ModelPath) or the embedded default;
// Evaluate and TrendAgreement score a model on held-out games;
// WriteFileAtomic writes model files safely. PGN game records are read by
// opponent/pgnread, the site's finished games fetched and stored by
// opponent/sitegames; the `kriegbot model` command is cli/modelcmd.
package opponent
