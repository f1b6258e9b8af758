package bot

import (
	"context"
	"errors"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"kriegbot/internal/backoff"
	"kriegbot/protocol/ksclient"
)

// The kriegspiel.org event streams: one goroutine per game reads its
// stream and only pings the loop, which then fetches the state.

// watch reads a game's event stream until ctx ends, reopening it when it
// ends, fails or stalls; every event (and every reopening, since events
// may have been lost) pings the loop.
func (r *ksRun) watch(ctx context.Context, ref string) {
	h := fnv.New64a()
	io.WriteString(h, ref)
	retry := backoff.New(r.o.BackoffMin, min(max(r.o.BackoffMax, r.o.BackoffMin), 30*time.Second),
		rand.New(rand.NewPCG(r.d.opt.Seed, h.Sum64())))
	for ctx.Err() == nil {
		began := time.Now()
		// A stream whose headers do not come within Stall is given up too.
		sctx, cancel := context.WithCancel(ctx)
		stalled := time.AfterFunc(r.o.Stall, func() {
			r.d.opt.Log.Warn().Str("game", ref).Stringer("silent", r.o.Stall).Msg("event stream stalled before its first byte: reopening")
			cancel()
		})
		s, err := r.c.Events(sctx, ref)
		stalled.Stop()
		if err == nil {
			r.read(sctx, ref, s)
			s.Close()
			r.ping(ref)
		}
		cancel()
		if err != nil && ksclient.Unauthorized(err) {
			select {
			case r.fatal <- err:
			default:
			}
			return
		}
		retry.Lasted(began, time.Now(), time.Minute)
		delay := retry.Grow()
		if ra := ksclient.RetryAfter(err); ra > delay {
			retry.Raise(ra)
			delay = ra
		}
		t := time.NewTimer(retry.Jitter(delay))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// read pings the loop for each event until the stream ends or stalls.
func (r *ksRun) read(ctx context.Context, ref string, s *ksclient.Stream) {
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	ended := make(chan error, 1)
	go func() {
		for {
			ev, err := s.Next()
			if err != nil {
				ended <- err
				return
			}
			last.Store(time.Now().UnixNano())
			if ev.Comment {
				continue
			}
			if _, err := ksclient.ParseGameEvent(ev.Data); err != nil {
				r.d.opt.Log.Warn().Err(err).Str("game", ref).Msg("event not understood (taken as a ping)")
			}
			r.ping(ref)
			if ev.Type == "shutdown" {
				ended <- io.EOF
				return
			}
		}
	}()
	check := time.NewTicker(max(r.o.Stall/4, 10*time.Millisecond))
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			s.Close()
			<-ended
			return
		case err := <-ended:
			if !errors.Is(err, io.EOF) {
				r.d.opt.Log.Debug().Err(err).Str("game", ref).Msg("event stream ended")
			}
			return
		case <-check.C:
			if time.Since(time.Unix(0, last.Load())) > r.o.Stall {
				r.d.opt.Log.Warn().Str("game", ref).Stringer("silent", r.o.Stall).Msg("event stream stalled: reopening")
				s.Close()
				<-ended
				return
			}
		}
	}
}

func (r *ksRun) ping(ref string) {
	select {
	case r.pings <- ref:
	default: // the loop is busy: the poll covers it
	}
}
