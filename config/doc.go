// Package config is the daemon's configuration: the schema (Config), the
// embedded defaults (Defaults), a strict TOML loader (Load, Parse) whose
// errors name the file, line and key, range checks (Validate), the owner's
// run-time "set" (Config.Set), the password lookup (Password) and the
// effective configuration as TOML (Config.Effective).
//
// Strictness is deliberate: a bot runs unattended for weeks, so a typo such
// as "max_game = 2" must stop it at start-up, not be silently ignored.
// Keys match exactly (case-sensitive); every error found is reported at once,
// sorted by line.
package config
