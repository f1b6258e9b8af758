// Package kshttp is the kriegspiel.org bot API door's wire layer: the
// routes of docs/kriegspiel-org-api.md, the /api prefix, bearer tokens and game references,
// read by pure, bounded, fuzzed parsers (parse.go); the answers and the
// site's error shapes, and request bodies read (reply.go) and checked
// (bodies.go); and the referee
// as the site shows it, projected from the umpire's record into ksapi's
// types and words (referee.go). The door's handlers (bots, the lobby,
// games, event streams) are still in package server, under the server's
// one lock.
package kshttp
