// Package runcmd is "kriegbot run": the flags, the configuration file (or
// the built-in defaults), -check, the console and the operator's live page;
// then bot.Play runs the daemons, with the embedded server of cli/servecmd
// and replay's pages composed here, so that package bot imports neither.
package runcmd
