// Package rotate is a size-based rotating log file for line-oriented logs
// (zerolog's JSON lines). Each Write is appended with one write(2) on a file
// opened with O_APPEND and nothing is buffered, so a crash loses at most the
// line being written. A line is never split across files: when a Write would
// take the file past its size limit, the file is first renamed to name.1
// (name.1 to name.2, and so on, dropping the oldest) and a new one is begun.
package rotate
