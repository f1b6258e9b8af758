// Package buildinfo names the running program's build, for game records: a
// replay compares it with the record's to say when other code may choose
// otherwise.
package buildinfo
