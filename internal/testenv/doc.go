// Package testenv reads the settings that opt-in tests (soaks, long runs
// against outside programs) take from the environment, so that each is
// read and refused the same way.
package testenv
