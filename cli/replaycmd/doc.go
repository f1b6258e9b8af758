// Package replaycmd is "kriegbot replay": the flags, the choice of the file's
// kind (a match file's game is turned into its player's record by package
// match; records and transcripts are read by replay.Load), the progress
// line, and the output: text, the step-through view on a terminal, an HTML
// page, and exit 1 when the re-run chose differently.
package replaycmd
