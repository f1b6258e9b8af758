package doclinks

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The outside folder's name is spelled in two pieces so that this file
// does not match its own patterns.
const outside = "sha" + "red"

// outsideRefs are references to files outside the repository: the notes
// folder by path, and the notes' file names that have no copy here.
var outsideRefs = []*regexp.Regexp{
	regexp.MustCompile(`\.\./` + outside + `\b`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])` + outside + `/(?:seeds|icc|kep|kriegspiel-org|fixtures|DESIGN|anchors|research|tools|hooks)\b`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9_/-])(?:API|DESIGN|anchors|time-scaling)\.md\b`),
	regexp.MustCompile(`protocol` + `-notes`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9_/-])tournaments\.md §`),
	regexp.MustCompile(`(?i)fixture ` + `README`),
	regexp.MustCompile(`(?i)` + outside + ` fixtures`),
}

// findOutside returns the text of each outside reference in line.
func findOutside(line string) []string {
	var found []string
	for _, re := range outsideRefs {
		found = append(found, re.FindAllString(line, -1)...)
	}
	return found
}

// docsPath matches a repository path to a page or image under docs/ or
// deploy/, or the README, written out in any text (comments, usage, pages).
var docsPath = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])((?:docs|deploy)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:md|png|svg))`)

// mdLink matches an inline Markdown link or image: [text](target "title").
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// mdRefDef matches a reference-style link definition: [name]: target.
var mdRefDef = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(\S+)`)

// codeSpan matches inline code, whose text is not a link.
var codeSpan = regexp.MustCompile("`[^`]*`")

// mdTargets returns the local targets of the links in one Markdown line
// (outside fenced code), without their #fragment.
func mdTargets(line string) []string {
	line = codeSpan.ReplaceAllString(line, "")
	var out []string
	var raw []string
	for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
		raw = append(raw, m[1])
	}
	if m := mdRefDef.FindStringSubmatch(line); m != nil {
		raw = append(raw, m[1])
	}
	for _, t := range raw {
		t = strings.Trim(t, "<>")
		if strings.Contains(t, "://") || strings.HasPrefix(t, "mailto:") || strings.HasPrefix(t, "#") {
			continue
		}
		if i := strings.IndexAny(t, "#?"); i >= 0 {
			t = t[:i]
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// textFile says whether a file of the repository is text to check.
func textFile(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".md", ".toml", ".txt", ".yaml", ".yml", ".sh", ".py", ".service", ".timer", ".html", ".tmpl":
		return true
	}
	return name == "Dockerfile" || name == "Makefile"
}

// repoFiles lists the repository's text files, relative to root: every
// folder but hidden ones, testdata (quoted outside data), and the
// git-ignored output folders a run leaves behind (logs, data, tourney-*).
func repoFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			top := !strings.Contains(rel, "/")
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" ||
				top && (name == "logs" || name == "data" || strings.HasPrefix(name, "tourney-"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && textFile(d.Name()) {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// eachLine calls f with every line of a file (1-based) and whether the line
// is inside a fenced code block of a Markdown file.
func eachLine(t *testing.T, path string, f func(n int, line string, fenced bool)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := strings.HasSuffix(path, ".md")
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if md && strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			f(n, line, true)
			continue
		}
		f(n, line, md && fenced)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

const root = "../.."

// docsDir is spelled in two pieces in the examples below, which are not
// references to pages.
const docsDir = "docs" + "/"

// TestNothingPointsOutside fails on every line of the repository's text that
// refers to a file outside it, naming file:line.
func TestNothingPointsOutside(t *testing.T) {
	files := repoFiles(t, root)
	for _, want := range []string{"README.md", "docs/architecture.md", "internal/doclinks/doclinks_test.go"} {
		if !slices.Contains(files, want) {
			t.Fatalf("the walk of %s missed %s (it saw %d files)", root, want, len(files))
		}
	}
	for _, rel := range files {
		eachLine(t, filepath.Join(root, rel), func(n int, line string, _ bool) {
			for _, ref := range findOutside(line) {
				t.Errorf("%s:%d: refers to a file outside the repository: %q (what users need of it belongs in docs/)", rel, n, strings.Trim(ref, " `(/"))
			}
		})
	}
}

// TestLinksResolve fails on every relative Markdown link, and every docs/ or
// deploy/ page named in any text, that names a file the repository lacks.
func TestLinksResolve(t *testing.T) {
	checked := 0
	for _, rel := range repoFiles(t, root) {
		dir := filepath.Dir(filepath.Join(root, rel))
		eachLine(t, filepath.Join(root, rel), func(n int, line string, fenced bool) {
			if strings.HasSuffix(rel, ".md") && !fenced {
				for _, target := range mdTargets(line) {
					checked++
					p := filepath.Join(dir, filepath.FromSlash(target))
					if strings.HasPrefix(target, "/") {
						p = filepath.Join(root, filepath.FromSlash(target))
					}
					if _, err := os.Stat(p); err != nil {
						t.Errorf("%s:%d: link %q: no such file in the repository", rel, n, target)
					}
				}
			}
			for _, m := range docsPath.FindAllStringSubmatch(line, -1) {
				checked++
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(m[1]))); err != nil {
					t.Errorf("%s:%d: %q: no such file in the repository", rel, n, m[1])
				}
			}
		})
	}
	if checked < 50 {
		t.Fatalf("only %d links and paths checked: the scan is broken", checked)
	}
}

// TestPatterns shows that the scanners catch what they must and pass what
// they must, so the two tests above cannot pass by matching nothing.
func TestPatterns(t *testing.T) {
	bad := []string{
		"see " + outside + "/seeds/000, section 5.2",
		"(" + outside + "/kriegspiel-org/API.md)",
		"`" + outside + "/icc/protocol" + "-notes.md`",
		"../" + outside + "/DESIGN.md",
		"schema: " + outside + "/fixtures/wild16/README.md;",
		"// Referee words (API" + ".md §4)",
		"// Field order as JIN reads it (tournaments" + ".md §3).",
		"following the fixture " + "README:",
		"behind the " + outside + " fixtures",
	}
	for _, line := range bad {
		if len(findOutside(line)) == 0 {
			t.Errorf("not caught: %q", line)
		}
	}
	good := []string{
		"the paper (" + docsDir + "references.md), section 5.2",
		docsDir + "kriegspiel-org-api.md §7",
		"[tournaments.md](tournaments.md) and " + docsDir + "tournaments.md, TD wire §2",
		"memory for the search in MB, shared by the trees",
		"shared/leased slices", // a word, not the notes folder
	}
	for _, line := range good {
		if got := findOutside(line); len(got) != 0 {
			t.Errorf("wrongly caught in %q: %q", line, got)
		}
	}

	links := []struct {
		line string
		want []string
	}{
		{"see [the API](kriegspiel-org-api.md#§7) and [site](https://kriegspiel.org)", []string{"kriegspiel-org-api.md"}},
		{"![page](docs/live-page.png \"the page\")", []string{"docs/live-page.png"}},
		{"[x]: ../deploy/README.md", []string{"../deploy/README.md"}},
		{"code `a[i](j)` is no link, [top](#top) stays in the page", nil},
	}
	for _, c := range links {
		if got := mdTargets(c.line); !slices.Equal(got, c.want) {
			t.Errorf("mdTargets(%q) = %q, want %q", c.line, got, c.want)
		}
	}
	paths := map[string]string{
		"(" + docsDir + "fixtures.md; \"-\" reads": docsDir + "fixtures.md",
		"see " + docsDir + "strength/round-21.md.": docsDir + "strength/round-21.md",
		"deploy/README.md says":                    "deploy/README.md",
		"foo/docs/x.md":                            "",
	}
	for line, want := range paths {
		got := ""
		if m := docsPath.FindStringSubmatch(line); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("docs path in %q = %q, want %q", line, got, want)
		}
	}
}
