// Package deploy holds no code: these tests keep the deployment files in
// step with the daemon, so that they cannot rot silently.
package deploy

import (
	"bufio"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kriegbot/bot"
)

// unit reads a systemd unit file into section -> key -> values (a key may
// be given more than once).
func unit(t *testing.T, path string) map[string]map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string][]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			out[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" || strings.HasSuffix(line, "\\") {
				t.Fatalf("%s:%d: not a key=value line in a section: %q", path, n, line)
			}
			out[section][k] = append(out[section][k], v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSystemdUnit(t *testing.T) {
	u := unit(t, "systemd/kriegbot.service")
	svc := u["Service"]
	one := func(key string) string {
		t.Helper()
		if v := svc[key]; len(v) == 1 {
			return v[0]
		}
		t.Errorf("[Service] %s: %q, want exactly one value", key, svc[key])
		return ""
	}
	if args := strings.Fields(one("ExecStart")); len(args) < 2 || !strings.HasSuffix(args[0], "/kriegbot") || args[1] != "run" {
		t.Errorf("ExecStart=%s, want the daemon: kriegbot run ...", one("ExecStart"))
	}
	// The daemon's exit status: 1 asks for a restart, 2 says a restart cannot
	// help, 3 says it was told to leave at once and lost games.
	if bot.ExitRestart != 1 || bot.ExitBadConfig != 2 || bot.ExitAbandoned != 3 {
		t.Fatalf("exit codes changed (restart %d, bad config %d, abandoned %d): update the unit and deploy/README.md", bot.ExitRestart, bot.ExitBadConfig, bot.ExitAbandoned)
	}
	if one("Restart") != "on-failure" {
		t.Errorf("Restart=%s, want on-failure (exit 1 means restart me)", one("Restart"))
	}
	if got, want := one("RestartPreventExitStatus"), strconv.Itoa(bot.ExitBadConfig)+" "+strconv.Itoa(bot.ExitAbandoned); got != want {
		t.Errorf("RestartPreventExitStatus=%s, want %s (bad configuration; left at once as told)", got, want)
	}
	for key, want := range map[string]string{
		"NoNewPrivileges": "yes",
		"ProtectSystem":   "strict",
		"ProtectHome":     "yes",
		"StateDirectory":  "kriegbot",
		"LogsDirectory":   "kriegbot",
	} {
		if got := one(key); got != want {
			t.Errorf("%s=%s, want %s", key, got, want)
		}
	}
	if env := one("EnvironmentFile"); !strings.HasSuffix(env, "/kriegbot.env") {
		t.Errorf("EnvironmentFile=%s, want the 0600 file holding KRIEGBOT_PASSWORD", env)
	}
	if wd := one("WorkingDirectory"); wd != "/var/lib/kriegbot" {
		t.Errorf("WorkingDirectory=%s: relative logs.dir and opponent_models must land in the writable state folder", wd)
	}
	if _, ok := u["Install"]["WantedBy"]; !ok {
		t.Error("no [Install] WantedBy=: systemctl enable would do nothing")
	}
	env, err := os.ReadFile("systemd/kriegbot.env.example")
	if err != nil || !strings.Contains(string(env), "KRIEGBOT_PASSWORD=\n") {
		t.Errorf("kriegbot.env.example should end in an empty KRIEGBOT_PASSWORD= line (%v)", err)
	}
}

func TestDaemonDockerfile(t *testing.T) {
	data, err := os.ReadFile("daemon/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var froms, users, cmds []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "FROM":
			froms = append(froms, line)
		case "USER":
			users = append(users, f[1])
		case "CMD", "ENTRYPOINT":
			cmds = append(cmds, line)
		}
	}
	if len(froms) < 2 || !strings.HasPrefix(froms[0], "FROM golang:") {
		t.Errorf("FROM lines %q: want a multi-stage build starting from the Go toolchain image", froms)
	}
	if len(users) == 0 || slices.Contains([]string{"root", "0", "0:0"}, users[len(users)-1]) {
		t.Errorf("USER %q: the daemon must not run as root", users)
	}
	if !slices.Contains(cmds, `CMD ["run", "-config", "/etc/kriegbot/config.toml"]`) {
		t.Errorf("CMD/ENTRYPOINT %q: want the daemon, kriegbot run", cmds)
	}
	// The match image stays what the Kubernetes manifests use.
	if m, err := os.ReadFile("Dockerfile"); err != nil || !strings.Contains(string(m), `ENTRYPOINT ["/usr/local/bin/kriegbot"]`) {
		t.Errorf("deploy/Dockerfile (the match image) changed: %v", err)
	}
}

// ignoreLines reads an ignore file's patterns (no comments, no blanks).
func ignoreLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (every image's build context must leave out the local state)", err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, strings.TrimPrefix(strings.TrimSuffix(line, "/"), "/"))
		}
	}
	return out
}

// ignores says whether one of the patterns leaves out the top-level name.
func ignores(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

func TestDockerContextsLeaveOutLocalState(t *testing.T) {
	// What a build context must never carry: the repository's history, the
	// daemon's logs and learnt data, tournament folders (kriegbot tourney
	// names them tourney-DATE-TIME) and local binaries.
	localState := []string{".git", "logs", "data", "tourney-20261204-150405", "kriegbot"}
	root := ignoreLines(t, "../.dockerignore")
	for _, dockerfile := range []string{"Dockerfile", "daemon/Dockerfile"} {
		own := ignoreLines(t, dockerfile+".dockerignore")
		for _, name := range localState {
			if !ignores(own, name) {
				t.Errorf("%s.dockerignore does not leave out %s", dockerfile, name)
			}
		}
	}
	for _, name := range localState {
		if !ignores(root, name) {
			t.Errorf(".dockerignore does not leave out %s", name)
		}
	}
}

func TestGitIgnoresTournamentFolders(t *testing.T) {
	patterns := ignoreLines(t, "../.gitignore")
	// logs/ itself is tracked for its .gitkeep; /logs/* ignores what is in it.
	for _, name := range []string{"tourney-20261204-150405", "data", "kriegbot"} {
		if !ignores(patterns, name) {
			t.Errorf(".gitignore does not ignore %s", name)
		}
	}
}
