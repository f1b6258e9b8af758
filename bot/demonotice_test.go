package bot

import (
	"strings"
	"testing"
	"time"

	"kriegbot/config"
	"kriegbot/engine/umpire"
)

// TestDemoNoticeBound: the demo says how long a game may last from the
// embedded server's own bound, the rules kriegbot tourney's server plays
// too: a game at 1+1 that reaches the 600-ply cap lasts 12 minutes, not
// the 5 an 80-move game would.
func TestDemoNoticeBound(t *testing.T) {
	cfg := config.Defaults()
	rules, err := embeddedRules(cfg)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := umpire.ParseRules(cfg.Server.Rules)
	if rules != base.Bounded() || !rules.DeadMaterial || rules.MaxPlies == 0 {
		t.Errorf("embedded rules %+v, want %s bounded", rules, cfg.Server.Rules)
	}
	longest := rules.LongestGame(time.Duration(cfg.Policy.SeekBase)*time.Minute, time.Duration(cfg.Policy.SeekIncrement)*time.Second)
	if got := demoNotice(cfg); !strings.Contains(got, "at most "+longest.Round(time.Minute).String()+";") {
		t.Errorf("notice %q does not give the longest game, %s", got, longest)
	}
}
