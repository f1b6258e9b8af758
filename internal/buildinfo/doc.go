// Package buildinfo names the build of kriegbot that runs: its module
// version and VCS revision from the Go build information, and a hash of the
// source files that decide play (engine/, opponent/ and go.mod), generated
// into sources.go by go generate and checked by this package's test.
//
// The hash is what a replay compares: go run and go build of the same
// source stamp different build information (go run records no VCS
// revision) and make different executables, but compile the same sources,
// so their play hashes are equal; a change to the engine changes it.
package buildinfo
