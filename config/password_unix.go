//go:build unix

package config

import "syscall"

// openNonBlock opens a password file without waiting for a writer, should
// the path turn into a named pipe between the check and the open.
const openNonBlock = syscall.O_NONBLOCK
