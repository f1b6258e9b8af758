package registercmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"kriegbot/config"
	"kriegbot/internal/cmdflag"
	"kriegbot/protocol/ksclient"
)

// Command runs "kriegbot register -email ADDRESS [flags]". Exit status: 0
// registered, 1 the site refused or the token could not be stored, 2 bad
// usage or configuration.
func Command(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("register", flag.ContinueOnError)
	path := fset.String("config", "config.toml", "configuration file: server.url, account.handle and account.token_file come from it (built-in defaults when the default file is missing)")
	username := fset.String("username", "", "the bot's username, 1-33 letters, digits or _ (default: account.handle)")
	display := fset.String("display-name", "", "the name shown on the site, 3-40 characters (default: the username)")
	email := fset.String("email", "", "the owner's e-mail address (required)")
	desc := fset.String("description", "kriegbot: a Kriegspiel engine (belief state and Monte Carlo tree search).", "the bot's description, at most 280 characters")
	urlFlag := fset.String("url", "", "the API's base URL (default: server.url)")
	out := fset.String("o", "", "where to store the token, mode 0600 (default: account.token_file)")
	cmdflag.SetUsage(fset, "register -email ADDRESS [-username NAME] [-display-name NAME] [-description TEXT] [-config FILE] [-url URL] [-o FILE]",
		`Registers the bot on kriegspiel.org, playing the rule variants of
server.supported_rule_variants, and stores the token the site gives, once, in a file only you can read; the token is never printed. Then run
the bot with server.protocol = "kriegspiel". An existing token file is never
overwritten: the site has no way to recover or rotate a token.
`)
	if code, done := cmdflag.Parse(fset, args, stderr); done {
		return code
	}
	if fset.NArg() > 0 {
		return cmdflag.Fail(stderr, "register", "unexpected argument %q", fset.Arg(0))
	}
	cfg, _, err := config.LoadOrDefaults(*path, cmdflag.IsSet(fset, "config"))
	if err != nil {
		fmt.Fprintf(stderr, "kriegbot register: %v\n", err)
		return cmdflag.Usage
	}
	name := *username
	if name == "" {
		name = cfg.Account.Handle
	}
	if !ksclient.ValidUsername(name) {
		return cmdflag.Fail(stderr, "register", "username %q: want 1-33 letters, digits or _", name)
	}
	dn := *display
	if dn == "" {
		dn = name
	}
	switch {
	case len(dn) < 3 || len(dn) > 40:
		return cmdflag.Fail(stderr, "register", "-display-name: want 3-40 characters, got %d", len(dn))
	case *email == "" || !strings.Contains(*email, "@") || len(*email) > 320:
		return cmdflag.Fail(stderr, "register", "-email: want the owner's e-mail address")
	case len(*desc) > 280:
		return cmdflag.Fail(stderr, "register", "-description: at most 280 characters, got %d", len(*desc))
	}
	base := *urlFlag
	if base == "" {
		base = cfg.Server.URL
	}
	file := *out
	if file == "" {
		file = cfg.Account.TokenFile
	}
	if file == "" {
		return cmdflag.Fail(stderr, "register", "no file to store the token in: give -o FILE or set account.token_file")
	}
	if _, err := os.Stat(file); err == nil {
		fmt.Fprintf(stderr, "kriegbot register: %s exists: a bot is registered already (remove the file only if its token is lost)\n", file)
		return 1
	}
	c, err := ksclient.New(ksclient.Config{URL: base, Timeout: 30 * time.Second, UserAgent: "kriegbot-register"})
	if err != nil {
		return cmdflag.Fail(stderr, "register", "%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	reg, err := c.Register(ctx, ksclient.Registration{Username: name, DisplayName: dn, OwnerEmail: *email,
		Description: *desc, RuleVariants: cfg.Server.SupportedRuleVariants})
	if err != nil {
		if ksclient.Code(err) == "USERNAME_TAKEN" {
			fmt.Fprintf(stderr, "kriegbot register: the username %q is taken\n", name)
		} else {
			fmt.Fprintf(stderr, "kriegbot register: %s\n", ksclient.Mask(err.Error(), ""))
		}
		return 1
	}
	if _, err := config.ParseToken([]byte(reg.APIToken)); err != nil {
		fmt.Fprintf(stderr, "kriegbot register: the site's token is not usable: %v\n", err)
		return 1
	}
	if err := store(file, reg.APIToken); err != nil {
		fmt.Fprintf(stderr, "kriegbot register: registered as %s, but the token could not be stored: %v\n", reg.Username, err)
		return 1
	}
	fmt.Fprintf(stdout, "registered bot %s on %s, playing %s; its token is in %s (mode 0600). Keep that file: the site shows a token only once.\n",
		reg.Username, base, strings.Join(cfg.Server.SupportedRuleVariants, ", "), file)
	fmt.Fprintf(stdout, "Play with: server.protocol = \"kriegspiel\", server.embedded = false, account.handle = %q, account.token_file = %q\n", reg.Username, file)
	return 0
}

// store writes the token to a new file of mode 0600 (its folder 0700 if
// made), never replacing one.
func store(file, token string) error {
	if dir := filepath.Dir(file); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, token+"\n"); err != nil {
		f.Close()
		os.Remove(file)
		return err
	}
	return f.Close()
}
