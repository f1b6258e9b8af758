// Package modelcmd is the `kriegbot model` command: `model build` turns PGN
// game records into an opponent model file, `model show` prints what a model
// holds (the embedded default by default).
package modelcmd
