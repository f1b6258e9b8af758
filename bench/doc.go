// Package bench measures the speed figures of the engine's hot paths (All),
// which "kriegbot bench" (cli/benchcmd) prints one line each as "<name>
// <value> <unit>", so that runs on different machines and commits can be
// compared and speed targets checked outside the unit tests. Figures are
// single-threaded unless their name says otherwise.
package bench
