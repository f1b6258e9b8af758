package layering

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// violations returns the imports that break the engine's layering, one
// "package imports path (how)" line each.
func violations(module string, pkgs []pkg) []string {
	engine := module + "/engine"
	inEngine := func(p string) bool { return p == engine || strings.HasPrefix(p, engine+"/") }
	ours := func(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }
	var bad []string
	for _, p := range pkgs {
		if !inEngine(p.path) {
			continue
		}
		for _, set := range []struct {
			how     string
			imports []string
		}{{"", p.imports}, {"test", p.test}, {"external test", p.xtest}} {
			for _, imp := range set.imports {
				why := ""
				switch {
				case ours(imp) && !inEngine(imp):
					why = "outside " + engine + "/"
				case imp == "flag" && set.how == "":
					why = "command-line parsing belongs in a command package"
				default:
					continue
				}
				line := p.path + " imports " + imp
				if set.how != "" {
					line += " (" + set.how + ")"
				}
				bad = append(bad, line+": "+why)
			}
		}
	}
	return bad
}

func TestEngineImportsOnlyEngine(t *testing.T) {
	module, pkgs := modulePackages(t)
	engines := 0
	for _, p := range pkgs {
		if strings.HasPrefix(p.path, module+"/engine/") {
			engines++
		}
	}
	// Guard against a vacuous pass (a wrong pattern, an empty listing).
	if engines < 5 {
		t.Fatalf("go list found %d engine packages among %d; want the engine's packages", engines, len(pkgs))
	}
	for _, v := range violations(module, pkgs) {
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
	}
	got := violations("m", pkgs)
	want := []string{
		"m/engine/b imports m/opponent: outside m/engine/",
		"m/engine/c imports m/internal/x (test): outside m/engine/",
		"m/engine/d imports m/cli (external test): outside m/engine/",
		"m/engine/e imports flag: command-line parsing belongs in a command package",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
