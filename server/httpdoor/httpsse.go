package httpdoor

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"kriegbot/protocol/ksapi"
	"kriegbot/server"
	"kriegbot/server/kshttp"
)

// Event streams: GET /game/{ref}/events, as kriegspiel.org frames them
// (docs/kriegspiel-org-api.md §7): "event: <type>\ndata: <compact JSON>\n\n", first
// "connected", then "game_changed" on every join, attempt, resignation
// and end, "shutdown" when the server stops; ": keepalive" after
// KeepAlive without output. Each stream has a queue of QueueLen frames;
// when it is full the oldest is dropped, so a stream that does not read
// costs a bounded amount of memory and never holds up the game.

// stream is one subscriber. Its queue has its own lock: frames are
// pushed under the table's lock and taken by the stream's handler without it.
type stream struct {
	bot  *webBot
	id   string // the game it follows
	wake chan struct{}

	mu      sync.Mutex
	queue   [][]byte
	max     int
	dropped int
	last    bool // no frame after those queued: end the stream
}

func newStream(bot *webBot, id string, max int) *stream {
	return &stream{bot: bot, id: id, max: max, wake: make(chan struct{}, 1)}
}

// push queues frame, dropping the oldest frame when the queue is full.
// last ends the stream once the queue is written; nothing is queued after.
func (st *stream) push(frame []byte, last bool) {
	st.mu.Lock()
	if !st.last {
		if frame != nil {
			if len(st.queue) >= st.max {
				st.queue = append(st.queue[:0], st.queue[1:]...)
				st.dropped++
			}
			st.queue = append(st.queue, frame)
		}
		st.last = last
	}
	st.mu.Unlock()
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// take returns the frames queued and whether the stream is to end.
func (st *stream) take() ([][]byte, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	q := st.queue
	st.queue = nil
	return q, st.last
}

// eventFrame renders one event.
func eventFrame(typ string, data any) []byte {
	b, _ := json.Marshal(data)
	return ksapi.FormatEvent(typ, b)
}

func gameEvent(typ string, g *server.Game) []byte {
	d := ksapi.GameEvent{Type: typ, GameID: g.ID(), GameCode: g.Code(), State: gameState(g), MoveNumber: g.Umpire().Plies() + 1, UpdatedAt: kshttp.ISOTime(g.Updated())}
	if g.Result() == "" {
		d.Turn = strp(kshttp.ColorWord(g.Umpire().Side()))
	}
	return eventFrame(typ, d)
}

// gameStarted tells the streams of a waiting game that it started.
func (web *Door) GameStarted(g *server.Game) { web.GameChanged(g) }

// gameEnded sends the final game_changed; the streams end after it.
func (web *Door) GameEnded(_ *server.Events, g *server.Game) { web.GameChanged(g) }

// gameChanged sends game_changed to g's streams; a finished game's
// streams end after it.
func (web *Door) GameChanged(g *server.Game) {
	subs := web.streams[g.ID()]
	if len(subs) == 0 {
		return
	}
	frame := gameEvent("game_changed", g)
	for st := range subs {
		st.push(frame, g.Result() != "")
	}
}

// endStreams ends the streams of id without an event (a waiting game
// deleted or expired).
func (web *Door) endStreams(id string) {
	for st := range web.streams[id] {
		st.push(nil, true)
	}
}

// Closing sends every stream "shutdown" and ends it, as the table closes
// (server.DoorCloser).
func (web *Door) Closing() {
	frame := eventFrame("shutdown", ksapi.Shutdown{Type: "shutdown"})
	for _, subs := range web.streams {
		for st := range subs {
			st.push(frame, true)
		}
	}
}

// apiEvents serves GET /game/{ref}/events until the client leaves, the
// game ends or the server stops.
func (web *Door) apiEvents(req *request) *kshttp.Error {
	s := web.s
	cfg := &web.cfg
	s.Lock()
	sk, g := web.lookup(req.param)
	var first []byte
	switch {
	case sk == nil && g == nil:
		s.Unlock()
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game not found")
	case g != nil && g.Result() != "":
		s.Unlock()
		return kshttp.GameError(404, ksapi.CodeGameNotFound, "Game is archived")
	case g != nil:
		if _, ok := g.SeatOf(req.bot); !ok {
			s.Unlock()
			return kshttp.GameError(403, ksapi.CodeForbidden, "You are not a participant of this game")
		}
		first = gameEvent("connected", g)
	default:
		if sk.Bot() != req.bot {
			s.Unlock()
			return kshttp.GameError(403, ksapi.CodeForbidden, "You are not a participant of this game")
		}
		first = eventFrame("connected", ksapi.GameEvent{Type: "connected", GameID: sk.ID(), GameCode: sk.Code(), State: "waiting",
			Turn: strp("white"), MoveNumber: 1, UpdatedAt: kshttp.ISOTime(sk.PostedAt())})
	}
	if s.Closed() {
		s.Unlock()
		return kshttp.DetailError(503, "The server is shutting down")
	}
	if req.bot.streams >= cfg.MaxStreamsPerBot || web.nstreams >= cfg.MaxStreams {
		s.Unlock()
		return &kshttp.Error{Status: 429, Detail: "Too many event streams", Retry: cfg.KeepAlive}
	}
	st := newStream(req.bot, req.param, cfg.QueueLen)
	if g != nil {
		st.id = g.ID()
	} else {
		st.id = sk.ID()
	}
	if web.streams[st.id] == nil {
		web.streams[st.id] = map[*stream]struct{}{}
	}
	web.streams[st.id][st] = struct{}{}
	web.nstreams++
	req.bot.streams++
	s.Unlock()
	defer func() {
		s.Lock()
		delete(web.streams[st.id], st)
		if len(web.streams[st.id]) == 0 {
			delete(web.streams, st.id)
		}
		web.nstreams--
		req.bot.streams--
		s.Unlock()
	}()

	w := req.w
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{}) // the server's ReadTimeout must not cut a stream
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(200)
	write := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(server.WriteWait))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write(first) {
		return nil
	}
	idle := time.NewTimer(cfg.KeepAlive)
	defer idle.Stop()
	for {
		select {
		case <-req.r.Context().Done():
			return nil
		case <-st.wake:
			frames, last := st.take()
			for _, f := range frames {
				if !write(f) {
					return nil
				}
			}
			if last {
				return nil
			}
			idle.Reset(cfg.KeepAlive)
		case <-idle.C:
			if !write(ksapi.FormatComment(ksapi.Keepalive)) {
				return nil
			}
			idle.Reset(cfg.KeepAlive)
		}
	}
}
