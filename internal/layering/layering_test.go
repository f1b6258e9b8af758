package layering

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listFormat prints one package per line: its path, then its imports, its
// test files' imports and its external test package's imports, separated by
// tabs.
const listFormat = `{{.ImportPath}}	{{join .Imports " "}}	{{join .TestImports " "}}	{{join .XTestImports " "}}`

// pkg is one package as go list reports it.
type pkg struct {
	path                 string
	imports, test, xtest []string
}

// modulePackages runs go list over the whole module. It fails the test when
// go list cannot run: a rule nobody checks is no rule.
func modulePackages(t *testing.T) (module string, pkgs []pkg) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the layering test needs the go command: %v", err)
	}
	run := func(args ...string) []byte {
		cmd := exec.Command(goBin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
	mod := strings.Fields(string(run("list", "-m", "-f", "{{.Path}} {{.Dir}}")))
	if len(mod) != 2 {
		t.Fatalf("go list -m printed %q, want the module path and folder", mod)
	}
	module = mod[0]
	touchSources(t, mod[1])
	for _, line := range strings.Split(string(run("list", "-f", listFormat, module+"/...")), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		pkgs = append(pkgs, pkg{f[0], strings.Fields(f[1]), strings.Fields(f[2]), strings.Fields(f[3])})
	}
	return module, pkgs
}

// touchSources reads the listing of every folder of the module and stats
// every Go file and go.mod, only so that the go command's test cache, which
// sees what the test process itself reads but not what go list reads, runs
// this test again after any source change instead of replaying a stale pass.
func touchSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "go.mod" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking the module: %v", err)
	}
}

// rule forbids the packages under from to import the packages under any of
// forbid ("" under forbid means every package of ours outside from). Paths
// are relative to the module; "=flag" is the standard library's; a path
// ending in "$" is that package alone, not the packages under it
// ("server$" is the game table, not its doors).
type rule struct {
	from   string
	forbid []string
	// tests says whether the package's test files are held to the rule too:
	// an end-to-end test may compose what the package itself must not.
	tests bool
	why   string
}

// importRules are the import rules docs/architecture.md states, each
// enforced here.
func importRules() []rule {
	return []rule{
		{from: "engine", forbid: []string{""}, tests: true, why: "the engine is a library: nothing of ours outside engine/"},
		{from: "engine", forbid: []string{"=flag"}, why: "command-line parsing belongs in a command package"},
		{from: "protocol", forbid: []string{"server", "bot", "cli", "driver", "record", "track"}, tests: true, why: "a codec or client knows no server, daemon or game driver"},
		{from: "track", forbid: []string{"server", "bot", "cli", "driver"}, tests: true, why: "a tracker turns one game's wire into events; it knows no daemon or server"},
		{from: "bot", forbid: []string{"server", "cli"}, why: "the daemon is a client: the server is composed beside it in cli/"},
		{from: "server", forbid: []string{"bot", "cli", "driver", "replay", "match"}, why: "the server is no daemon: it knows no player harness"},
		{from: "record", forbid: []string{"protocol", "server", "bot"}, tests: true, why: "a record stores structured answers, never a wire dialect"},
		{from: "driver", forbid: []string{"protocol", "server", "bot", "kep"}, tests: true, why: "the game driver knows no wire, no server and none of the harnesses over it"},
		{from: "kep", forbid: []string{"protocol", "server", "bot", "cli", "track", "match", "replay", "live"}, tests: true, why: "KEP is a harness over the engine and the game driver: it knows no other wire, server, daemon or match runner"},
		{from: "replay", forbid: []string{"bot", "server"}, why: "replay re-runs records offline, without the daemon or a server"},
		{from: "server$", forbid: []string{"server/httpdoor", "server/tddoor", "server/loopback"}, tests: true, why: "the game table imports no door: the doors subscribe to it"},
		{from: "server/httpdoor", forbid: []string{"server/tddoor", "server/loopback"}, why: "a door imports the game table, never another door or the composition (its tests may compose the whole house)"},
		{from: "server/tddoor", forbid: []string{"server/httpdoor", "server/loopback"}, why: "a door imports the game table, never another door or the composition (its tests may compose the whole house)"},
		{from: "server/kshttp", forbid: []string{"server$", "server/httpdoor", "server/tddoor", "server/loopback"}, tests: true, why: "a door's pure part knows no table and no door"},
		{from: "server/td", forbid: []string{"server$", "server/httpdoor", "server/tddoor", "server/loopback"}, tests: true, why: "a door's pure part knows no table and no door"},
		{from: "server/telnet", forbid: []string{"server$", "server/httpdoor", "server/tddoor", "server/loopback"}, tests: true, why: "a door's pure part knows no table and no door"},
		{from: "server/timecontrol", forbid: []string{"server$", "server/httpdoor", "server/tddoor", "server/loopback"}, tests: true, why: "a door's pure part knows no table and no door"},
		{from: "server/ratelimit", forbid: []string{""}, tests: true, why: "the token bucket is a leaf"},
		{from: "server/internal/wiretest", forbid: []string{"server$", "server/httpdoor", "server/tddoor", "server/loopback", "bot", "cli"}, tests: true, why: "the test clients speak bytes: they know no server, so that every server package's tests can use them"},
	}
}

// violations returns the imports that break the rules, one
// "package imports path (how): why" line each.
func violations(module string, pkgs []pkg, rules []rule) []string {
	under := func(p, dir string) bool {
		if alone, ok := strings.CutSuffix(dir, "$"); ok {
			return p == module+"/"+alone
		}
		full := module + "/" + dir
		return p == full || strings.HasPrefix(p, full+"/")
	}
	ours := func(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }
	breaks := func(r rule, imp string) bool {
		for _, f := range r.forbid {
			switch {
			case f == "":
				if ours(imp) && !under(imp, r.from) {
					return true
				}
			case strings.HasPrefix(f, "="):
				if imp == f[1:] {
					return true
				}
			case under(imp, f):
				return true
			}
		}
		return false
	}
	var bad []string
	for _, p := range pkgs {
		for _, r := range rules {
			if !under(p.path, r.from) {
				continue
			}
			sets := []struct {
				how     string
				imports []string
			}{{"", p.imports}}
			if r.tests {
				sets = append(sets, struct {
					how     string
					imports []string
				}{"test", p.test}, struct {
					how     string
					imports []string
				}{"external test", p.xtest})
			}
			for _, set := range sets {
				for _, imp := range set.imports {
					if !breaks(r, imp) {
						continue
					}
					line := p.path + " imports " + imp
					if set.how != "" {
						line += " (" + set.how + ")"
					}
					bad = append(bad, line+": "+r.why)
				}
			}
		}
	}
	return bad
}

func TestImportRules(t *testing.T) {
	module, pkgs := modulePackages(t)
	// Guard against a vacuous pass (a wrong pattern, an empty listing): each
	// rule's packages must exist.
	rules := importRules()
	for _, r := range rules {
		n := 0
		from, alone := strings.CutSuffix(r.from, "$")
		for _, p := range pkgs {
			if p.path == module+"/"+from || !alone && strings.HasPrefix(p.path, module+"/"+from+"/") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no package under %s/ among %d: the rule %q checks nothing", r.from, len(pkgs), r.why)
		}
	}
	for _, v := range violations(module, pkgs, rules) {
		t.Error(v)
	}
}

// TestViolations checks the checker on made-up packages.
func TestViolations(t *testing.T) {
	pkgs := []pkg{
		{path: "m/engine/a", imports: []string{"fmt", "m/engine/b"}, test: []string{"m/engine/c"}, xtest: []string{"m/engine/a"}},
		{path: "m/engine/b", imports: []string{"m/opponent"}},
		{path: "m/engine/c", test: []string{"m/internal/x"}},
		{path: "m/engine/d", xtest: []string{"m/cli", "flag"}},
		{path: "m/engine/e", imports: []string{"flag"}},
		{path: "m/engineroom", imports: []string{"m/cli"}},
		{path: "m/opponent", imports: []string{"m/engine/a", "m/internal/x", "flag"}},
		{path: "m/bot", imports: []string{"m/protocol", "m/serverless"}, test: []string{"m/server"}},
		{path: "m/bot/icc", imports: []string{"m/server/telnet"}},
		{path: "m/record", imports: []string{"m/protocol/ksapi"}},
		{path: "m/server", imports: []string{"m/server/telnet"}, test: []string{"m/server/door"}},
		{path: "m/server/door", imports: []string{"m/server"}},
		{path: "m/server/telnet", imports: []string{"m/server"}},
	}
	rules := []rule{
		{from: "engine", forbid: []string{""}, tests: true, why: "outside"},
		{from: "engine", forbid: []string{"=flag"}, why: "flag"},
		{from: "track", forbid: []string{"server", "bot", "cli", "driver"}, tests: true, why: "a tracker turns one game's wire into events; it knows no daemon or server"},
		{from: "bot", forbid: []string{"server"}, why: "server"},
		{from: "record", forbid: []string{"protocol"}, tests: true, why: "wire"},
		{from: "server$", forbid: []string{"server/door"}, tests: true, why: "table"},
		{from: "server/telnet", forbid: []string{"server$"}, why: "pure"},
	}
	got := violations("m", pkgs, rules)
	want := []string{
		"m/engine/b imports m/opponent: outside",
		"m/engine/c imports m/internal/x (test): outside",
		"m/engine/d imports m/cli (external test): outside",
		"m/engine/e imports flag: flag",
		"m/bot/icc imports m/server/telnet: server",
		"m/record imports m/protocol/ksapi: wire",
		"m/server imports m/server/door (test): table",
		"m/server/telnet imports m/server: pure",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// flagParsers are the packages outside cli/ allowed to import "flag": the
// commands' shared flag helper and a go:generate tool with a main of its own.
func flagParsers() []string { return []string{"internal/cmdflag", "internal/buildinfo/gensum"} }

// flagOutsideCommands lists the packages that parse command-line flags
// outside cli/ and the allowed helpers: every command lives under cli/.
func flagOutsideCommands(module string, pkgs []pkg, allowed []string) []string {
	var bad []string
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.path, module+"/")
		if rel == "cli" || strings.HasPrefix(rel, "cli/") || slices.Contains(allowed, rel) {
			continue
		}
		if slices.Contains(p.imports, "flag") {
			bad = append(bad, p.path+" imports flag: commands and their flags live under cli/")
		}
	}
	return bad
}

func TestFlagsOnlyInCommands(t *testing.T) {
	module, pkgs := modulePackages(t)
	for _, v := range flagOutsideCommands(module, pkgs, flagParsers()) {
		t.Error(v)
	}
	// The check itself, on made-up packages: it must catch a library that
	// parses flags, and pass commands, the helper and a test's own flags.
	fake := []pkg{
		{path: "m/cli/runcmd", imports: []string{"flag"}},
		{path: "m/internal/cmdflag", imports: []string{"flag"}},
		{path: "m/bot", imports: []string{"fmt"}, test: []string{"flag"}},
		{path: "m/match", imports: []string{"flag", "fmt"}},
	}
	got := flagOutsideCommands("m", fake, []string{"internal/cmdflag"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "m/match imports flag") {
		t.Errorf("made-up packages: %q, want only m/match", got)
	}
}
