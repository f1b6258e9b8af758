package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
)

// ID names the running program's build: its VCS revision (with
// "+modified" for a build from a changed tree) and the start of the SHA-256
// of the executable, which tells two builds of a changed tree apart. Game
// records carry it so that a replay can say when it runs other code than
// the game did. It returns "" when the executable cannot be read.
func ID() string {
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified {
			rev += "+modified"
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return rev + " " + hex.EncodeToString(h.Sum(nil))[:16]
}
