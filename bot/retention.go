package bot

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"kriegbot/config"
	"kriegbot/internal/retention"
)

// How often the record keeper looks whether a game has finished since its
// last pass (a pass lists a few folders: cheap, but not per game on a
// busy bot), and the longest it goes without a pass.
const (
	retentionCheck = 10 * time.Minute
	retentionEvery = time.Hour
)

// recordKeeper applies the retention policy to the daemon's records.
type recordKeeper struct {
	applier  *retention.Applier
	policy   config.Retention
	log      zerolog.Logger
	finished func() int // games finished so far
}

func newRecordKeeper(cfg config.Config, log zerolog.Logger, finished func() int) *recordKeeper {
	r := cfg.Retention
	return &recordKeeper{
		applier: &retention.Applier{
			Policy: retention.Policy{
				KeepWhole: time.Duration(r.KeepDaysWhole) * 24 * time.Hour,
				MaxAge:    r.MaxAge.Duration,
				MaxTotal:  r.MaxTotalSize.Bytes,
				Compress:  r.Compress,
				Quiet:     retention.DefaultQuiet,
			},
			Root: cfg.Logs.Dir, Folders: config.RecordFolders(),
		},
		policy: r, log: log, finished: finished,
	}
}

// startRecordKeeper runs the keeper in a goroutine until ctx ends or the
// returned function is called (which waits for a pass in progress). With
// no bound set it only says so.
func startRecordKeeper(ctx context.Context, cfg config.Config, log zerolog.Logger, d *Daemon) (stop func()) {
	if cfg.Retention.Off() {
		log.Warn().Msg(cfg.Retention.Summary(cfg.Logs.Dir))
		return func() {}
	}
	k := newRecordKeeper(cfg, log, func() int { n, _, _, _ := d.Score(); return n })
	ctx, cancel := context.WithCancel(ctx)
	ticker := time.NewTicker(retentionCheck)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer ticker.Stop()
		k.run(ctx, ticker.C)
	}()
	return func() { cancel(); wg.Wait() }
}

// run passes at once, then at each tick when a game has finished since the
// last pass or retentionEvery has gone by; it returns when ctx ends.
func (k *recordKeeper) run(ctx context.Context, tick <-chan time.Time) {
	k.log.Info().Msg(k.policy.Summary(k.applier.Root))
	now := time.Now
	if k.applier.Now != nil {
		now = k.applier.Now
	}
	seen, last := k.finished(), now()
	k.pass()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		if n := k.finished(); n != seen || now().Sub(last) >= retentionEvery {
			seen, last = n, now()
			k.pass()
		}
	}
}

// pass applies the policy once and logs one line of what it did.
func (k *recordKeeper) pass() retention.Report {
	rep := k.applier.Apply()
	ev := k.log.Info()
	if len(rep.Errors) > 0 || rep.IntoWhole || rep.OverCap {
		ev = k.log.Warn()
	}
	if len(rep.Errors) > 0 {
		ev = ev.Int("errors", len(rep.Errors)).AnErr("first_error", rep.Errors[0])
	}
	if rep.IntoWhole {
		ev = ev.Str("note", "max_total_size took records of the last keep_days_whole days: raise it, or lower keep_days_whole")
	}
	if rep.OverCap {
		ev = ev.Str("note", "still over max_total_size: what is left is in use")
	}
	ev.Int("compressed", rep.Compressed).Int64("compressed_from", rep.CompressedFrom).Int64("compressed_to", rep.CompressedTo).
		Int("removed", rep.Removed).Int64("removed_bytes", rep.RemovedBytes).Int("removed_by_age", rep.ByAge).Int("removed_by_size", rep.BySize).
		Int("kept_files", rep.KeptFiles).Int64("kept_bytes", rep.KeptBytes).Int64("max_total_size", k.policy.MaxTotalSize.Bytes).
		Msg("retention pass")
	return rep
}
