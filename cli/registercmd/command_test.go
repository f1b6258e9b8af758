package registercmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kriegbot/config"
)

const token = "ksbot_89abcdef01234567.ZyXwVuTsRqPoNmLkJiHgFeDcBa987654"

func TestRegister(t *testing.T) {
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/auth/bots/register" || r.Method != "POST" {
			w.WriteHeader(404)
			return
		}
		json.NewDecoder(r.Body).Decode(&body)
		if body["username"] == "taken" {
			w.WriteHeader(409)
			fmt.Fprint(w, `{"detail":{"field":"username","code":"USERNAME_TAKEN","message":"Username already taken"}}`)
			return
		}
		w.WriteHeader(201)
		fmt.Fprintf(w, `{"bot_id":"1","username":%q,"display_name":"x","owner_email":"a@b.c","api_token":%q,"message":"Store it"}`, body["username"], token)
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "data", "kriegspiel.token")
	var out, errb bytes.Buffer
	code := Command([]string{"-url", srv.URL, "-username", "mybot", "-email", "me@example.org", "-o", file}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String()+errb.String(), token) || strings.Contains(out.String(), token[20:]) {
		t.Fatal("the token was printed")
	}
	if !strings.Contains(out.String(), file) {
		t.Errorf("does not say where: %s", out.String())
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", st, err)
	}
	// The configured variants (here the defaults: all seven).
	want := config.Defaults().Server.SupportedRuleVariants
	if vs, _ := body["supported_rule_variants"].([]any); fmt.Sprint(vs) != fmt.Sprint(want) || len(want) != 7 || body["owner_email"] != "me@example.org" || body["display_name"] != "mybot" {
		t.Errorf("body %v", body)
	}
	// The stored token is what the daemon reads.
	c := config.Defaults()
	c.Server.Protocol, c.Server.Embedded, c.Account.TokenEnv, c.Account.TokenFile = "kriegspiel", false, "", file
	if got, _, err := config.Token(c, func(string) string { return "" }); err != nil || got != token {
		t.Errorf("Token from the stored file: %v", err)
	}
	// Never overwritten.
	if code := Command([]string{"-url", srv.URL, "-username", "mybot", "-email", "me@example.org", "-o", file}, &out, &errb); code != 1 {
		t.Errorf("second registration over the file: exit %d", code)
	}
	errb.Reset()
	if code := Command([]string{"-url", srv.URL, "-username", "taken", "-email", "me@example.org", "-o", filepath.Join(dir, "t2")}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "taken") {
		t.Errorf("taken name: exit %d, %s", code, errb.String())
	}
	for _, args := range [][]string{
		{"-url", srv.URL, "-username", "mybot", "-o", filepath.Join(dir, "t3")},
		{"-url", srv.URL, "-username", "bad name", "-email", "a@b.c", "-o", filepath.Join(dir, "t3")},
		{"-url", srv.URL, "-username", "mybot", "-email", "a@b.c", "-display-name", "ab", "-o", filepath.Join(dir, "t3")},
		{"-url", srv.URL, "extra"},
	} {
		if code := Command(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
