// Package layering holds no code, only tests of the house's shape as
// docs/architecture.md states it: who may import whom (one table of
// rules, each with its reason, and each must find packages to check; the
// engine, kriegbot/engine/..., is a library that imports nothing of ours
// outside engine/, its tests included), that only the commands under cli/
// parse command-line flags, and that no hand-written non-test Go file is
// over 800 lines.
package layering
