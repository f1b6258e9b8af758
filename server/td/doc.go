// Package td holds what the server's tournament director and the programs
// that follow its events share: the spec an event is opened with (its
// text form, read by ParseEventSpec and written by String) and the files
// where an event is kept. The director itself (pairings, tells, its games)
// is still in package server, under the server's one lock.
package td
