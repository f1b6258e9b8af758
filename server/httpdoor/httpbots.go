package httpdoor

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/kshttp"
	"kriegbot/server/ratelimit"
)

// Bots of the HTTP door: registration, tokens, profiles.

// webBot is a bot registered with the HTTP door. Guarded by the table's lock.
type webBot struct {
	ID          string    `json:"bot_id"`
	Username    string    `json:"username"`
	DisplayName string    `json:"display_name"`
	Email       string    `json:"owner_email"`
	Description string    `json:"description"`
	Listed      bool      `json:"listed"`
	Variants    []string  `json:"supported_rule_variants"`
	TokenID     string    `json:"token_id"`
	Digest      string    `json:"token_sha256"` // hex SHA-256 of the whole token
	Created     time.Time `json:"created_at"`
	// LastSeen is the bot's last authenticated request (kept in the token
	// file to the hour; zero for a token never used): presence for
	// `match`, and the bots' expiry.
	LastSeen time.Time `json:"last_seen"`

	username  string        // lower case, the key
	savedSeen time.Time     // LastSeen as the token file has it
	lastJoin  time.Time     // last successful join
	limit     *rate.Limiter // requests under this token, made at its first
	streams   int           // open event streams
	// refusedVariant is the last variant of a refused create (logged once).
	refusedVariant string
}

// botPresent is how recently an HTTP bot must have made a request to be
// challenged from telnet: the site's bots poll every 2 or 3 s, kriegbot
// every 2.5 s, so a minute of silence means the bot is not running.
const botPresent = time.Minute

func tokenDigest(token string) string {
	d := sha256.Sum256([]byte(token))
	return hex.EncodeToString(d[:])
}

// Name is the bot's seat name, its lower-case username (server.Bot).
func (b *webBot) Name() string { return b.username }

// Handle is the username as registered (server.Bot).
func (b *webBot) Handle() string { return b.Username }

// nameTaken reports whether a telnet handle, the TD or a bot already has
// name (a bot named as the TD would receive what players tell the TD).
func (web *Door) nameTaken(lname string) bool {
	s := web.s
	if _, online := s.LoggedIn(lname); web.bots[lname] != nil || online || strings.HasPrefix(lname, "guest") || s.IsTD(lname) {
		return true
	}
	return s.HasAccount(lname)
}

func (web *Door) apiRegister(req *request) *kshttp.Error {
	s := web.s
	var body ksapi.Registration
	if e := kshttp.DecodeBody(req.r, &body); e != nil {
		return e
	}
	reg, e := kshttp.CheckRegistration(&body)
	if e != nil {
		return e
	}
	bot := &webBot{Username: reg.Username, username: reg.Username, DisplayName: reg.DisplayName, Email: reg.Email,
		Description: reg.Description, Listed: reg.Listed, Variants: reg.Variants}
	id, token := kshttp.NewToken()
	bot.TokenID, bot.Digest = id, tokenDigest(token)
	s.Lock()
	// Expired registrations free their names and room first.
	web.sweepBots(s.Now())
	if web.nameTaken(bot.username) {
		s.Unlock()
		return kshttp.DetailError(409, ksapi.CodedDetail{Field: "username", Code: ksapi.CodeUsernameTaken, Message: "Username is already taken"})
	}
	if len(web.bots) >= web.cfg.MaxBots {
		s.Unlock()
		return kshttp.DetailError(503, "Too many bots registered")
	}
	bot.ID = kshttp.RandomHex(24)
	bot.Created = s.Now().UTC()
	web.bots[bot.username] = bot
	web.byToken[id] = bot
	// The token is shown once: the bot is in the file before it is.
	web.waitBotsSaved(web.saveBots())
	s.Unlock()
	s.Note().Msgf("http: bot %s registered from %s", bot.username, server.HostOf(stringAddr(req.r.RemoteAddr)))
	kshttp.WriteJSON(req.w, 201, ksapi.Registered{BotID: bot.ID, Username: bot.Username, DisplayName: bot.DisplayName,
		OwnerEmail: bot.Email, APIToken: token,
		Message: "Store this token now: it is shown only once."})
	return nil
}

// authenticate checks the bearer token and its per-token request budget.
func (web *Door) authenticate(r *http.Request) (*webBot, *kshttp.Error) {
	s := web.s
	id, token, ok := kshttp.ParseBearer(r.Header.Get("Authorization"))
	if !ok {
		return nil, kshttp.AuthError()
	}
	d := tokenDigest(token)
	s.Lock()
	defer s.Unlock()
	bot := web.byToken[id]
	if bot == nil || subtle.ConstantTimeCompare([]byte(d), []byte(bot.Digest)) != 1 {
		return nil, kshttp.AuthError()
	}
	now := s.Now()
	bot.LastSeen = now
	if bot.limit == nil {
		bot.limit = ratelimit.New(web.cfg.TokenRate, web.cfg.TokenBurst)
	}
	if ok, retry := ratelimit.Take(bot.limit, now); !ok {
		return nil, &kshttp.Error{Status: 429, Detail: "Too Many Requests", Retry: retry}
	}
	return bot, nil
}

// sweepBots removes the bots whose time is up (Config.BotIdle,
// BotUnused), never one with a game in progress or a waiting game, and
// saves the token file when a bot went or a LastSeen moved on by more
// than an hour since it was written (not on every request: the file is
// rewritten whole), and waits for that write (with the lock released, as
// for a registration): at most once a minute. Called with the table's
// lock held.
func (web *Door) sweepBots(now time.Time) {
	s := web.s
	web.swept = now
	cfg := &web.cfg
	busy := map[server.Bot]bool{}
	for _, g := range s.GamesInProgress() {
		for _, b := range g.Bots() {
			if b != nil {
				busy[b] = true
			}
		}
	}
	for _, sk := range s.LobbyAds() {
		if sk.Bot() != nil {
			busy[sk.Bot()] = true
		}
	}
	removed := false
	for name, b := range web.bots {
		if busy[b] {
			continue
		}
		why := ""
		switch {
		case b.LastSeen.IsZero() && cfg.BotUnused > 0 && now.Sub(b.Created) >= cfg.BotUnused:
			why = fmt.Sprintf("its token was never used in %v", cfg.BotUnused)
		case !b.LastSeen.IsZero() && cfg.BotIdle > 0 && now.Sub(b.LastSeen) >= cfg.BotIdle:
			why = fmt.Sprintf("no request for %v", cfg.BotIdle)
		default:
			continue
		}
		delete(web.bots, name)
		delete(web.byToken, b.TokenID)
		removed = true
		s.Note().Msgf("http: bot %s removed: %s", b.username, why)
	}
	if removed || web.seenChanged(time.Hour) {
		web.waitBotsSaved(web.saveBots())
	}
}

// seenChanged reports whether a bot's LastSeen is more than d past what
// the token file holds.
func (web *Door) seenChanged(d time.Duration) bool {
	if web.cfg.TokenFile == "" {
		return false
	}
	for _, b := range web.bots {
		if b.LastSeen.Sub(b.savedSeen) > d {
			return true
		}
	}
	return false
}

// botSaver writes the bots file off the server's lock. A change asks for
// a save (saveBots, under s.mu) and one goroutine at a time writes the
// state of the moment it starts; the changes made while a write is under
// way share the next write (coalesced), so however fast bots register,
// the file is written at most once per write time, and the lock is held
// only to copy the bots.
type botSaver struct {
	asked   uint64 // saves asked for (a generation)
	written uint64 // the last generation a write finished
	running bool   // a writer goroutine is at work
	// lines are the bots' lines of the last write (the writer's own).
	lines map[*webBot]savedLine
	done  *sync.Cond // on the table's lock: a write finished
	// write writes the file (writeFileAtomic; tests hold it up).
	write func(name string, data []byte) error
}

// saveBots asks for the bots to be written to TokenFile, if set, and
// returns the generation to wait for (waitBotsSaved). Called with the
// table's lock held.
func (web *Door) saveBots() uint64 {
	s := web.s
	sv := &web.saver
	if web.cfg.TokenFile == "" {
		return 0
	}
	if sv.done == nil {
		sv.done = sync.NewCond(s)
	}
	sv.asked++
	if !sv.running {
		sv.running = true
		go web.writeBots()
	}
	return sv.asked
}

// waitBotsSaved waits (the table's lock held, released while waiting) until a write
// that began at generation gen or later has finished (writeBots logs a
// failure).
func (web *Door) waitBotsSaved(gen uint64) {
	for web.saver.written < gen {
		web.saver.done.Wait()
	}
}

// waitBotsIdle waits (the table's lock held) until no write is under way: Close's
// last word, so that the file holds every change made before it.
func (web *Door) waitBotsIdle() {
	for web.saver.running {
		web.saver.done.Wait()
	}
}

// writeBots is the writer goroutine: it writes until the file holds the
// last generation asked for. Under the lock it only collects the bots and
// copies those changed since the last write; it marshals them outside,
// and reuses the other bots' lines.
func (web *Door) writeBots() {
	s := web.s
	sv := &web.saver
	s.Lock()
	defer s.Unlock()
	for sv.written < sv.asked {
		gen := sv.asked
		ents := make([]botLine, 0, len(web.bots))
		for _, b := range web.bots {
			e := botLine{bot: b, name: b.username}
			if l, ok := sv.lines[b]; ok && l.seen.Equal(b.LastSeen) && sameSlice(l.variants, b.Variants) {
				e.saved = l
			} else {
				cp := *b
				e.changed = &cp
			}
			ents = append(ents, e)
		}
		s.Unlock()
		data, lines := botsFile(ents)
		write := sv.write
		if write == nil {
			write = writeFileAtomic
		}
		err := write(web.cfg.TokenFile, data)
		s.Lock()
		sv.lines = lines
		if err == nil {
			for b, l := range lines {
				b.savedSeen = l.seen
			}
		} else {
			s.Warn().Msgf("http: saving bots: %v", err)
		}
		sv.written = gen
		sv.done.Broadcast()
	}
	sv.running = false
	sv.done.Broadcast()
}

// botLine is one bot as writeBots collects it: its line of the last
// write, or a copy to marshal.
type botLine struct {
	bot     *webBot
	name    string
	saved   savedLine
	changed *webBot
}

// savedLine is a bot's line in the file and what it was made from of
// what changes (LastSeen; Variants, which a profile replaces whole).
type savedLine struct {
	seen     time.Time
	variants []string
	line     []byte
}

func sameSlice(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// botsFile is the bots file, one JSON line per bot by username, and each
// bot's line for the next write.
func botsFile(ents []botLine) ([]byte, map[*webBot]savedLine) {
	slices.SortFunc(ents, func(a, b botLine) int { return strings.Compare(a.name, b.name) })
	lines := make(map[*webBot]savedLine, len(ents))
	size := 0
	for i := range ents {
		e := &ents[i]
		if e.changed != nil {
			line, _ := json.Marshal(e.changed)
			e.saved = savedLine{seen: e.changed.LastSeen, variants: e.changed.Variants, line: line}
		}
		lines[e.bot] = e.saved
		size += len(e.saved.line) + 1
	}
	out := make([]byte, 0, size)
	for _, e := range ents {
		out = append(append(out, e.saved.line...), '\n')
	}
	return out, lines
}

// writeFileAtomic replaces name with data (mode 0600): a temporary file
// in the same folder, synced, then renamed, so that a crash leaves the
// old file or the new one, never a part.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".bots-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// loadBots reads TokenFile; a missing file is an empty one.
func (web *Door) loadBots(now time.Time) error {
	name := web.cfg.TokenFile
	if name == "" {
		return nil
	}
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var bot webBot
		if err := json.Unmarshal(sc.Bytes(), &bot); err != nil {
			return fmt.Errorf("%s:%d: %v", name, n, err)
		}
		bot.username = lowerASCII(bot.Username)
		// A file written before last_seen existed says nothing of use:
		// those bots count as seen now, not as never used (which would
		// remove every bot registered more than a day ago at once).
		var seen struct {
			LastSeen *time.Time `json:"last_seen"`
		}
		if json.Unmarshal(sc.Bytes(), &seen) == nil && seen.LastSeen == nil {
			bot.LastSeen = now
		}
		if _, ok := kshttp.ParseToken(kshttp.TokenPrefix + bot.TokenID + "." + strings.Repeat("A", kshttp.TokenSecretLen)); !ok || len(bot.Digest) != 64 || bot.username == "" {
			return fmt.Errorf("%s:%d: not a bot record", name, n)
		}
		if seen.LastSeen != nil {
			bot.savedSeen = bot.LastSeen
		}
		web.bots[bot.username] = &bot
		web.byToken[bot.TokenID] = &bot
	}
	return sc.Err()
}

func (web *Door) sortedBots() []*webBot {
	out := make([]*webBot, 0, len(web.bots))
	for _, b := range web.bots {
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *webBot) int { return strings.Compare(a.username, b.username) })
	return out
}

func (web *Door) apiBots(req *request) *kshttp.Error {
	s := web.s
	s.Lock()
	list := []ksapi.Bot{}
	for _, b := range web.sortedBots() {
		if b.Listed {
			list = append(list, ksapi.Bot{BotID: b.ID, Username: b.Username, DisplayName: b.DisplayName,
				Description: b.Description, Elo: s.Rating(b.username), Ratings: map[string]any{},
				RuleVariants: b.Variants})
		}
	}
	s.Unlock()
	kshttp.WriteJSON(req.w, 200, ksapi.Bots{Bots: list})
	return nil
}

func (web *Door) apiProfile(req *request) *kshttp.Error {
	s := web.s
	var body ksapi.Profile
	if e := kshttp.DecodeBody(req.r, &body); e != nil {
		return e
	}
	if body.RuleVariants == nil || len(body.RuleVariants) > len(ksapi.RuleVariants()) {
		return kshttp.Invalid("supported_rule_variants", "a list of rule variants")
	}
	for _, v := range body.RuleVariants {
		if !kshttp.IsRuleVariant(v) {
			return kshttp.Invalid("supported_rule_variants", "unknown rule variant")
		}
	}
	s.Lock()
	req.bot.Variants = slices.Clone(body.RuleVariants)
	web.waitBotsSaved(web.saveBots())
	s.Unlock()
	kshttp.WriteJSON(req.w, 200, ksapi.ProfileSaved{OK: true, RuleVariants: body.RuleVariants})
	return nil
}

// apiUser answers GET /user/{username}: a bot, a telnet player or a
// player of a kept game, with the role the site would give it (siteRole).
func (web *Door) apiUser(req *request) *kshttp.Error {
	s := web.s
	lname := lowerASCII(req.param)
	s.Lock()
	defer s.Unlock()
	name, role, ok := web.userName(lname)
	if !ok {
		return kshttp.DetailError(404, "User not found")
	}
	display := name
	if b := web.bots[lname]; b != nil {
		display = b.DisplayName
	}
	kshttp.WriteJSON(req.w, 200, ksapi.User{Username: name, DisplayName: display, Role: role, IsBot: role == "bot",
		Elo: s.Rating(name), Ratings: map[string]any{}, Stats: map[string]any{}})
	return nil
}
