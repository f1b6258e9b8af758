// Package tourneycmd is "kriegbot tourney": a local computer olympiad in
// one command. It starts "kriegbot serve" in-process with its TD running
// one event, and one daemon per player (the same daemon that plays on ICC,
// in tournament mode: it joins the event, answers its pairings and plays
// nothing else) over loopback TCP; it follows the event from the TD's
// saved state, shows each pairing and result, and at the end prints the
// crosstable and names the PGN and HTML files the TD wrote. With -addr,
// outside ICC-protocol bots can join the same event by "tell TD join 1".
//
// An event in one of kriegspiel.org's variants other than wild 16 (-rules
// berkeley_any) cannot go over the server, whose telnet door plays wild 16
// only: it is played in-process (variant.go), paired and scored by package
// tourney as the TD does, each game through match's runner.
package tourneycmd
