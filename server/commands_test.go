package server

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"kriegbot/server/internal/wiretest"
)

// TestCommandTableOnTheWire sends every name and alias of the command
// table and checks the level-1 unit header carries the table's number.
func TestCommandTableOnTheWire(t *testing.T) {
	_, addr := startServer(t, Config{})
	c := wiretest.DialRaw(t, addr)
	c.Expect("login:", wait)
	c.Send("level1=1\r\ng\r\n")
	c.Expect("Starting session as", wait)
	for _, cmd := range commandTable() {
		for _, name := range append([]string{cmd.name}, cmd.aliases...) {
			conn := c
			if cmd.name == "quit" { // it ends the session: one client each
				conn = wiretest.DialRaw(t, addr)
				conn.Expect("login:", wait)
				conn.Send("level1=1\r\ng\r\n")
				conn.Expect("Starting session as", wait)
			}
			conn.Send(name + "\r\n")
			conn.Expect(fmt.Sprintf("\x19[%d *\r\n", cmd.cn), wait)
		}
	}
	c.Send("no-such-command\r\n")
	c.Expect(fmt.Sprintf("\x19[%d *\r\n", cnOther), wait)
	c.Send("e2e4\r\n")
	c.Expect(fmt.Sprintf("\x19[%d *\r\n", cnMove), wait)
}

// TestHelpAndDocsListTheTable: help shows each command of the table that
// has a help line, and docs/iccserver.md gives each command's number.
func TestHelpAndDocsListTheTable(t *testing.T) {
	cs := newCommandSet()
	help := strings.Join(cs.help, "\n")
	doc, err := os.ReadFile("../docs/iccserver.md")
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.Join(strings.Fields(string(doc)), " ")
	for _, cmd := range commandTable() {
		if cmd.help != "" && !strings.Contains(help, "  "+cmd.name) {
			t.Errorf("help does not list %s", cmd.name)
		}
		if want := fmt.Sprintf("%d %s,", cmd.cn, cmd.name); !strings.Contains(docs, want) && !strings.Contains(docs, want[:len(want)-1]+";") {
			t.Errorf("docs/iccserver.md does not give %q", want)
		}
	}
}
