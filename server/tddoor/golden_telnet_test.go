package tddoor

import (
	"flag"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/protocol"
	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
	"kriegbot/server/td"
)

// The golden tests record every byte each client of a scripted session
// received and compare them with testdata/*.golden: a refactor of the
// server must leave what it says on the wire byte for byte as it was.
// `go test ./server/... -run Golden -update` rewrites the files; do that only
// for a change of behaviour meant and reviewed.

var update = flag.Bool("update", false, "rewrite the golden files of the transcript tests")

// TestGoldenTelnetTranscript plays a scripted session on the telnet door:
// a bot-like client (level 1 tags, the bot's datagrams), a person in text
// mode and a registered tournament player; logins, a refused login, seeks,
// a game answered from a seek ad with legal, refused and impossible
// attempts, talk, the move list during and after the game, a match offered
// and accepted, resignation, the TD's commands, and the game records. The
// bytes must be those in testdata/telnet-session.golden.
func TestGoldenTelnetTranscript(t *testing.T) {
	clock := wiretest.NewFakeClock()
	records := t.TempDir()
	accts, err := server.NewAccounts(map[string]string{"carol": "chess"}, "", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	_, addr := startTD(t, server.Config{Now: clock.Now, RecordDir: records, Accounts: accts}, Config{AbsentGrace: time.Hour, Managers: []string{"carol"},
		Events: []td.EventSpec{mustSpec(t, "name=Golden,system=rr,rounds=1,tc=5+0,start=manual")}})
	s := wiretest.NewSession(t)

	bot := wiretest.DialTap(t, addr, "bot")
	bot.WaitFor("login:", 1)
	bot.Send("level1=5")
	bot.Send(protocol.Level2Line(protocol.BotDatagrams))
	bot.Send("g")
	bot.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, bot)
	s.Barrier(bot)

	person := wiretest.DialTap(t, addr, "person")
	person.WaitFor("login:", 1)
	person.Send("nobody")
	person.WaitFor("login:", 2)
	person.Send("g")
	person.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, person)
	s.Barrier(person)

	carol := wiretest.DialTap(t, addr, "carol")
	carol.WaitFor("login:", 1)
	carol.Send("carol")
	carol.WaitFor("password:", 1)
	carol.Send("chess")
	carol.WaitFor("Starting session as", 1)
	s.Clients = append(s.Clients, carol)
	s.Barrier(carol)

	// Who is here, what there is to play.
	s.Run(person, "help", "")
	s.Run(person, "who", "")
	s.Run(bot, "`t1`who", "")
	s.Run(person, "set style 12", "")
	s.Run(person, "bogus command", "")
	s.Run(person, "e2e4", "")

	// A seek answered: the bot plays white against the person.
	s.Run(bot, "`t2`seek 10 5 u white", "")
	s.Run(carol, "seek 3 0", "")
	s.Run(person, "sought", "")
	s.Run(person, "play 1", "")
	s.Run(carol, "games", "")
	moves := []struct {
		c    *wiretest.TapClient
		line string
	}{
		{bot, "`m1`e2e4"},
		{person, "e7e5"},
		{bot, "`m2`e4e5"}, // blocked: refused
		{bot, "`m3`e1e3"}, // impossible
		{bot, "`m4`f1c4"},
		{person, "d7d6"},
		{bot, "`m5`d1h5"},
		{person, "g8f6"},
		{person, "board"},
		{bot, "`m6`h5f7"}, // takes with mate
	}
	for i, m := range moves {
		if i == 4 {
			s.Run(person, "say good luck", "")
			s.Run(bot, "`q1`moves", "")
			s.Run(person, "moves", "")
		}
		clock.Advance(3 * time.Second)
		s.Run(m.c, m.line, "")
	}
	s.Run(person, "moves 1", "")
	s.Run(bot, "`q2`moves 1", "")

	// A match offered, withdrawn, offered again and accepted; the game
	// ends by resignation.
	s.Run(person, "match carol 2 1 black", "")
	s.Run(carol, "decline", "")
	s.Run(person, "match carol 2 1 black", "")
	s.Run(carol, "accept", "")
	clock.Advance(2 * time.Second)
	s.Run(carol, "d2d4", "")
	s.Run(person, "tell carol well played", "")
	s.Run(carol, "draw", "")
	s.Run(person, "decline draw", "")
	clock.Advance(time.Second)
	s.Run(person, "resign", "")

	// The tournament director.
	s.Run(carol, "tell TD help", "")
	s.Run(person, "td list", "")
	s.Run(bot, "`d1`tell TD join", "")
	s.Run(person, "td join 1", "")
	s.Run(carol, "tell TD info 1", "")
	s.Run(person, "td status", "")
	s.Run(bot, "`d2`tell TD withdraw", "")
	s.Run(carol, "tell TD abort 1", "")

	s.Quit(person)
	s.Quit(carol)
	s.Quit(bot)
	wiretest.CompareGolden(t, "telnet-session.golden", wiretest.GoldenTranscript(t, s.Clients, records), *update)
}
