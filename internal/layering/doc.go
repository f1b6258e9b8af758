// Package layering holds no code, only a test of the dependency rule of
// docs/design.md: the engine (kriegbot/engine/...) is a library that
// imports nothing of ours outside kriegbot/engine/, its tests included, and
// no engine package parses command-line flags (commands live in cli/).
package layering
