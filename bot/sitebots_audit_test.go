package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/protocol/ksapi"
	"kriegbot/server"
)

// siteAudit follows, for TestSiteBotsVariants, what the door answered the
// site's bots: every answer other than 2xx to each bot (through a
// recording proxy of the bot's own in front of the door), and the start
// and end of every game on the table (a GameWatcher), so that each
// refusal is judged against what the site would have answered.
type siteAudit struct {
	mu       sync.Mutex
	games    map[string]*auditGame // by game_id and by game_code
	ended    []*auditGame          // in the order they ended
	refusals []refusal
}

// auditGame is one game as the table showed it.
type auditGame struct {
	id, code       string
	number         int
	names          [2]string
	minutes, inc   int
	started, ended time.Time
	endCode, desc  string
	flagged        string           // the player whose flag fell (Fla, or NM on time); "" for another end
	moves          [2]int           // moves made by each side
	used, longest  [2]time.Duration // their time, and the longest turn
}

// refusal is one answer other than 2xx that a bot got.
type refusal struct {
	bot, method, path string
	status            int
	code, msg         string // the game routes' error envelope
	at                time.Time
}

func newSiteAudit() *siteAudit { return &siteAudit{games: map[string]*auditGame{}} }

func (a *siteAudit) GameStarted(g *server.Game) {
	m, inc := g.Terms()
	ag := &auditGame{id: g.ID(), code: g.Code(), number: g.Number(), names: [2]string{g.Name(chess.White), g.Name(chess.Black)},
		minutes: m, inc: inc, started: time.Now()}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.games[ag.id], a.games[ag.code] = ag, ag
}

func (a *siteAudit) GameChanged(*server.Game) {}

func (a *siteAudit) GameEnded(_ server.Events, g *server.Game) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ag := a.games[g.ID()]
	if ag == nil {
		return
	}
	ag.ended, ag.endCode, ag.desc = time.Now(), g.EndCode(), g.Description()
	if ag.endCode == "Fla" || ag.endCode == "NM" && strings.Contains(ag.desc, "ran out of time") {
		ag.flagged = g.Name(g.Umpire().Side()) // the side to move's flag fell
	}
	_, used := g.Moves()
	for i, u := range used {
		ag.moves[i%2]++
		ag.used[i%2] += u
		ag.longest[i%2] = max(ag.longest[i%2], u)
	}
	a.ended = append(a.ended, ag)
}

// proxy serves, on a loopback port of its own, the door at target for
// bot, keeping each answer other than 2xx; it returns its base URL.
func (a *siteAudit) proxy(t *testing.T, bot, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode < 300 {
			return nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		var env ksapi.GameError
		json.Unmarshal(body, &env)
		r := refusal{bot: bot, method: resp.Request.Method, path: resp.Request.URL.Path, status: resp.StatusCode,
			code: env.Error.Code, msg: env.Error.Message, at: time.Now()}
		if r.code == "" {
			r.msg = string(body)
		}
		a.mu.Lock()
		a.refusals = append(a.refusals, r)
		a.mu.Unlock()
		return nil
	}
	rp.ErrorHandler = func(w http.ResponseWriter, req *http.Request, err error) {
		a.mu.Lock()
		a.refusals = append(a.refusals, refusal{bot: bot, method: req.Method, path: req.URL.Path, status: 502, msg: err.Error(), at: time.Now()})
		a.mu.Unlock()
		w.WriteHeader(502)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: rp, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

// judge says whether the site would have given the bot the refusal r
// too, and why; games are the table's games by game_id and game_code.
// Two cases are the site's own answers: a move or "Any?" of a bot whose
// flag fell moments before (400 GAME_NOT_ACTIVE: its poll loop tries one
// move after another, a second apart, and the clock does not wait), and
// a join of a lobby game someone else had joined moments before (409
// GAME_FULL, as ks-backend's join_game answers a game no longer
// waiting). Anything else is a failure of ours until shown otherwise.
func judge(r refusal, games map[string]*auditGame) (string, bool) {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(r.path, "/api"), "/"), "/")
	switch {
	case len(parts) == 3 && parts[0] == "game" && (parts[2] == "move" || parts[2] == "ask-any") && r.method == "POST" &&
		r.status == 400 && r.code == ksapi.CodeGameNotActive:
		g := games[parts[1]]
		if g == nil || g.ended.IsZero() || g.ended.After(r.at) || r.at.Sub(g.ended) > 10*time.Second || g.flagged != r.bot {
			return "", false
		}
		return fmt.Sprintf("%s after its flag fell in game %d (%.1f s before the answer)", parts[2], g.number, r.at.Sub(g.ended).Seconds()), true
	case len(parts) == 3 && parts[0] == "game" && parts[1] == "join" && r.method == "POST" && r.status == 409 && r.code == ksapi.CodeGameFull:
		g := games[strings.ToUpper(parts[2])]
		if g == nil || g.started.After(r.at) || r.at.Sub(g.started) > time.Minute || slices.Contains(g.names[:], r.bot) {
			return "", false
		}
		return fmt.Sprintf("join of a game %s vs %s had begun (%.1f s before the answer)", g.names[0], g.names[1], r.at.Sub(g.started).Seconds()), true
	}
	return "", false
}

// pollFailed is a failed request in a site bot's log: status and URL, or
// none (a timeout, a refused connection).
var pollFailed = regexp.MustCompile(`poll failed: (?:(\d{3}) (?:Client|Server) Error: .* for url: (\S+))?`)

// judgeBot judges what bot got and logged: each refusal (judge), each
// "poll failed" of its log matched to a refusal, and its tracebacks. It
// returns the refusals the site would have given too, and the rest.
func (a *siteAudit) judgeBot(bot, log string) (siteLike, ours []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var mine []refusal
	for _, r := range a.refusals {
		if r.bot == bot {
			mine = append(mine, r)
		}
	}
	for _, r := range mine {
		what := fmt.Sprintf("%s %s: %d %s %s", r.method, r.path, r.status, r.code, r.msg)
		if why, ok := judge(r, a.games); ok {
			siteLike = append(siteLike, what+" ("+why+")")
		} else {
			ours = append(ours, what)
		}
	}
	logged := slices.Clone(mine)
	for _, line := range strings.Split(log, "\n") {
		m := pollFailed.FindStringSubmatch(line)
		switch {
		case strings.HasPrefix(line, "Traceback"):
			ours = append(ours, "a traceback in its log")
		case m == nil:
		case m[1] == "":
			ours = append(ours, "its log: "+strings.TrimSpace(line))
		default:
			u, _ := url.Parse(m[2])
			i := slices.IndexFunc(logged, func(r refusal) bool { return fmt.Sprint(r.status) == m[1] && u != nil && r.path == u.Path })
			if i < 0 {
				ours = append(ours, "its log, with no such answer of the door: "+strings.TrimSpace(line))
				continue
			}
			logged = slices.Delete(logged, i, i+1)
		}
	}
	return siteLike, ours
}

// flags sums up the site's bots' flags among themselves: how many games
// ended so, and the time the flagged side's clock allowed each of its
// turns (its base and increments over its turns, the last included),
// beside all their turns' mean and longest.
func (a *siteAudit) flags(site func(string) bool) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var games, flagged int
	var perTurn, used time.Duration
	var turns int
	var longest time.Duration
	for _, g := range a.ended {
		if !site(g.names[0]) || !site(g.names[1]) {
			continue
		}
		games++
		for s := range 2 {
			used += g.used[s]
			turns += g.moves[s]
			longest = max(longest, g.longest[s])
		}
		if g.flagged == "" {
			continue
		}
		flagged++
		s := 0
		if g.names[1] == g.flagged {
			s = 1
		}
		n := g.moves[s]
		perTurn += (time.Duration(g.minutes)*time.Minute + time.Duration(g.inc*n)*time.Second) / time.Duration(n+1)
	}
	if games == 0 || turns == 0 {
		return "no game among themselves"
	}
	out := fmt.Sprintf("%d of %d games among themselves lost on time", flagged, games)
	if flagged > 0 {
		out += fmt.Sprintf(", the flagged side's clock allowing %.1f s a turn on average", (perTurn / time.Duration(flagged)).Seconds())
	}
	return out + fmt.Sprintf("; their turns took %.1f s on average, the longest %.0f s", (used/time.Duration(turns)).Seconds(), longest.Seconds())
}

// durations sums up the games name played: how many ended, their mean
// and longest length.
func (a *siteAudit) durations(name string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var n int
	var sum, longest time.Duration
	for _, g := range a.ended {
		if slices.Contains(g.names[:], name) {
			n++
			d := g.ended.Sub(g.started)
			sum += d
			longest = max(longest, d)
		}
	}
	if n == 0 {
		return "no game of " + name + " ended"
	}
	return fmt.Sprintf("%d games of %s ended, lasting %.1f min on average, the longest %.1f min", n, name,
		(sum / time.Duration(n)).Minutes(), longest.Minutes())
}

// TestSiteBotsJudge: TestSiteBotsVariants lets pass only the refusals
// the site gives too (a move after the bot's own flag fell, a join of a
// game begun moments before), each against the table's record of the
// game, and counts the rest, and every failure in a bot's log without
// such an answer behind it, as ours.
func TestSiteBotsJudge(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	flag := &auditGame{id: "aaaaaaaaaaaaaaaaaaaaaaaa", code: "FLAG22", number: 7, names: [2]string{"sha", "shb"},
		started: t0.Add(-5 * time.Minute), ended: t0, endCode: "Fla", flagged: "shb"}
	mate := &auditGame{id: "bbbbbbbbbbbbbbbbbbbbbbbb", code: "MATE22", number: 8, names: [2]string{"sha", "shb"},
		started: t0.Add(-5 * time.Minute), ended: t0, endCode: "Mat"}
	live := &auditGame{id: "cccccccccccccccccccccccc", code: "LIVE22", number: 9, names: [2]string{"rany", "kriegbot"},
		started: t0.Add(-2 * time.Second)}
	games := map[string]*auditGame{}
	for _, g := range []*auditGame{flag, mate, live} {
		games[g.id], games[g.code] = g, g
	}
	move := func(bot, path string, status int, code string, after time.Duration) refusal {
		return refusal{bot: bot, method: "POST", path: path, status: status, code: code, at: t0.Add(after)}
	}
	for _, tc := range []struct {
		name string
		r    refusal
		ok   bool
	}{
		{"a move after its flag fell", move("shb", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Second), true},
		{"the same under /api", move("shb", "/api/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Second), true},
		{"an Any? after its flag fell", move("shb", "/game/"+flag.id+"/ask-any", 400, ksapi.CodeGameNotActive, 0), true},
		{"by the game code", move("shb", "/game/"+flag.code+"/move", 400, ksapi.CodeGameNotActive, time.Second), true},
		{"after the opponent's flag fell", move("sha", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Second), false},
		{"long after its flag fell", move("shb", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Minute), false},
		{"answered before the flag fell", move("shb", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, -time.Second), false},
		{"after a mate", move("shb", "/game/"+mate.id+"/move", 400, ksapi.CodeGameNotActive, time.Second), false},
		{"in a game in progress", move("rany", "/game/"+live.id+"/move", 400, ksapi.CodeGameNotActive, time.Second), false},
		{"not its turn", move("shb", "/game/"+flag.id+"/move", 400, ksapi.CodeNotYourTurn, time.Second), false},
		{"an unknown game", move("shb", "/game/dddddddddddddddddddddddd/move", 400, ksapi.CodeGameNotActive, time.Second), false},
		{"a bad body", move("shb", "/game/"+flag.id+"/move", 422, "", time.Second), false},
		{"a join someone else won", move("sha", "/game/join/live22", 409, ksapi.CodeGameFull, time.Second), true},
		{"a join refused on cooldown", move("sha", "/game/join/LIVE22", 409, ksapi.CodeBotJoinCooldown, time.Second), false},
		{"a join of one's own game", move("rany", "/game/join/LIVE22", 409, ksapi.CodeGameFull, time.Second), false},
		{"a join long after it began", move("sha", "/game/join/LIVE22", 409, ksapi.CodeGameFull, 2*time.Minute), false},
		{"a join of an unknown game", move("sha", "/game/join/NONE22", 409, ksapi.CodeGameFull, time.Second), false},
	} {
		if why, ok := judge(tc.r, games); ok != tc.ok {
			t.Errorf("%s: judged the site's answer %v (%s), want %v", tc.name, ok, why, tc.ok)
		}
	}

	a := newSiteAudit()
	a.games = games
	a.refusals = []refusal{move("shb", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Second),
		move("shb", "/game/"+mate.id+"/move", 400, ksapi.CodeGameNotActive, time.Second),
		move("sha", "/game/"+flag.id+"/move", 400, ksapi.CodeGameNotActive, time.Second)}
	log := strings.Join([]string{"INFO synced bot profile: ['berkeley']",
		"WARNING poll failed: 400 Client Error: Bad Request for url: http://127.0.0.1:1/game/" + flag.id + "/move",
		"WARNING poll failed: 400 Client Error: Bad Request for url: http://127.0.0.1:1/game/" + mate.id + "/move",
		"WARNING poll failed: 400 Client Error: Bad Request for url: http://127.0.0.1:1/game/" + flag.id + "/move",
		"WARNING poll failed: HTTPConnectionPool(host='127.0.0.1', port=1): Read timed out. (read timeout=20)",
		"Traceback (most recent call last):"}, "\n")
	siteLike, ours := a.judgeBot("shb", log)
	if len(siteLike) != 1 || !strings.Contains(siteLike[0], "flag fell in game 7") {
		t.Errorf("the site's answers: %q", siteLike)
	}
	want := []string{"/game/" + mate.id + "/move", "with no such answer", "Read timed out", "traceback"}
	if len(ours) != len(want) {
		t.Fatalf("ours: %q, want %d", ours, len(want))
	}
	for i, w := range want {
		if !strings.Contains(ours[i], w) {
			t.Errorf("ours[%d] = %q, want it to say %q", i, ours[i], w)
		}
	}
}
