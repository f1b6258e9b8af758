//go:build !unix

package config

// openNonBlock is 0 where named pipes do not live in the file system.
const openNonBlock = 0
