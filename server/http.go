package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"kriegbot/protocol/ksapi"
	"kriegbot/server/kshttp"
)

// The HTTP door: the kriegspiel.org bot API (docs/kriegspiel-org-api.md)
// over the same games, seeks and lock as the telnet door. http.go holds
// the configuration, the request path (prefix, limits, authentication,
// routing) and the answers' envelopes; httpbots.go the bots and their
// tokens; httpgames.go the lobby and the games; httpview.go the JSON views
// of games (kshttp projects the referee's answers); httpsse.go the event
// streams.
// docs/kriegspiel-org.md says what it implements and where it differs
// from the site.

// HTTPConfig sets up the HTTP door. Zero fields take the defaults in their
// comments.
type HTTPConfig struct {
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
}

func (c *HTTPConfig) fill() {
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

// httpDoor is the HTTP door: its state, guarded by the server's lock
// (cfg is fixed at New), and its methods. It reaches the game table
// through s: each "s." in its methods is a use of the table that a door
// in a package of its own would make through the table's API.
type httpDoor struct {
	s        *Server
	cfg      HTTPConfig
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

func newHTTPDoor(cfg HTTPConfig) httpDoor {
	cfg.fill()
	return httpDoor{cfg: cfg, bots: map[string]*webBot{}, byToken: map[string]*webBot{},
		streams: map[string]map[*stream]struct{}{}, perAddr: map[string]*rate.Limiter{}, regAddr: map[string]*rate.Limiter{},
		perHost: map[string]int{}}
}

// limitAddr spends one request from the address's bucket in table,
// pruning full buckets when the table grows past 10,000 addresses.
func (web *httpDoor) limitAddr(table map[string]*rate.Limiter, addr string, perSecond, burst float64) (bool, time.Duration) {
	s := web.s
	now := s.cfg.Now()
	lim := table[addr]
	if lim == nil {
		if len(table) >= 10000 {
			for a, x := range table {
				if x.TokensAt(now) >= burst {
					delete(table, a)
				}
			}
		}
		lim = newLimiter(perSecond, burst)
		table[addr] = lim
	}
	return take(lim, now)
}

// APIHandler returns the HTTP door's handler: the kriegspiel.org bot API.
func (s *Server) APIHandler() http.Handler { return http.HandlerFunc(s.http.serveAPI) }

// ServeAPI serves the HTTP door on ln until Close. It returns nil after
// Close.
func (s *Server) ServeAPI(ln net.Listener) error {
	hs := &http.Server{Handler: s.APIHandler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		ConnState: s.http.httpConnState}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.http.servers = append(s.http.servers, hs)
	s.mu.Unlock()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// httpConnState holds the HTTP door to the telnet door's connection
// limits (MaxConns, MaxConnsPerHost, counted apart): a connection over
// them is closed at once.
func (web *httpDoor) httpConnState(c net.Conn, st http.ConnState) {
	s := web.s
	host := hostOf(c.RemoteAddr())
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		web.conns++
		web.perHost[host]++
		if web.conns > s.cfg.MaxConns || web.perHost[host] > s.cfg.MaxConnsPerHost {
			c.Close()
		}
	case http.StateClosed, http.StateHijacked:
		web.conns--
		if web.perHost[host]--; web.perHost[host] <= 0 {
			delete(web.perHost, host)
		}
	}
}

// closeAPI ends the event streams (each gets "shutdown") and stops the
// HTTP servers, giving open requests a moment to finish.
func (web *httpDoor) closeAPI() {
	s := web.s
	s.mu.Lock()
	servers := web.servers
	web.servers = nil
	if web.seenChanged(0) {
		web.saveBots()
	}
	s.mu.Unlock()
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
	s.mu.Lock()
	web.waitBotsIdle()
	s.mu.Unlock()
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
func (web *httpDoor) serveAPI(w http.ResponseWriter, r *http.Request) {
	s := web.s
	r.Body = http.MaxBytesReader(w, r.Body, web.cfg.MaxBody)
	if strings.HasPrefix(r.URL.Path, "/tourney/") {
		s.td.serveTourney(w, r) // the TD's pages, not the bot API
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
	addr := hostOf(stringAddr(r.RemoteAddr))
	cfg := &web.cfg
	s.mu.Lock()
	if now := s.cfg.Now(); now.Sub(web.swept) >= time.Minute {
		web.sweepBots(now)
	}
	ok, retry := web.limitAddr(web.perAddr, addr, cfg.Rate, cfg.Burst)
	if ok && rt == kshttp.RouteRegister {
		ok, retry = web.limitAddr(web.regAddr, addr, cfg.RegisterRate, cfg.RegisterBurst)
	}
	s.mu.Unlock()
	if !ok {
		kshttp.WriteError(w, &kshttp.Error{Status: 429, Detail: "Too Many Requests", Retry: retry})
		return
	}
	req := &request{w: w, r: r, route: rt, param: param}
	if rt != kshttp.RouteHealth && rt != kshttp.RouteRegister && rt != kshttp.RouteUser {
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

// stringAddr lets hostOf read an address given as a string.
type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

// lowerASCII is strings.ToLower for the ASCII names the API uses.
func lowerASCII(s string) string { return strings.ToLower(s) }
