// Package timecontrol reads the server's time controls, "minutes+increment"
// ("25+10", "25m+10s", "rapid"): the one reader of the server's clocks,
// for the HTTP door's flag, a TD event's tc and `kriegbot tourney -tc`.
package timecontrol
