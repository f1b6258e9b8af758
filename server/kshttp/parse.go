package kshttp

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net"
	"strings"
)

// Parsers of the bytes an HTTP client sends: paths, bearer tokens, game
// references. Each is pure, bounded and fuzzed (parse_test.go).

// Route names one route of the HTTP door. ParseRoute maps requests to
// routes, not Go's ServeMux: its patterns could match the routes, but not
// answer as the site does for what no route takes (JSON 404 and 405;
// docs/architecture.md says why).
type Route uint8

const (
	RouteNone         Route = iota // no route
	RouteHealth                    // GET /health
	RouteRegister                  // POST /auth/bots/register
	RouteMineActive                // GET /game/mine/active
	RouteMineArchived              // GET /game/mine/archived
	RouteMine                      // GET /game/mine
	RouteOpen                      // GET /game/open
	RouteCreate                    // POST /game/create
	RouteJoin                      // POST /game/join/{code}
	RouteMeta                      // GET /game/{ref}
	RouteDelete                    // DELETE /game/{ref}
	RouteState                     // GET /game/{ref}/state
	RouteMove                      // POST /game/{ref}/move
	RouteAskAny                    // POST /game/{ref}/ask-any
	RouteResign                    // POST /game/{ref}/resign
	RouteEvents                    // GET /game/{ref}/events
	RouteMoves                     // GET /game/{ref}/moves
	RouteBots                      // GET /bots
	RouteProfile                   // POST /bots/profile
	RouteAvailability              // POST /bots/availability
	RouteUser                      // GET /user/{name}
	RouteUserGames                 // GET /user/{name}/games?page=&per_page=
)

// maxPath bounds the path a route may have; anything longer is not found.
const maxPath = 256

// ParseRoute maps a method and a path (without the /api prefix) to a
// route and its one parameter (a game reference, a game code or a user
// name). It answers RouteNone with 404 for an unknown path and 405 for a
// known path with another method.
func ParseRoute(method, path string) (Route, string, int) {
	if len(path) > maxPath || !strings.HasPrefix(path, "/") {
		return RouteNone, "", 404
	}
	seg := strings.Split(path[1:], "/")
	pick := func(m string, rt Route, param string) (Route, string, int) {
		if method != m {
			return RouteNone, "", 405
		}
		return rt, param, 0
	}
	switch {
	case len(seg) == 1 && seg[0] == "health":
		return pick("GET", RouteHealth, "")
	case len(seg) == 3 && seg[0] == "auth" && seg[1] == "bots" && seg[2] == "register":
		return pick("POST", RouteRegister, "")
	case len(seg) == 1 && seg[0] == "bots":
		return pick("GET", RouteBots, "")
	case len(seg) == 2 && seg[0] == "bots" && seg[1] == "profile":
		return pick("POST", RouteProfile, "")
	case len(seg) == 2 && seg[0] == "bots" && seg[1] == "availability":
		return pick("POST", RouteAvailability, "")
	case len(seg) == 2 && seg[0] == "user" && seg[1] != "":
		return pick("GET", RouteUser, seg[1])
	case len(seg) == 3 && seg[0] == "user" && seg[1] != "" && seg[2] == "games":
		return pick("GET", RouteUserGames, seg[1])
	case len(seg) < 2 || seg[0] != "game" || seg[1] == "":
		return RouteNone, "", 404
	}
	switch {
	case len(seg) == 2 && seg[1] == "open":
		return pick("GET", RouteOpen, "")
	case len(seg) == 2 && seg[1] == "create":
		return pick("POST", RouteCreate, "")
	case len(seg) == 2 && seg[1] == "mine":
		return pick("GET", RouteMine, "")
	case len(seg) == 3 && seg[1] == "mine" && seg[2] == "active":
		return pick("GET", RouteMineActive, "")
	case len(seg) == 3 && seg[1] == "mine" && seg[2] == "archived":
		return pick("GET", RouteMineArchived, "")
	case len(seg) == 3 && seg[1] == "join" && seg[2] != "":
		return pick("POST", RouteJoin, seg[2])
	case len(seg) == 2:
		switch method {
		case "GET":
			return RouteMeta, seg[1], 0
		case "DELETE":
			return RouteDelete, seg[1], 0
		}
		return RouteNone, "", 405
	case len(seg) == 3:
		switch seg[2] {
		case "state":
			return pick("GET", RouteState, seg[1])
		case "move":
			return pick("POST", RouteMove, seg[1])
		case "ask-any":
			return pick("POST", RouteAskAny, seg[1])
		case "resign":
			return pick("POST", RouteResign, seg[1])
		case "events":
			return pick("GET", RouteEvents, seg[1])
		case "moves":
			return pick("GET", RouteMoves, seg[1])
		}
	}
	return RouteNone, "", 404
}

// StripAPIPrefix removes the /api prefix the site also mounts its routes
// under, which it honours only for its own app host and loopback names.
// ok is false for an /api path on any other Host (the site answers 404).
func StripAPIPrefix(path, host string) (string, bool) {
	if path != "/api" && !strings.HasPrefix(path, "/api/") {
		return path, true
	}
	if !apiHost(host) {
		return path, false
	}
	rest := strings.TrimPrefix(path, "/api")
	if rest == "" {
		rest = "/"
	}
	return rest, true
}

// apiHost reports whether a Host header names a host for which the site
// honours the /api prefix: app.kriegspiel.org, localhost, 127.0.0.1,
// testserver (and, here, any loopback address such as [::1]).
func apiHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.ToLower(strings.Trim(h, "[]"))
	switch h {
	case "app.kriegspiel.org", "localhost", "127.0.0.1", "testserver":
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

const (
	TokenPrefix    = "ksbot_"
	TokenIDLen     = 16 // hex digits
	TokenSecretLen = 32 // URL-safe base64 characters (24 random bytes)
	CodeAlphabet   = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	CodeLen        = 6
)

// RandomHex returns n random hex digits (n even): a bot_id, a game_id.
func RandomHex(n int) string {
	b := make([]byte, n/2)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// NewToken makes a bot token and its id, of the shape ParseBearer reads.
func NewToken() (id, token string) {
	var b [8 + 24]byte
	rand.Read(b[:])
	id = hex.EncodeToString(b[:8])
	return id, TokenPrefix + id + "." + base64.RawURLEncoding.EncodeToString(b[8:])
}

// ParseBearer reads "Bearer ksbot_<16 hex>.<32 url-safe base64>" and
// returns the token id and the whole token. The scheme is case-insensitive,
// as in HTTP.
func ParseBearer(header string) (id, token string, ok bool) {
	scheme, tok, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", "", false
	}
	tok = strings.TrimSpace(tok)
	id, ok = ParseToken(tok)
	return id, tok, ok
}

// ParseToken checks a bot token's shape and returns its id.
func ParseToken(tok string) (string, bool) {
	if len(tok) != len(TokenPrefix)+TokenIDLen+1+TokenSecretLen || !strings.HasPrefix(tok, TokenPrefix) {
		return "", false
	}
	rest := tok[len(TokenPrefix):]
	id, secret := rest[:TokenIDLen], rest[TokenIDLen:]
	if secret[0] != '.' {
		return "", false
	}
	if _, err := hex.DecodeString(id); err != nil || strings.ToLower(id) != id {
		return "", false
	}
	for _, ch := range []byte(secret[1:]) {
		if !(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_') {
			return "", false
		}
	}
	return id, true
}

// RefKind says what a game reference names.
type RefKind uint8

const (
	RefBad  RefKind = iota
	RefID           // a 24-hex game_id
	RefCode         // a 6-character game_code
)

// ParseRef reads a game reference: a 24-hex game_id (lower-cased) or a
// 6-character game_code (upper-cased; the alphabet leaves out 0, 1, I, L, O).
func ParseRef(ref string) (string, RefKind) {
	switch len(ref) {
	case 24:
		l := strings.ToLower(ref)
		if _, err := hex.DecodeString(l); err != nil {
			return "", RefBad
		}
		return l, RefID
	case CodeLen:
		u := strings.ToUpper(ref)
		for i := 0; i < len(u); i++ {
			if strings.IndexByte(CodeAlphabet, u[i]) < 0 {
				return "", RefBad
			}
		}
		return u, RefCode
	}
	return "", RefBad
}
