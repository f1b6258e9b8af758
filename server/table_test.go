package server

import (
	"strings"
	"testing"
	"time"

	"kriegbot/server/internal/wiretest"
)

// player is a seat's user as the table sees it, with no door behind it.
type player string

func (p player) Handle() string { return string(p) }
func (p player) Titles() string { return "" }
func (p player) Guest() bool    { return true }
func (p player) Playing() bool  { return false }
func (p player) DGOn(int) bool  { return false }

func TestFlagFall(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.Lock()
	ev := srv.NewEvents()
	g := srv.Match(ev, Seat{User: player("alice")}, Seat{User: player("bob")}, "white", 0, 1, false)
	ev.Flush()
	// 0 minutes + 1 s increment gets the server's 10 s floor; rather than
	// wait, shorten the clock through the game itself.
	g.clock[0] = 200 * time.Millisecond
	srv.armClock(g)
	srv.Unlock()
	for deadline := time.Now().Add(wiretest.Wait); ; time.Sleep(5 * time.Millisecond) {
		if fin := srv.Finished(); len(fin) == 1 {
			if fin[0].Code != "Fla" || fin[0].Description != "alice forfeits on time" || fin[0].Result != "0-1" {
				t.Fatalf("finished %+v", fin)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the flag did not fall")
		}
	}
}

func TestNewRefusesNobody(t *testing.T) {
	if _, err := New(Config{NoGuests: true}); err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("err %v", err)
	}
}
