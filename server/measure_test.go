package server

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"kriegbot/server/internal/wiretest"
)

// TestMeasureHostile prints the figures of docs/robustness.md: each
// hostile scenario once, on loopback, with the default limits. It is
// skipped unless KRIEGBOT_MEASURE=1:
//
//	KRIEGBOT_MEASURE=1 go test -run MeasureHostile -v ./server/
func TestMeasureHostile(t *testing.T) {
	if os.Getenv("KRIEGBOT_MEASURE") != "1" {
		t.Skip("set KRIEGBOT_MEASURE=1 to measure")
	}
	tells := func(v string) string { return strings.TrimSuffix(strings.Repeat("tell "+v+" x;", 235), ";") }
	seeks := func(string) string { return strings.TrimSuffix(strings.Repeat("seek 1 0;unseek;", 250), ";") }
	dg50 := "level2settings=" + strings.Repeat("0", 50) + "11\r\n"
	for _, sc := range []struct {
		name      string
		victimPre string
		reading   bool
		line      func(string) string
		count     string // what the victim gets per delivered command
	}{
		{"20 lines of 235 tells, victim reading", "", true, tells, "tells you"},
		{"20 lines of 235 tells, victim not reading", "", false, tells, "tells you"},
		{"20 lines of 250 seek/unseek pairs, bystander (DG 50) reading", dg50, true, seeks, "\x19(50 "},
	} {
		srv, addr := startServer(t, Config{})
		v := wiretest.DialRaw(t, addr)
		victim := v.GuestHandle(sc.victimPre)
		var vr *reader
		if sc.reading {
			vr = readAll(v)
		}
		a := wiretest.DialRaw(t, addr)
		a.GuestHandle("")
		ar := readAll(a)
		start := time.Now()
		line := sc.line(victim)
		for i := 0; i < 20; i++ {
			a.Send(line + "\r\n")
		}
		a.Send("date\r\n")
		out, _ := ar.waitFor("Server time:")
		el := time.Since(start)
		stayed := strings.Contains(strings.Join(srv.Users(), " "), victim)
		v.Send("date\r\n")
		if vr == nil {
			vr = readAll(v)
		}
		got, _ := vr.waitFor("Server time:")
		t.Logf("%s: %v to run; the flooder's commands that ran: %d tells / %d seeks; throttle notices %d; "+
			"victim still logged in: %v; it received %d (%d bytes)",
			sc.name, el.Round(time.Millisecond), strings.Count(out, "(told "), strings.Count(out, "posted with index"),
			strings.Count(out, "sending too much"), stayed, strings.Count(got, sc.count), len(got))
		srv.Close()
	}

	// 150 password guesses at once from one address; #121 is right.
	{
		acc, err := NewAccounts(map[string]string{"alice": "guess121"}, "C", bcrypt.DefaultCost)
		if err != nil {
			t.Fatal(err)
		}
		_, addr := startServer(t, Config{Accounts: acc, MaxConns: 1000})
		var mu sync.Mutex
		answers := map[string]int{}
		var wg sync.WaitGroup
		start := time.Now()
		for i := 1; i <= 150; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := wiretest.DialRaw(t, addr)
				c.Expect("login:", wait)
				c.Send(fmt.Sprintf("alice guess%d\r\n", i))
				a := answer(c)
				kind := "other"
				switch {
				case strings.Contains(a, "Starting session"):
					kind = "logged in"
				case strings.Contains(a, "Invalid password"):
					kind = "checked, refused"
				case strings.Contains(a, "Too many failed"):
					kind = "refused unchecked"
				}
				mu.Lock()
				answers[kind]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		t.Logf("150 parallel guesses (LoginFailures 10, bcrypt cost %d): %v in %v", bcrypt.DefaultCost, answers, time.Since(start).Round(time.Millisecond))
	}

	// One host opening 300 connections under the default limits.
	{
		_, addr := startServer(t, Config{})
		ok, refused := 0, 0
		for i := 0; i < 300; i++ {
			c := wiretest.DialRaw(t, addr)
			out := answer(c)
			switch {
			case strings.Contains(out, "login:"):
				ok++
			case strings.Contains(out, "Too many connections"):
				refused++
			}
		}
		t.Logf("300 connections from one host (MaxConns 1000): %d served, %d refused", ok, refused)
	}

	// A trickle of one byte every 100 ms, idle limit 2 s.
	{
		_, addr := startServer(t, Config{IdleTimeout: 2 * time.Second})
		c := wiretest.DialRaw(t, addr)
		c.LoginGuest()
		start := time.Now()
		buf := make([]byte, 4096)
		n := 0
		for time.Since(start) < wait && !strings.Contains(c.Pending, "Auto-logout") {
			c.Conn.Write([]byte("x"))
			n++
			c.Conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			k, _ := c.Reader.Read(buf)
			c.Pending += string(buf[:k])
		}
		t.Logf("trickle of 1 byte / 100 ms, IdleTimeout 2 s: logged out after %v (%d bytes sent)", time.Since(start).Round(10*time.Millisecond), n)
	}

	// A client that never reads, flooding help: drop lines in the log.
	{
		var mu sync.Mutex
		var lines []string
		logf := func(format string, args ...any) {
			mu.Lock()
			lines = append(lines, fmt.Sprintf(format, args...))
			mu.Unlock()
		}
		srv, addr := startSmallBuffers(t, Config{Log: wiretest.LogTo(func(m string) { logf("%s", m) })})
		c := dialSmallWindow(t, addr)
		handle := c.GuestHandle("")
		go c.Conn.Write([]byte(strings.Repeat("help\r\n", 40000)))
		start := time.Now()
		for strings.Contains(strings.Join(srv.Users(), " "), handle) && time.Since(start) < wait {
			time.Sleep(5 * time.Millisecond)
		}
		el := time.Since(start)
		time.Sleep(200 * time.Millisecond)
		mu.Lock()
		var about []string
		for _, l := range lines {
			if strings.HasPrefix(l, "drop ") || strings.HasPrefix(l, "logout ") {
				about = append(about, l)
			}
		}
		mu.Unlock()
		t.Logf("never-reading client asking 40,000 help pages: dropped after %v; log lines about it: %d %q", el.Round(time.Millisecond), len(about), about)
	}
}
