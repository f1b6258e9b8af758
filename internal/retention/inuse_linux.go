package retention

import (
	"os"
	"path/filepath"
)

// OpenFiles returns the files this process holds open, as absolute paths,
// read from /proc/self/fd; nil when that cannot be read.
func OpenFiles() map[string]bool {
	const fdDir = "/proc/self/fd"
	entries, err := os.ReadDir(fdDir)
	if err != nil {
		return nil
	}
	open := make(map[string]bool, len(entries))
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(fdDir, e.Name())); err == nil && filepath.IsAbs(target) {
			open[target] = true
		}
	}
	return open
}
