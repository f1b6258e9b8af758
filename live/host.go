package live

import (
	"net"
	"net/http"
	"strings"
)

// hostCheck answers only requests whose Host header names the address the
// page listens on: through DNS rebinding, a web page the operator visits
// could otherwise name its own host, resolve it to our address and read
// /state.json (our men, our belief, our candidates). A rebinding attacker
// controls a name, never an IP literal, so the literals we listen on and
// the loopback names (when we listen on loopback) are safe; any other name
// must be given (names).
type hostCheck struct {
	ip    net.IP // the address listened on; nil or unspecified: every address
	port  string
	names map[string]bool // lower case, without a port
	next  http.Handler
}

// newHostCheck guards next for a server listening on listen; names are the
// extra Host names it may be reached by (without a port).
func newHostCheck(listen net.Addr, names []string, next http.Handler) *hostCheck {
	c := &hostCheck{names: map[string]bool{}, next: next}
	if host, port, err := net.SplitHostPort(listen.String()); err == nil {
		c.ip, c.port = net.ParseIP(host), port
	}
	for _, n := range names {
		c.names[strings.ToLower(strings.TrimSuffix(n, "."))] = true
	}
	return c
}

func (c *hostCheck) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !c.allowed(r.Host) {
		http.Error(w, "this page answers only to the address it listens on", http.StatusMisdirectedRequest)
		return
	}
	c.next.ServeHTTP(w, r)
}

// allowed reports whether hostport (a Host header) names us.
func (c *hostCheck) allowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		// No port: the browser's default, 80.
		host, port = hostport, "80"
	}
	if port != c.port || host == "" {
		return false
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if c.names[host] {
		return true
	}
	every := c.ip == nil || c.ip.IsUnspecified()
	if ip := net.ParseIP(host); ip != nil {
		return every || ip.Equal(c.ip) || (ip.IsLoopback() && c.ip.IsLoopback())
	}
	return host == "localhost" && (every || c.ip.IsLoopback())
}
