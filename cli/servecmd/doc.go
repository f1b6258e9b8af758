// Package servecmd is `kriegbot serve`: it reads the flags and composes
// the server (package server: the game table with its telnet door and,
// for now, the HTTP door and the TD) with the listeners it serves on.
package servecmd
