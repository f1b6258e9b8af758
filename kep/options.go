package kep

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kriegbot/engine/players"
	"kriegbot/engine/umpire"
)

// optionType is a KEP option type.
type optionType string

const (
	spin   optionType = "spin"
	str    optionType = "string"
	emptyV            = "<empty>" // UCI's spelling of an empty string default
)

// optionDef describes one option as kep advertises it.
type optionDef struct {
	name     string
	typ      optionType
	def      string
	min, max int64
	unsigned bool // a spin from 0 to 2^64-1 (min and max unused): the seed's 64 bits
}

// Option names.
const (
	optThreads      = "Threads"
	optHash         = "Hash"
	optSeed         = "Seed"
	optApproach     = "Approach"
	optPlayer       = "Player"
	optMoveOverhead = "MoveOverhead"
	optModelFile    = "ModelFile"
)

// optionDefs lists the options in the order kep advertises them.
func optionDefs() []optionDef {
	return []optionDef{
		{name: optThreads, typ: spin, def: "1", min: 1, max: 64},
		{name: optHash, typ: spin, def: "32", min: 1, max: 65536},
		{name: optSeed, typ: spin, def: "0", unsigned: true},
		{name: optApproach, typ: str, def: approachAuto},
		{name: optPlayer, typ: str, def: emptyV},
		{name: optMoveOverhead, typ: spin, def: "10", min: 0, max: 5000},
		{name: optModelFile, typ: str, def: emptyV},
	}
}

// line returns the option's advertisement.
func (o optionDef) line() string {
	s := "option name " + o.name + " type " + string(o.typ) + " default " + o.def
	switch {
	case o.unsigned:
		s += " min 0 max " + strconv.FormatUint(math.MaxUint64, 10)
	case o.typ == spin:
		s += " min " + strconv.FormatInt(o.min, 10) + " max " + strconv.FormatInt(o.max, 10)
	}
	return s
}

// settings are the options' current values.
type settings struct {
	threads, hashMB int
	seed            uint64
	approach        string       // a, b, c, or approachAuto
	player          string       // a full player spec, overriding the three above
	playerSpec      players.Spec // player as read when it was set
	overhead        time.Duration
	modelFile       string
}

func defaultSettings() settings {
	return settings{threads: 1, hashMB: 32, approach: approachAuto, overhead: 10 * time.Millisecond}
}

// set applies one setoption after checking its value; on error the setting
// is unchanged. Names are matched without regard to case, as UCI does.
func (s *settings) set(name, value string, kinds []players.Kind) error {
	var def optionDef
	found := false
	for _, d := range optionDefs() {
		if strings.EqualFold(d.name, name) {
			def, found = d, true
			break
		}
	}
	if !found {
		return fmt.Errorf("no option %q", clip(name))
	}
	if value == emptyV {
		value = ""
	}
	var n int64
	var u uint64
	switch {
	case def.unsigned:
		var err error
		if u, err = strconv.ParseUint(value, 10, 64); err != nil {
			return fmt.Errorf("option %s: %q is not an integer from 0 to %d", def.name, clip(value), uint64(math.MaxUint64))
		}
	case def.typ == spin:
		var err error
		n, err = strconv.ParseInt(value, 10, 64)
		if err != nil || n < def.min || n > def.max {
			return fmt.Errorf("option %s: %q is not an integer from %d to %d", def.name, clip(value), def.min, def.max)
		}
	}
	switch def.name {
	case optThreads:
		s.threads = int(n)
	case optHash:
		s.hashMB = int(n)
	case optSeed:
		s.seed = u
	case optMoveOverhead:
		s.overhead = time.Duration(n) * time.Millisecond
	case optApproach:
		a := strings.ToLower(value)
		if a != "a" && a != "b" && a != "c" && a != approachAuto {
			return fmt.Errorf("option %s: %q is not auto, a, b or c", def.name, clip(value))
		}
		s.approach = a
	case optPlayer:
		var sp players.Spec
		if value != "" {
			var err error
			if sp, err = players.Parse(value, kinds); err != nil {
				return fmt.Errorf("option %s: %w", def.name, err)
			}
		}
		s.player, s.playerSpec = value, sp
	case optModelFile:
		s.modelFile = value // loaded (and checked) by the caller
	}
	return nil
}

// approachAuto is Approach's default: a wild 16 game is played by
// boardtree, the daemon's wild 16 player (engine.wild16_player), the
// site's other variants by approach C, the daemon's engine.player.
const approachAuto = "auto"

// spec returns the player spec the settings describe for a game in variant
// v: Player when set, else the kind Approach names with the threads and
// memory. Hash is the total over all trees, as UCI's Hash is the engine's
// whole table.
func (s *settings) spec(v umpire.Variant) string {
	if s.player != "" {
		return s.player
	}
	mem := min(max(s.hashMB/s.threads, 1), 4096)
	approach := s.approach
	if approach == approachAuto {
		if v.IsWild16() {
			return fmt.Sprintf("boardtree:threads=%d,mem=%d", s.threads, mem)
		}
		approach = "c"
	}
	return fmt.Sprintf("mcts:approach=%s,threads=%d,mem=%d", approach, s.threads, mem)
}
