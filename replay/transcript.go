package replay

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"kriegbot/engine/chess"
	"kriegbot/engine/players"
	"kriegbot/protocol"
	"kriegbot/record"
	"kriegbot/track/iccgame"
)

// maxGames bounds the games listed from one transcript.
const maxGames = 10_000

// TranscriptOptions choose the game of a session transcript.
type TranscriptOptions struct {
	// Game is the server's game number; 0 picks the first game we played.
	Game int
}

// TranscriptGame is one game followed through a transcript: a Record whose
// steps are what the daemon's tracker made of the wire (attempts from the
// lines we sent), without a player spec, seed or searches (they are not on
// the wire: AttachRecord or the caller supplies them).
type TranscriptGame struct {
	Record *Record
	// Games lists the numbers of every game we played in the transcript.
	Games []int
	// Desync is the tracker's complaint, if the wire confused it.
	Desync string
}

// ReadTranscript re-feeds the bytes received in a session transcript
// (protocol/transcript.go) through protocol.Reader, the datagram decoder and
// the daemon's game tracking (iccgame.Tracker), and returns one game as a record.
func ReadTranscript(r io.Reader, name string, opt TranscriptOptions) (*TranscriptGame, error) {
	tr := protocol.NewTranscriptReader(r)
	var rd protocol.Reader
	dec := protocol.Decoder{Intern: protocol.NewInterner(4096)}
	out := &TranscriptGame{Record: &Record{Name: name}}
	rec := out.Record
	var (
		me       string
		track    *iccgame.Tracker
		ended    bool
		gameNum  int
		lastTime time.Time
	)
	drain := func(line int, at time.Time) {
		if track == nil {
			return
		}
		for _, e := range track.TakeEvents() {
			s := Step{Line: line, T: at}
			switch e.Kind {
			case players.ClockUpdate:
				s.Kind, s.Clock = StepClock, e.Clock
			case players.Answer:
				if !e.View.Heard {
					continue
				}
				s.Kind, s.View, s.Move, s.Words = StepAnswer, e.View, e.View.Move, e.View.Words()
			}
			rec.Steps = append(rec.Steps, s)
		}
	}
	message := func(m protocol.Message, line int, at time.Time) {
		if m.Kind == protocol.MsgDatagram && m.DecodeErr == nil {
			switch v := m.DG.(type) {
			case protocol.WhoAmIDG:
				me = v.Name
			case protocol.MyGameStartedDG:
				us, ok := ourColor(v, me)
				if !ok || !v.Played {
					break
				}
				if !slices.Contains(out.Games, v.Game) && len(out.Games) < maxGames {
					out.Games = append(out.Games, v.Game)
				}
				if track == nil && (opt.Game == 0 || opt.Game == v.Game) {
					track, gameNum = iccgame.New(v, us, at), v.Game
					rec.Game = GameInfo{Line: line, Number: v.Game, White: v.White, Black: v.Black, Us: us,
						BaseMin: v.WhiteInitial, IncS: v.WhiteIncrement, Rated: v.Rated, Wild: v.Wild, Start: at}
					if us == chess.Black {
						rec.Game.BaseMin, rec.Game.IncS = v.BlackInitial, v.BlackIncrement
					}
				}
				return
			case protocol.MoveListDG:
				if track != nil && ended && v.Game == gameNum && rec.Moves == nil {
					rec.Moves = revealed(v)
				}
				return
			}
		}
		if track == nil || ended {
			return
		}
		track.Feed(m, at)
		drain(line, at)
		if res, code, reason, over := track.Over(); over {
			ended = true
			rec.Result = &ResultInfo{Line: line, Result: res, Code: code, Reason: reason, Plies: track.Plies()}
			for _, s := range rec.Steps {
				if s.Kind == StepAnswer && s.View.Illegal {
					rec.Result.Illegal++
				}
			}
		}
	}
	for line := 1; ; line++ {
		e, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &LineError{Name: name, Err: err}
		}
		if line > 10*record.MaxLines {
			return nil, &LineError{Name: name, Line: line, Err: fmt.Errorf("more than %d entries", 10*record.MaxLines)}
		}
		lastTime = e.Time
		switch e.Dir {
		case protocol.DirOut:
			s := strings.TrimSpace(string(e.Data))
			if bits, ok := strings.CutPrefix(s, "level2settings="); ok {
				dec.Moves = protocol.MoveFieldsFor(level2DGs(bits))
				continue
			}
			if track == nil || ended || !track.OurTurn() {
				continue
			}
			if m, ok := attemptLine(s); ok {
				drain(line, e.Time)
				track.SentAfterClose(m, e.Time)
				drain(line, e.Time)
				rec.Steps = append(rec.Steps, Step{Line: line, T: e.Time, Kind: StepAttempt, Move: m})
			}
		case protocol.DirIn:
			if track != nil && !ended {
				track.Settle(e.Time)
				drain(line, e.Time)
			}
			rd.Feed(e.Data)
			for {
				ev, ok := rd.Next()
				if !ok {
					break
				}
				message(toMessage(ev, e.Time, dec), line, e.Time)
			}
		}
	}
	if track == nil {
		return out, &LineError{Name: name, Err: noGame(opt.Game, out.Games)}
	}
	if !ended {
		track.Settle(lastTime.Add(iccgame.Settle))
		drain(0, lastTime)
	}
	out.Desync = track.Desync()
	return out, nil
}

func noGame(want int, games []int) error {
	if len(games) == 0 {
		return errors.New("no game of ours in this transcript")
	}
	if want == 0 {
		return errors.New("no game of ours")
	}
	return fmt.Errorf("no game %d of ours here (games: %v)", want, games)
}

// ourColor is the colour of handle me in g.
func ourColor(g protocol.MyGameStartedDG, me string) (chess.Color, bool) {
	switch {
	case me == "":
		return chess.White, false
	case strings.EqualFold(g.White, me):
		return chess.White, true
	case strings.EqualFold(g.Black, me):
		return chess.Black, true
	}
	return chess.White, false
}

// toMessage decodes one token as iccclient.Session does.
func toMessage(ev protocol.Event, at time.Time, dec protocol.Decoder) protocol.Message {
	m := protocol.Message{Time: at}
	switch ev.Kind {
	case protocol.Text:
		m.Kind, m.Text = protocol.MsgText, string(ev.Text)
	case protocol.Datagram:
		m.Kind, m.N = protocol.MsgDatagram, ev.DG
		m.DG, m.DecodeErr = dec.Decode(ev.DG, ev.Fields)
	case protocol.Overflow:
		m.Kind = protocol.MsgOverflow
	default:
		m.Kind = protocol.MsgUnitBegin // units do not matter to game tracking
	}
	return m
}

// level2DGs reads a level2settings bit string: bit i on is DG i.
func level2DGs(bits string) []int {
	var dgs []int
	for i := 0; i < len(bits) && i < 1024; i++ {
		if bits[i] == '1' {
			dgs = append(dgs, i)
		}
	}
	return dgs
}

// attemptLine reads a move we sent: "e2e4" or "e7e8=q" style.
func attemptLine(s string) (chess.Move, bool) {
	if len(s) < 4 || len(s) > 6 {
		return chess.NullMove, false
	}
	m, err := chess.ParseUCI(strings.ToLower(strings.Replace(s, "=", "", 1)))
	return m, err == nil && m != chess.NullMove
}

// revealed returns the move list's SAN moves if every one is shown.
func revealed(v protocol.MoveListDG) []string {
	sans := make([]string, 0, len(v.Moves))
	for _, m := range v.Moves {
		if m.Hidden || m.SAN == "" {
			return nil
		}
		sans = append(sans, m.SAN)
	}
	if record.CheckSAN(sans) != nil {
		return nil
	}
	return sans
}

// AttachRecord takes the player spec, seed and searches of the game's
// per-game record: the i-th attempt sent gets the record's i-th attempt's
// search, and the two must name the same move.
func (g *TranscriptGame) AttachRecord(rec *Record) error {
	if rec.Game.Number != g.Record.Game.Number || !strings.EqualFold(rec.Game.White, g.Record.Game.White) ||
		!strings.EqualFold(rec.Game.Black, g.Record.Game.Black) {
		return fmt.Errorf("%s is game %d %s-%s, the transcript's is game %d %s-%s", rec.Name, rec.Game.Number,
			rec.Game.White, rec.Game.Black, g.Record.Game.Number, g.Record.Game.White, g.Record.Game.Black)
	}
	// What rebuilds the player comes from the record: spec, seed, rules and
	// opponent models (the transcript has none of them).
	rg, tg := rec.Game, &g.Record.Game
	tg.Player, tg.Seed, tg.Rules, tg.Build = rg.Player, rg.Seed, rg.Rules, rg.Build
	tg.OpponentModel, tg.OpponentCounts, tg.OpponentCountsSHA256 = rg.OpponentModel, rg.OpponentCounts, rg.OpponentCountsSHA256
	tg.BaseModel, tg.BaseCounts, tg.BaseCountsSHA256 = rg.BaseModel, rg.BaseCounts, rg.BaseCountsSHA256
	var searched []Step
	for _, s := range rec.Steps {
		if s.Kind == StepAttempt {
			searched = append(searched, s)
		}
	}
	k := 0
	for i := range g.Record.Steps {
		s := &g.Record.Steps[i]
		if s.Kind != StepAttempt {
			continue
		}
		if k >= len(searched) {
			return &LineError{Name: g.Record.Name, Line: s.Line, Err: fmt.Errorf("attempt %v has no attempt in %s", s.Move, rec.Name)}
		}
		if searched[k].Move != s.Move {
			return &LineError{Name: g.Record.Name, Line: s.Line, Err: fmt.Errorf("attempt %v, but %s:%d says %v", s.Move, rec.Name, searched[k].Line, searched[k].Move)}
		}
		s.Search = searched[k].Search
		k++
	}
	g.Record.Steps = withPonders(g.Record.Steps, rec.Steps)
	if g.Record.Moves == nil {
		g.Record.Moves = rec.Moves
	}
	return nil
}

// withPonders inserts the record's ponders into steps, each where it ran:
// before the opponent's answer that ended it (the one after as many of the
// opponent's answers as the record has before the ponder), or at the end.
func withPonders(steps, recorded []Step) []Step {
	var at []int // per ponder: the opponent's answers before it
	var ponders []Step
	theirs := 0
	for _, s := range recorded {
		switch {
		case s.Kind == StepPonder:
			at = append(at, theirs)
			ponders = append(ponders, s)
		case s.Kind == StepAnswer && !s.View.Own:
			theirs++
		}
	}
	if len(ponders) == 0 {
		return steps
	}
	out := make([]Step, 0, len(steps)+len(ponders))
	k, theirs := 0, 0
	for _, s := range steps {
		if s.Kind == StepAnswer && !s.View.Own {
			for k < len(ponders) && at[k] <= theirs {
				out = append(out, ponders[k])
				k++
			}
			theirs++
		}
		out = append(out, s)
	}
	return append(out, ponders[k:]...)
}
