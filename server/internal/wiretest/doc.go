// Package wiretest holds the servers' test clients, for the tests of the
// game table and of each door: a raw TCP client that waits for text, a
// tap client that keeps every byte for the golden transcripts, the
// session that drives tap clients one command at a time, the fake clock
// of the golden tests and the comparison with testdata/*.golden. It is
// imported by tests only.
package wiretest
