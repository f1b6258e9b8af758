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
