package httpdoor

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/server"
	"kriegbot/server/internal/wiretest"
)

// TestUserRoles: the door tells people from bots as the site does. An HTTP
// bot and a telnet computer account (title C) are bots, a telnet account
// without it a person ("user"), a guest a "guest"; GET /user, a game's
// seats and the archive's opponent_role agree, and a guest who left is
// still known by the games the table keeps.
func TestUserRoles(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("secret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := server.ReadAccounts(strings.NewReader(fmt.Sprintf("Comp %s C\nPerson %s\nTitled %s GM\n", hash, hash, hash)), "accounts")
	if err != nil {
		t.Fatal(err)
	}
	_, telnet, base := startHTTP(t, server.Config{Accounts: accounts}, Config{})
	bot := newAPIClient(t, base)
	bot.register("echo")
	type user struct {
		Username string
		Role     string
		IsBot    bool `json:"is_bot"`
	}
	wantRole := func(name, role string) {
		t.Helper()
		var u user
		bot.call("GET", "/user/"+name, nil, 200, &u)
		if u.Role != role || u.IsBot != (role == "bot") {
			t.Errorf("GET /user/%s: %+v, want role %s", name, u, role)
		}
	}
	wantRole("echo", "bot")
	wantRole("comp", "bot")
	wantRole("person", "user")
	wantRole("titled", "user")

	tc := wiretest.DialRaw(t, telnet)
	guest := tc.GuestHandle("")
	wantRole(guest, "guest")
	tc.Send("seek 3 2 white\r\n")
	tc.Expect("Your seek has been posted", wait)
	var open struct {
		Games []struct {
			Code string `json:"game_code"`
		}
	}
	bot.call("GET", "/game/open", nil, 200, &open)
	if len(open.Games) != 1 {
		t.Fatalf("open: %+v", open)
	}
	var j struct {
		ID string `json:"game_id"`
	}
	bot.call("POST", "/game/join/"+open.Games[0].Code, nil, 200, &j)
	tc.Expect("Creating: ", wait)
	var meta struct {
		White, Black struct{ Role string }
	}
	bot.call("GET", "/game/"+j.ID, nil, 200, &meta)
	if meta.White.Role != "guest" || meta.Black.Role != "bot" {
		t.Errorf("seats: %+v, want a guest (white) and a bot", meta)
	}
	bot.call("POST", "/game/"+j.ID+"/resign", nil, 200, nil)
	tc.Expect("echo resigns} 1-0", wait)
	tc.Send("quit\r\n")

	var archive struct {
		Games []struct {
			Opponent     string
			OpponentRole string `json:"opponent_role"`
		}
	}
	bot.call("GET", "/user/echo/games", nil, 200, &archive)
	if len(archive.Games) != 1 || archive.Games[0].Opponent != guest || archive.Games[0].OpponentRole != "guest" {
		t.Errorf("echo's archive: %+v", archive)
	}
	// The guest has left; its kept game still names it.
	bot.call("GET", "/user/"+guest+"/games", nil, 200, &archive)
	if len(archive.Games) != 1 || archive.Games[0].OpponentRole != "bot" {
		t.Errorf("%s's archive: %+v", guest, archive)
	}
	wantRole(guest, "guest")
}
