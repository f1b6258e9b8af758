// Package kshttp is the kriegspiel.org bot API door's wire layer: the
// routes of API.md, the /api prefix, bearer tokens and game references,
// read by pure, bounded, fuzzed parsers. The door's handlers (bots, the
// lobby, games, event streams) are still in package server, under the
// server's one lock.
package kshttp
