// Package oppmodel is the opponent model of approaches B and C as the engine
// reads it (paper: docs/references.md, sections 5 and 5.2): per colour, unit
// class, square and move number, how often the opponent's units stand there
// (D_w, D_b) and the trend from one move to the next that drives the belief's
// random walks, plus the pawns' one-way Markov chains, which class the
// opponent moves, and the behavioural constants (Params) of the paper's
// second set of assumptions.
//
// Counts are the model's data: exact integer tallies from game records that
// add up game by game (AddGame, Add), written in a versioned, checksummed file
// format (file.go; docs/opponent-model.md). A Model is derived from Counts
// (smoothed where data is thin) and serves the belief without allocating;
// Blend mixes a per-opponent model into the default. The default model is
// embedded (Default), because players and kep use it.
//
// The package imports only engine/chess (and engine/umpire in tests). What
// builds and keeps models around it lives outside the engine: package
// opponent (the per-opponent store, held-out evaluation), opponent/pgnread and
// the `kriegbot model` command (cli/modelcmd).
package oppmodel
