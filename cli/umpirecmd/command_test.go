package umpirecmd

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

func openPublic(t testing.TB) []byte {
	t.Helper()
	f, err := os.Open("../../engine/umpire/testdata/wild16-games.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	data := openPublic(t)
	lines := strings.SplitAfter(string(data), "\n")
	good := dir + "/good.jsonl"
	if err := os.WriteFile(good, []byte(lines[0]+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := dir + "/bad.jsonl"
	if err := os.WriteFile(bad, []byte(lines[0]+"{\"id\":\n"+strings.Replace(lines[1], `"legal":true`, `"legal":false`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Command([]string{"verify", good}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errOut.String())
	}
	if !strings.HasSuffix(out.String(), "mismatches\n") || !strings.Contains(out.String(), "verified 2 games,") || !strings.Contains(out.String(), " 0 mismatches") {
		t.Errorf("output %q", out.String())
	}
	out.Reset()
	if code := Command([]string{"verify", bad}, &out, &errOut); code != 1 {
		t.Fatalf("bad file: exit %d, want 1: %s", code, out.String())
	}
	if !strings.Contains(out.String(), "line 2:") || !strings.Contains(out.String(), "field legal") && !strings.Contains(out.String(), "legal: expected") {
		t.Errorf("bad file output %q lacks the line number or the mismatch", out.String())
	}
	if code := Command([]string{"verify"}, &out, &errOut); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	if code := Command([]string{"frobnicate"}, &out, &errOut); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}

// TestVerifyVariantFiles: a directory expands to its fixture files, whose
// format is told by the games' "variant" key; each file gets its line.
func TestVerifyVariantFiles(t *testing.T) {
	f, err := os.Open("../../engine/umpire/testdata/variants/rand.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/rand.jsonl", []byte(lines[0]+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/wild16.jsonl", []byte(strings.SplitAfter(string(openPublic(t)), "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/notes.txt", []byte("not a fixture"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Command([]string{"verify", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"rand.jsonl rand: verified 2 games,", "wild16.jsonl wild16: verified 1 games,", "verified 3 games,"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
	bad := strings.Replace(lines[0], `"answer":"ILLEGAL_MOVE","heard":true`, `"answer":"ILLEGAL_MOVE","heard":false`, 1)
	if err := os.WriteFile(dir+"/rand.jsonl", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Command([]string{"verify", dir + "/rand.jsonl"}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "heard: expected false, got true") {
		t.Fatalf("corrupted file: exit %d: %s", code, out.String())
	}
	if code := Command([]string{"verify", t.TempDir()}, &out, &errOut); code != 1 {
		t.Fatalf("empty directory: exit %d", code)
	}
}
