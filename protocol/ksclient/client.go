package ksclient

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"kriegbot/protocol/ksapi"
)

// Config is what a Client needs.
type Config struct {
	// URL is the API's base, e.g. "https://api.kriegspiel.org".
	URL string
	// Token is the bot's bearer token ("" for registration only). It is
	// sent only in the Authorization header and never written anywhere.
	Token string
	// HTTP is the HTTP client (default: one with no overall timeout; each
	// request has Timeout).
	HTTP *http.Client
	// Timeout bounds one request (default 20 s, as the site's bots use).
	Timeout time.Duration
	// Transcript, when set, receives every exchange with the token masked.
	Transcript io.Writer
	// UserAgent names us to the site.
	UserAgent string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Rate bounds the requests per second (default 8, bursts of up to
	// Rate): well under the site's 30 per second, whatever the player does.
	// Event streams are not counted.
	Rate float64
}

// Client speaks to the API. Its methods may be called from several
// goroutines (the event streams run beside the game loop).
type Client struct {
	base    *url.URL
	token   string
	hc      *http.Client
	timeout time.Duration
	agent   string
	now     func() time.Time
	tmu     sync.Mutex
	tw      io.Writer
	// Pacing: a token bucket of rate per second (pmu).
	pmu    sync.Mutex
	rate   float64
	tokens float64
	filled time.Time
	// lastBody is the last reply's hash per GET path (tmu), so that the
	// transcript writes an unchanged poll reply only once.
	lastBody map[string][32]byte
}

// New makes a client.
func New(c Config) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(c.URL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("ksclient: bad base URL %q", c.URL)
	}
	cl := &Client{base: u, token: c.Token, hc: c.HTTP, timeout: c.Timeout, agent: c.UserAgent, now: c.Now, tw: c.Transcript}
	if cl.hc == nil {
		cl.hc = &http.Client{}
	}
	if cl.timeout <= 0 {
		cl.timeout = 20 * time.Second
	}
	if cl.now == nil {
		cl.now = time.Now
	}
	if cl.agent == "" {
		cl.agent = "kriegbot"
	}
	cl.rate = c.Rate
	if cl.rate <= 0 {
		cl.rate = 8
	}
	cl.tokens = cl.rate
	return cl, nil
}

// Error classification.

// Unauthorized reports a 401: the token is wrong or revoked; retrying
// cannot help.
func Unauthorized(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.Status == http.StatusUnauthorized
}

// Retryable reports a failure worth trying again later with backoff: the
// network, a time-out, 408, 429, any 5xx, or a reply not understood.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	var e *APIError
	if errors.As(err, &e) {
		return e.Status == http.StatusTooManyRequests || e.Status == http.StatusRequestTimeout || e.Status >= 500
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	return true // net errors, time-outs, torn or garbled replies
}

// Code returns the API error code of err ("GAME_NOT_FOUND"), or "".
func Code(err error) string {
	var e *APIError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Status returns the HTTP status of an API error, or 0.
func Status(err error) int {
	var e *APIError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// RetryAfter returns the wait a 429 or 503 asked for (Retry-After), or 0.
func RetryAfter(err error) time.Duration {
	var r *retryError
	if errors.As(err, &r) {
		return r.after
	}
	return 0
}

// retryError carries Retry-After beside the API error.
type retryError struct {
	*APIError
	after time.Duration
}

func (r *retryError) Unwrap() error { return r.APIError }

// parseRetryAfter reads Retry-After: seconds, or an HTTP date; bounded to
// 10 minutes.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	return min(d, 10*time.Minute)
}

// pace waits until a request may go (the token bucket), or ctx ends.
func (c *Client) pace(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.pmu.Lock()
	now := time.Now()
	if !c.filled.IsZero() {
		c.tokens = min(c.rate, c.tokens+now.Sub(c.filled).Seconds()*c.rate)
	}
	c.filled = now
	c.tokens--
	wait := time.Duration(0)
	if c.tokens < 0 {
		wait = time.Duration(-c.tokens / c.rate * float64(time.Second))
	}
	c.pmu.Unlock()
	if wait == 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		c.pmu.Lock()
		c.tokens++ // not sent: the turn goes back
		c.pmu.Unlock()
		return ctx.Err()
	}
}

// call makes one request; out, when not nil, receives the reply body.
func (c *Client) call(ctx context.Context, method, path string, body any, auth bool) ([]byte, error) {
	if err := c.pace(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rb []byte
	if body != nil {
		var err error
		if rb, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	req, err := c.request(ctx, method, path, rb, auth)
	if err != nil {
		return nil, err
	}
	start := c.now()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.logExchange(method, path, rb, 0, nil, err, c.now().Sub(start))
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	c.logExchange(method, path, rb, resp.StatusCode, b, err, c.now().Sub(start))
	if err != nil {
		return nil, fmt.Errorf("reading the reply: %w", err)
	}
	if len(b) > MaxBody {
		return nil, garbage("reply over %d bytes", MaxBody)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := ParseError(resp.StatusCode, b)
		if ra := parseRetryAfter(resp.Header.Get("Retry-After"), c.now()); ra > 0 {
			return nil, &retryError{APIError: e, after: ra}
		}
		return nil, e
	}
	return b, nil
}

func (c *Client) request(ctx context.Context, method, path string, body []byte, auth bool) (*http.Request, error) {
	u := *c.base
	path, query, _ := strings.Cut(path, "?")
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = query
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), r)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.agent)
	if auth && c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

// Transcript: one block per exchange, the token masked.

// maxLogged bounds the bytes of a body written to the transcript.
const maxLogged = 8 << 10

var (
	tokenField  = regexp.MustCompile(`("api_token"\s*:\s*)"(?:[^"\\]|\\.)*"`)
	bearerField = regexp.MustCompile(`Bearer [^\s"]+`)
)

// Mask hides secrets in text bound for a transcript or a log: any
// "api_token" JSON value, "Bearer <token>", and the token itself.
func Mask(s, token string) string {
	s = tokenField.ReplaceAllString(s, `$1"***"`)
	if token != "" {
		s = strings.ReplaceAll(s, token, "***")
	}
	if strings.Contains(s, "Bearer ") {
		s = bearerField.ReplaceAllStringFunc(s, func(m string) string {
			if m == "Bearer ***" {
				return m
			}
			return "Bearer ***"
		})
	}
	return s
}

func (c *Client) logExchange(method, path string, req []byte, status int, resp []byte, err error, took time.Duration) {
	if c.tw == nil {
		return
	}
	var b strings.Builder
	at := c.now().UTC().Format("2006-01-02T15:04:05.000Z")
	fmt.Fprintf(&b, "> %s %s %s\n", at, method, path)
	if c.token != "" {
		b.WriteString("> Authorization: Bearer ***\n")
	}
	if len(req) > 0 {
		fmt.Fprintf(&b, "> %s\n", clip(req))
	}
	if status != 0 {
		fmt.Fprintf(&b, "< %d (%d ms)\n", status, took.Milliseconds())
	}
	if len(resp) > 0 {
		// A steady poll repeats itself: an unchanged reply is written once.
		sum := sha256.Sum256(resp)
		c.tmu.Lock()
		same := method == http.MethodGet && c.lastBody[path] == sum
		if method == http.MethodGet {
			if c.lastBody == nil || len(c.lastBody) > 64 {
				c.lastBody = map[string][32]byte{}
			}
			c.lastBody[path] = sum
		}
		c.tmu.Unlock()
		if same {
			b.WriteString("< (the same reply as before)\n")
		} else {
			fmt.Fprintf(&b, "< %s\n", clip(resp))
		}
	}
	if err != nil {
		fmt.Fprintf(&b, "! %v\n", err)
	}
	c.write(b.String())
}

// logLine writes one line of the event stream.
func (c *Client) logLine(prefix, s string) {
	if c.tw == nil {
		return
	}
	c.write(fmt.Sprintf("%s %s %s\n", prefix, c.now().UTC().Format("2006-01-02T15:04:05.000Z"), s))
}

func (c *Client) write(s string) {
	s = Mask(s, c.token)
	c.tmu.Lock()
	defer c.tmu.Unlock()
	io.WriteString(c.tw, s)
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > maxLogged {
		s = s[:maxLogged] + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return strings.ReplaceAll(s, "\n", "\\n")
}

// The API calls.

func (c *Client) get(ctx context.Context, path string) ([]byte, error) {
	return c.call(ctx, http.MethodGet, path, nil, true)
}

// Active lists our waiting and active games.
func (c *Client) Active(ctx context.Context) (Games, error) {
	b, err := c.get(ctx, "/game/mine/active")
	if err != nil {
		return Games{}, err
	}
	return ParseGames(b)
}

// State fetches a game's state.
func (c *Client) State(ctx context.Context, ref string) (State, error) {
	if !validRef(ref) {
		return State{}, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	b, err := c.get(ctx, "/game/"+ref+"/state")
	if err != nil {
		return State{}, err
	}
	return ParseState(b)
}

// Move sends an attempt in UCI.
func (c *Client) Move(ctx context.Context, ref, uci string) (MoveResult, error) {
	if !validRef(ref) {
		return MoveResult{}, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	b, err := c.call(ctx, http.MethodPost, "/game/"+ref+"/move", ksapi.MoveRequest{UCI: uci}, true)
	if err != nil {
		return MoveResult{}, err
	}
	return ParseMoveResult(b)
}

// AskAny asks "Any?" (are there pawn captures?): the reply is a move
// reply whose has_any answers it (the variants with the question).
func (c *Client) AskAny(ctx context.Context, ref string) (MoveResult, error) {
	if !validRef(ref) {
		return MoveResult{}, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	b, err := c.call(ctx, http.MethodPost, "/game/"+ref+"/ask-any", nil, true)
	if err != nil {
		return MoveResult{}, err
	}
	return ParseMoveResult(b)
}

// Resign resigns the game.
func (c *Client) Resign(ctx context.Context, ref string) error {
	if !validRef(ref) {
		return fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	_, err := c.call(ctx, http.MethodPost, "/game/"+ref+"/resign", nil, true)
	return err
}

// Create opens a waiting lobby game in the rule variant named variant
// (the site's identifier) for a human or bot opponent.
func (c *Client) Create(ctx context.Context, variant string) (Created, error) {
	b, err := c.call(ctx, http.MethodPost, "/game/create", ksapi.CreateGame{
		RuleVariant: &variant, PlayAs: new("random"), TimeControl: new("rapid"), OpponentType: new("human")}, true)
	if err != nil {
		return Created{}, err
	}
	return ParseCreated(b)
}

// Join joins an open game by its code.
func (c *Client) Join(ctx context.Context, code string) (Created, error) {
	if !validRef(code) {
		return Created{}, fmt.Errorf("ksclient: bad game code %q", code)
	}
	b, err := c.call(ctx, http.MethodPost, "/game/join/"+code, nil, true)
	if err != nil {
		return Created{}, err
	}
	return ParseCreated(b)
}

// Open lists the lobby's open games.
func (c *Client) Open(ctx context.Context) (OpenGames, error) {
	b, err := c.get(ctx, "/game/open")
	if err != nil {
		return OpenGames{}, err
	}
	return ParseOpenGames(b)
}

// User fetches a public profile.
func (c *Client) User(ctx context.Context, name string) (User, error) {
	if !validUsername(name) {
		return User{}, fmt.Errorf("ksclient: bad username %q", name)
	}
	b, err := c.call(ctx, http.MethodGet, "/user/"+name, nil, false)
	if err != nil {
		return User{}, err
	}
	return ParseUser(b)
}

// UserGames fetches one page (from 1) of a user's archived games, newest
// first, perPage of them (at most MaxPerPage). No token is needed.
func (c *Client) UserGames(ctx context.Context, name string, page, perPage int) (UserGames, error) {
	if !validUsername(name) {
		return UserGames{}, fmt.Errorf("ksclient: bad username %q", name)
	}
	if page < 1 || perPage < 1 || perPage > MaxPerPage {
		return UserGames{}, fmt.Errorf("ksclient: bad page %d of %d games", page, perPage)
	}
	path := "/user/" + name + "/games?page=" + strconv.Itoa(page) + "&per_page=" + strconv.Itoa(perPage)
	b, err := c.call(ctx, http.MethodGet, path, nil, false)
	if err != nil {
		return UserGames{}, err
	}
	return ParseUserGames(b)
}

// Bots lists the site's bots.
func (c *Client) Bots(ctx context.Context) (Bots, error) {
	b, err := c.get(ctx, "/bots")
	if err != nil {
		return Bots{}, err
	}
	return ParseBots(b)
}

// Game fetches a game's metadata (live or archived).
func (c *Client) Game(ctx context.Context, ref string) (Metadata, error) {
	if !validRef(ref) {
		return Metadata{}, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	b, err := c.get(ctx, "/game/"+ref)
	if err != nil {
		return Metadata{}, err
	}
	return ParseMetadata(b)
}

// Moves fetches a completed game's transcript. Never call it on a live
// game: the site shows the opponent's moves there (docs/kriegspiel-org-api.md §6).
func (c *Client) Moves(ctx context.Context, ref string) (Transcript, error) {
	if !validRef(ref) {
		return Transcript{}, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	b, err := c.get(ctx, "/game/"+ref+"/moves")
	if err != nil {
		return Transcript{}, err
	}
	return ParseTranscript(b)
}

// Profile declares the rule variants we play (the site's identifiers).
func (c *Client) Profile(ctx context.Context, variants []string) error {
	_, err := c.call(ctx, http.MethodPost, "/bots/profile", ksapi.Profile{RuleVariants: variants}, true)
	return err
}

// Registration is what a bot registers with (POST /auth/bots/register).
type Registration struct {
	Username     string
	DisplayName  string
	OwnerEmail   string
	Description  string
	RuleVariants []string
}

// Register registers a bot; the reply holds its token, shown once.
func (c *Client) Register(ctx context.Context, r Registration) (Registered, error) {
	body := ksapi.Registration{Username: &r.Username, DisplayName: &r.DisplayName, OwnerEmail: &r.OwnerEmail,
		Description: &r.Description, RuleVariants: r.RuleVariants}
	b, err := c.call(ctx, http.MethodPost, "/auth/bots/register", body, false)
	if err != nil {
		return Registered{}, err
	}
	return ParseRegistered(b)
}

// Stream is an open event stream of one game.
type Stream struct {
	c    *Client
	body io.ReadCloser
	r    *SSEReader
	ref  string
}

// Events opens a game's event stream. ctx bounds the whole stream (close
// it or cancel ctx to end it); the caller watches for stalls.
func (c *Client) Events(ctx context.Context, ref string) (*Stream, error) {
	if !validRef(ref) {
		return nil, fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	path := "/game/" + ref + "/events"
	req, err := c.request(ctx, http.MethodGet, path, nil, true)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	start := c.now()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.logExchange(http.MethodGet, path, nil, 0, nil, err, c.now().Sub(start))
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		c.logExchange(http.MethodGet, path, nil, resp.StatusCode, b, nil, c.now().Sub(start))
		e := ParseError(resp.StatusCode, b)
		if ra := parseRetryAfter(resp.Header.Get("Retry-After"), c.now()); ra > 0 {
			return nil, &retryError{APIError: e, after: ra}
		}
		return nil, e
	}
	c.logExchange(http.MethodGet, path, nil, resp.StatusCode, []byte("(event stream)"), nil, c.now().Sub(start))
	return &Stream{c: c, body: resp.Body, r: NewSSEReader(resp.Body), ref: ref}, nil
}

// Next returns the next event or keepalive comment.
func (s *Stream) Next() (SSEEvent, error) {
	ev, err := s.r.Next()
	if err != nil {
		s.c.logLine("<~", fmt.Sprintf("%s stream ended: %v", s.ref, err))
		return ev, err
	}
	if ev.Comment {
		s.c.logLine("<~", fmt.Sprintf("%s : %s", s.ref, clip(ev.Data)))
	} else {
		s.c.logLine("<~", fmt.Sprintf("%s event: %s data: %s", s.ref, ev.Type, clip(ev.Data)))
	}
	return ev, nil
}

// Close ends the stream.
func (s *Stream) Close() error { return s.body.Close() }

// IsTimeout reports a network time-out.
func IsTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Delete withdraws our waiting game.
func (c *Client) Delete(ctx context.Context, ref string) error {
	if !validRef(ref) {
		return fmt.Errorf("ksclient: bad game ref %q", ref)
	}
	_, err := c.call(ctx, http.MethodDelete, "/game/"+ref, nil, true)
	return err
}
