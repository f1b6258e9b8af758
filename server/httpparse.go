package server

import (
	"encoding/hex"
	"net"
	"strings"
)

// Parsers of the bytes an HTTP client sends: paths, bearer tokens, game
// references. Each is pure, bounded and fuzzed
// (httpparse_test.go).

// routeName names one route of the HTTP door.
type routeName uint8

const (
	rtNone routeName = iota
	rtHealth
	rtRegister
	rtMineActive
	rtMineArchived
	rtMine
	rtOpen
	rtCreate
	rtJoin
	rtMeta
	rtDelete
	rtState
	rtMove
	rtAskAny
	rtResign
	rtEvents
	rtMoves
	rtBots
	rtProfile
	rtAvailability
	rtUser
)

// maxPath bounds the path a route may have; anything longer is not found.
const maxPath = 256

// parseRoute maps a method and a path (without the /api prefix) to a
// route and its one parameter (a game reference, a game code or a user
// name). It answers rtNone with 404 for an unknown path and 405 for a
// known path with another method.
func parseRoute(method, path string) (routeName, string, int) {
	if len(path) > maxPath || !strings.HasPrefix(path, "/") {
		return rtNone, "", 404
	}
	seg := strings.Split(path[1:], "/")
	pick := func(m string, rt routeName, param string) (routeName, string, int) {
		if method != m {
			return rtNone, "", 405
		}
		return rt, param, 0
	}
	switch {
	case len(seg) == 1 && seg[0] == "health":
		return pick("GET", rtHealth, "")
	case len(seg) == 3 && seg[0] == "auth" && seg[1] == "bots" && seg[2] == "register":
		return pick("POST", rtRegister, "")
	case len(seg) == 1 && seg[0] == "bots":
		return pick("GET", rtBots, "")
	case len(seg) == 2 && seg[0] == "bots" && seg[1] == "profile":
		return pick("POST", rtProfile, "")
	case len(seg) == 2 && seg[0] == "bots" && seg[1] == "availability":
		return pick("POST", rtAvailability, "")
	case len(seg) == 2 && seg[0] == "user" && seg[1] != "":
		return pick("GET", rtUser, seg[1])
	case len(seg) < 2 || seg[0] != "game" || seg[1] == "":
		return rtNone, "", 404
	}
	switch {
	case len(seg) == 2 && seg[1] == "open":
		return pick("GET", rtOpen, "")
	case len(seg) == 2 && seg[1] == "create":
		return pick("POST", rtCreate, "")
	case len(seg) == 2 && seg[1] == "mine":
		return pick("GET", rtMine, "")
	case len(seg) == 3 && seg[1] == "mine" && seg[2] == "active":
		return pick("GET", rtMineActive, "")
	case len(seg) == 3 && seg[1] == "mine" && seg[2] == "archived":
		return pick("GET", rtMineArchived, "")
	case len(seg) == 3 && seg[1] == "join" && seg[2] != "":
		return pick("POST", rtJoin, seg[2])
	case len(seg) == 2:
		switch method {
		case "GET":
			return rtMeta, seg[1], 0
		case "DELETE":
			return rtDelete, seg[1], 0
		}
		return rtNone, "", 405
	case len(seg) == 3:
		switch seg[2] {
		case "state":
			return pick("GET", rtState, seg[1])
		case "move":
			return pick("POST", rtMove, seg[1])
		case "ask-any":
			return pick("POST", rtAskAny, seg[1])
		case "resign":
			return pick("POST", rtResign, seg[1])
		case "events":
			return pick("GET", rtEvents, seg[1])
		case "moves":
			return pick("GET", rtMoves, seg[1])
		}
	}
	return rtNone, "", 404
}

// stripAPIPrefix removes the /api prefix the site also mounts its routes
// under, which it honours only for its own app host and loopback names.
// ok is false for an /api path on any other Host (the site answers 404).
func stripAPIPrefix(path, host string) (string, bool) {
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
	tokenPrefix    = "ksbot_"
	tokenIDLen     = 16 // hex digits
	tokenSecretLen = 32 // URL-safe base64 characters (24 random bytes)
	codeAlphabet   = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	codeLen        = 6
)

// parseBearer reads "Bearer ksbot_<16 hex>.<32 url-safe base64>" and
// returns the token id and the whole token. The scheme is case-insensitive,
// as in HTTP.
func parseBearer(header string) (id, token string, ok bool) {
	scheme, tok, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", "", false
	}
	tok = strings.TrimSpace(tok)
	id, ok = parseToken(tok)
	return id, tok, ok
}

// parseToken checks a bot token's shape and returns its id.
func parseToken(tok string) (string, bool) {
	if len(tok) != len(tokenPrefix)+tokenIDLen+1+tokenSecretLen || !strings.HasPrefix(tok, tokenPrefix) {
		return "", false
	}
	rest := tok[len(tokenPrefix):]
	id, secret := rest[:tokenIDLen], rest[tokenIDLen:]
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

// refKind says what a game reference names.
type refKind uint8

const (
	refBad  refKind = iota
	refID           // a 24-hex game_id
	refCode         // a 6-character game_code
)

// parseRef reads a game reference: a 24-hex game_id (lower-cased) or a
// 6-character game_code (upper-cased; the alphabet leaves out 0, 1, I, L, O).
func parseRef(ref string) (string, refKind) {
	switch len(ref) {
	case 24:
		l := strings.ToLower(ref)
		if _, err := hex.DecodeString(l); err != nil {
			return "", refBad
		}
		return l, refID
	case codeLen:
		u := strings.ToUpper(ref)
		for i := 0; i < len(u); i++ {
			if strings.IndexByte(codeAlphabet, u[i]) < 0 {
				return "", refBad
			}
		}
		return u, refCode
	}
	return "", refBad
}
