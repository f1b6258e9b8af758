package httpdoor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
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

// http.go holds
// the configuration, the request path (prefix, limits, authentication,
// routing) and the answers' envelopes; httpbots.go the bots and their
// tokens; httpgames.go the lobby and the games; httpview.go the JSON views
// of games (kshttp projects the referee's answers); httpsse.go the event
// streams.
// docs/kriegspiel-org.md says what it implements and where it differs
// from the site.

// Config sets up the HTTP door. Zero fields take the defaults in their
// comments.
type Config struct {
	// Minutes and Inc are the time control of games a bot creates (the
	// site's only one, rapid: 25 minutes + 10 s).
	Minutes, Inc int
	// WaitingTTL is how long a bot's waiting game stays in the lobby
	// (default 10 min). IdleGame aborts a started game in which White
	// never moves (default 1 h).
	WaitingTTL, IdleGame time.Duration
	// JoinCooldown is the least time between two joins by one bot
	// (default 60 s; negative: none).
	JoinCooldown time.Duration
	// KeepAlive is the idle time after which an event stream gets a
	// ": keepalive" comment (default 15 s). QueueLen is each stream's
	// queue of events, oldest dropped when full (default 16).
	KeepAlive time.Duration
	QueueLen  int
	// MaxStreamsPerBot and MaxStreams bound open event streams (defaults
	// 4 and 1000).
	MaxStreamsPerBot, MaxStreams int
	// MaxBots bounds registered bots (default 10,000); MaxActivePerBot
	// the games one bot plays at once (default 20).
	MaxBots, MaxActivePerBot int
	// MaxBody bounds a request body (default 16 KiB).
	MaxBody int64
	// AccessLog, when set, gets one line per API request the door routes:
	// its time (microseconds, UTC), method, path and query, and the
	// asking address (never a header: the token stays out), so a client's
	// request rate can be checked from the server's side.
	AccessLog io.Writer
	// Rate and Burst bound requests per address (defaults 30/s, burst
	// 60); TokenRate and TokenBurst per bot token (20/s, 40);
	// RegisterRate and RegisterBurst registrations per address (5/s, 10),
	// like the site's nginx. Excess gets 429 with Retry-After.
	Rate, Burst                 float64
	TokenRate, TokenBurst       float64
	RegisterRate, RegisterBurst float64
	// TokenFile, when set, keeps the bots (with token digests, never the
	// tokens) across restarts, in a file of mode 0600.
	TokenFile string
	// BotIdle removes a bot that has made no authenticated request for
	// that long and has no game in progress or waiting (default 30 days;
	// negative: never). BotUnused removes sooner a bot whose token was
	// never used (default 24 h; negative: never). Registration is free and
	// needs no key, so without them abandoned and junk registrations would
	// hold their names and fill MaxBots for good.
	BotIdle, BotUnused time.Duration
	// Pages serves the TD's event pages, the paths under /tourney/
	// (tddoor.Door.ServeTourney; nil: none). allow spends one request of
	// the asking host's budget, the API's; Pages calls it with the
	// table's lock held.
	Pages func(w http.ResponseWriter, r *http.Request, allow func() (bool, time.Duration))
}

func (c *Config) fill() {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	defD := func(p *time.Duration, v time.Duration) {
		if *p == 0 {
			*p = v
		}
	}
	defF := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	if c.Minutes == 0 && c.Inc == 0 {
		c.Minutes, c.Inc = 25, 10
	}
	defD(&c.WaitingTTL, 10*time.Minute)
	defD(&c.IdleGame, time.Hour)
	defD(&c.JoinCooldown, time.Minute)
	defD(&c.KeepAlive, 15*time.Second)
	defD(&c.BotIdle, 30*24*time.Hour)
	defD(&c.BotUnused, 24*time.Hour)
	def(&c.QueueLen, 16)
	def(&c.MaxStreamsPerBot, 4)
	def(&c.MaxStreams, 1000)
	def(&c.MaxBots, 10000)
	def(&c.MaxActivePerBot, 20)
	if c.MaxBody == 0 {
		c.MaxBody = 16 << 10
	}
	defF(&c.Rate, 30)
	defF(&c.Burst, 60)
	defF(&c.TokenRate, 20)
	defF(&c.TokenBurst, 40)
	defF(&c.RegisterRate, 5)
	defF(&c.RegisterBurst, 10)
}

// Door is the HTTP door: its state, guarded by the table's lock (cfg is
// fixed at New), and its methods. It reaches the game table through s,
// by the table's API only.
type Door struct {
	s        *server.Server
	cfg      Config
	bots     map[string]*webBot // by lower-case username
	byToken  map[string]*webBot // by token id
	streams  map[string]map[*stream]struct{}
	nstreams int
	perAddr  map[string]*rate.Limiter // request budget per remote address
	regAddr  map[string]*rate.Limiter // registration budget per remote address
	conns    int                      // open HTTP connections
	perHost  map[string]int           // open HTTP connections by remote host
	servers  []*http.Server
	swept    time.Time // the last sweepBots
	saver    botSaver  // writes the bots file (httpbots.go)
}

// New opens the HTTP door on the table s: it reads the bots
// kept in TokenFile, follows the table's games after the doors already
// there, and lets telnet users match its bots.
func New(s *server.Server, cfg Config) (*Door, error) {
	cfg.fill()
	web := &Door{s: s, cfg: cfg, bots: map[string]*webBot{}, byToken: map[string]*webBot{},
		streams: map[string]map[*stream]struct{}{}, perAddr: map[string]*rate.Limiter{}, regAddr: map[string]*rate.Limiter{},
		perHost: map[string]int{}}
	if err := web.loadBots(s.Now()); err != nil {
		return nil, err
	}
	s.Lock()
	defer s.Unlock()
	s.Subscribe(web)
	s.SetBots(web)
	// Bots whose time ran out while the server was down go now.
	web.sweepBots(s.Now())
	return web, nil
}

// FindBot returns the bot registered as lname, or nil (server.BotDoor).
func (web *Door) FindBot(lname string) server.Bot {
	if b := web.bots[lname]; b != nil {
		return b
	}
	return nil
}

// Unavailable says why bot cannot start a game that a telnet user asks
// for with `match`: it does not play wild16, is not running (no request
// within botPresent), or plays as many games as it may (server.BotDoor).
func (web *Door) Unavailable(b server.Bot, now time.Time) string {
	bot := b.(*webBot)
	switch {
	case !slices.Contains(bot.Variants, "wild16"):
		return fmt.Sprintf("%s does not play wild 16 (its supported_rule_variants lack wild16).", bot.Username)
	case bot.LastSeen.IsZero() || now.Sub(bot.LastSeen) > botPresent:
		return fmt.Sprintf("%s is not connected: an HTTP bot that has made no request for %v is taken to be away.", bot.Username, botPresent)
	case web.activeCount(bot) >= web.cfg.MaxActivePerBot:
		return fmt.Sprintf("%s is playing too many games; try later.", bot.Username)
	}
	return ""
}

// IdleGame is Config.IdleGame (server.BotDoor).
func (web *Door) IdleGame() time.Duration { return web.cfg.IdleGame }

// limitAddr spends one request from the address's bucket in table,
// pruning full buckets when the table grows past 10,000 addresses.
func (web *Door) limitAddr(table map[string]*rate.Limiter, addr string, perSecond, burst float64) (bool, time.Duration) {
	s := web.s
	now := s.Now()
	lim := table[addr]
	if lim == nil {
		if len(table) >= 10000 {
			for a, x := range table {
				if x.TokensAt(now) >= burst {
					delete(table, a)
				}
			}
		}
		lim = ratelimit.New(perSecond, burst)
		table[addr] = lim
	}
	return ratelimit.Take(lim, now)
}

// Handler is the HTTP door's handler: the kriegspiel.org bot API, and
// the TD's event pages under /tourney/.
func (web *Door) Handler() http.Handler { return http.HandlerFunc(web.serveAPI) }

// ServeAPI serves the HTTP door on ln until the table closes. It returns nil
// after the table's Close.
func (web *Door) ServeAPI(ln net.Listener) error {
	s := web.s
	hs := &http.Server{Handler: web.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		ConnState: web.httpConnState}
	s.Lock()
	if s.Closed() {
		s.Unlock()
		ln.Close()
		return nil
	}
	web.servers = append(web.servers, hs)
	s.Unlock()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// httpConnState holds the HTTP door to the telnet door's connection
// limits (MaxConns, MaxConnsPerHost, counted apart): a connection over
// them is closed at once.
func (web *Door) httpConnState(c net.Conn, st http.ConnState) {
	s := web.s
	host := server.HostOf(c.RemoteAddr())
	s.Lock()
	defer s.Unlock()
	maxConns, maxPerHost := s.ConnLimits()
	switch st {
	case http.StateNew:
		web.conns++
		web.perHost[host]++
		if web.conns > maxConns || web.perHost[host] > maxPerHost {
			c.Close()
		}
	case http.StateClosed, http.StateHijacked:
		web.conns--
		if web.perHost[host]--; web.perHost[host] <= 0 {
			delete(web.perHost, host)
		}
	}
}

// Closed stops the HTTP servers, giving open requests a moment to
// finish, once the table has closed (server.DoorCloser).
func (web *Door) Closed() {
	s := web.s
	s.Lock()
	servers := web.servers
	web.servers = nil
	if web.seenChanged(0) {
		web.saveBots()
	}
	s.Unlock()
	var wg sync.WaitGroup
	for _, hs := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if hs.Shutdown(ctx) != nil {
				hs.Close()
			}
		}()
	}
	wg.Wait()
	s.Lock()
	web.waitBotsIdle()
	s.Unlock()
}

// request is one API request after routing and authentication.
type request struct {
	w     http.ResponseWriter
	r     *http.Request
	route kshttp.Route
	param string
	bot   *webBot // nil on routes without authentication
}

// serveAPI runs one request: the /api prefix, routing, the per-address
// limit, authentication, the per-token limit, then the route.
func (web *Door) serveAPI(w http.ResponseWriter, r *http.Request) {
	s := web.s
	r.Body = http.MaxBytesReader(w, r.Body, web.cfg.MaxBody)
	if strings.HasPrefix(r.URL.Path, "/tourney/") {
		// The TD's pages, not the bot API, from the same budget.
		if web.cfg.Pages == nil {
			http.NotFound(w, r)
			return
		}
		host := server.HostOf(stringAddr(r.RemoteAddr))
		web.cfg.Pages(w, r, func() (bool, time.Duration) { return web.limitAddr(web.perAddr, host, web.cfg.Rate, web.cfg.Burst) })
		return
	}
	path, ok := kshttp.StripAPIPrefix(r.URL.Path, r.Host)
	if !ok {
		kshttp.WriteError(w, kshttp.DetailError(404, "Not Found"))
		return
	}
	rt, param, status := kshttp.ParseRoute(r.Method, path)
	if status != 0 {
		msg := "Not Found"
		if status == 405 {
			msg = "Method Not Allowed"
		}
		kshttp.WriteError(w, kshttp.DetailError(status, msg))
		return
	}
	addr := server.HostOf(stringAddr(r.RemoteAddr))
	cfg := &web.cfg
	s.Lock()
	if cfg.AccessLog != nil {
		fmt.Fprintf(cfg.AccessLog, "%s %s %s from %s\n", s.Now().UTC().Format("2006-01-02T15:04:05.000000Z"), r.Method, r.URL.RequestURI(), addr)
	}
	if now := s.Now(); now.Sub(web.swept) >= time.Minute {
		web.sweepBots(now)
	}
	ok, retry := web.limitAddr(web.perAddr, addr, cfg.Rate, cfg.Burst)
	if ok && rt == kshttp.RouteRegister {
		ok, retry = web.limitAddr(web.regAddr, addr, cfg.RegisterRate, cfg.RegisterBurst)
	}
	s.Unlock()
	if !ok {
		kshttp.WriteError(w, &kshttp.Error{Status: 429, Detail: "Too Many Requests", Retry: retry})
		return
	}
	req := &request{w: w, r: r, route: rt, param: param}
	if rt != kshttp.RouteHealth && rt != kshttp.RouteRegister && rt != kshttp.RouteUser && rt != kshttp.RouteUserGames {
		bot, e := web.authenticate(r)
		if e != nil {
			kshttp.WriteError(w, e)
			return
		}
		req.bot = bot
	}
	var e *kshttp.Error
	switch rt {
	case kshttp.RouteHealth:
		kshttp.WriteJSON(w, 200, ksapi.Health{Status: "ok", DB: "connected", Version: "kriegbot"})
	case kshttp.RouteRegister:
		e = web.apiRegister(req)
	case kshttp.RouteUser:
		e = web.apiUser(req)
	case kshttp.RouteUserGames:
		e = web.apiUserGames(req)
	case kshttp.RouteBots:
		e = web.apiBots(req)
	case kshttp.RouteProfile:
		e = web.apiProfile(req)
	case kshttp.RouteAvailability:
		kshttp.WriteJSON(w, 200, ksapi.OK{OK: true})
	case kshttp.RouteEvents:
		e = web.apiEvents(req)
	default:
		e = web.apiGame(req)
	}
	if e != nil {
		kshttp.WriteError(w, e)
	}
}

// stringAddr lets HostOf read an address given as a string.
type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

// lowerASCII is strings.ToLower for the ASCII names the API uses.
func lowerASCII(s string) string { return strings.ToLower(s) }
