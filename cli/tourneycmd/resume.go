package tourneycmd

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"kriegbot/server/td"
)

// An event's folder keeps the command's settings (settingsFile), so that
// -resume DIR starts the same players with the same seeds on the TD's
// saved event: the flags, as parseFlags reads them.

// settingsFile is the command's settings in the event's folder.
const settingsFile = "tourney-command.json"

// maxSettingsFile bounds what is read of it (16 players' specs are far
// below).
const maxSettingsFile = 64 << 10

// settings is what settingsFile holds.
type settings struct {
	// Args are the flags that set the event up again, -seed included.
	Args []string `json:"args"`
}

// args are the flags that make o again, with its seed, but neither its
// folder nor what only concerns one run (-v, -timeout).
func (o options) args() []string {
	var ps []string
	for _, e := range o.players {
		ps = append(ps, e.handle+"="+e.spec.String())
	}
	args := []string{"-players", strings.Join(ps, ","), "-format", o.system,
		"-tc", fmt.Sprintf("%d+%d", o.minutes, o.inc), "-style", o.style, "-rules", o.rules, "-addr", o.addr,
		"-wait", o.wait.String(), "-absent", o.absent.String(), "-name", o.name, "-seed", strconv.FormatUint(o.seed, 10)}
	if o.system == "swiss" { // a round robin has its own rounds
		args = append(args, "-rounds", strconv.Itoa(o.rounds))
	}
	return args
}

// readSettings reads an event folder's settings: the flags, checked by
// parseFlags as if given on the command line.
func readSettings(r io.Reader, name string) (options, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSettingsFile+1))
	if err != nil {
		return options{}, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxSettingsFile {
		return options{}, fmt.Errorf("%s: longer than %d bytes", name, maxSettingsFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st settings
	if err := dec.Decode(&st); err != nil {
		return options{}, fmt.Errorf("%s: %v", name, err)
	}
	if len(st.Args) == 0 {
		return options{}, fmt.Errorf("%s: no args", name)
	}
	var why bytes.Buffer
	opt, _, done := parseFlags(st.Args, &why)
	if done {
		return options{}, fmt.Errorf("%s: %s", name, strings.TrimSpace(why.String()))
	}
	if opt.seed == 0 {
		return options{}, fmt.Errorf("%s: no -seed", name)
	}
	return opt, nil
}

// prepareFolder makes a new event's folder, with a seed chosen when none
// was given, and writes its settings; for -resume it reads them back from
// the folder, whose event must not be over.
func prepareFolder(opt *options) error {
	if opt.resume {
		f, err := os.Open(filepath.Join(opt.out, settingsFile))
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("-resume %s: no %s there: not a kriegbot tourney folder", opt.out, settingsFile)
		}
		if err != nil {
			return err
		}
		saved, err := readSettings(f, f.Name())
		f.Close()
		if err != nil {
			return err
		}
		saved.out, saved.resume, saved.verbose, saved.timeout, saved.progress = opt.out, true, opt.verbose, opt.timeout, opt.progress
		*opt = saved
		st, ok, err := readState(td.EventFile(opt.out, 1, "json"))
		if err != nil {
			return err
		}
		if ok && st.over() {
			return fmt.Errorf("-resume %s: the event is %s: nothing to go on with", opt.out, st.Status)
		}
		return nil
	}
	if opt.seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		// 63 bits, so the logged seed can be given back as -seed.
		opt.seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	if err := os.MkdirAll(opt.out, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(opt.out, settingsFile)); err == nil {
		return fmt.Errorf("%s holds an event already: -resume %s goes on with it, or give another -out", opt.out, opt.out)
	}
	data, err := json.MarshalIndent(settings{Args: opt.args()}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(opt.out, settingsFile), append(data, '\n'), 0o644)
}

// longestGame is a game's longest under the server's rules.
func (o options) longestGame() time.Duration {
	rules, err := o.serverRules()
	if err != nil {
		return 0 // parseFlags refused the rules
	}
	return rules.LongestGame(time.Duration(o.minutes)*time.Minute, time.Duration(o.inc)*time.Second)
}

// maxPlies is the server's ply cap.
func (o options) maxPlies() int {
	rules, err := o.serverRules()
	if err != nil {
		return 0
	}
	return rules.MaxPlies
}
