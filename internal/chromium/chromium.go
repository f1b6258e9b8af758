package chromium

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Enabled reports whether the Chromium tests were asked for
// (KRIEGBOT_CHROMIUM set): they are opt-in, since CI machines need not
// have a browser.
func Enabled() bool { return os.Getenv("KRIEGBOT_CHROMIUM") != "" }

// Options shape one screenshot.
type Options struct {
	Width, Height int
	// VirtualTime lets the page's scripts run this long (0: none).
	VirtualTime time.Duration
}

// DOM renders url in headless Chromium, with a fresh profile in dir, and
// returns the document as the page's scripts left it (--dump-dom). It waits
// at most a minute.
func DOM(dir, url string, o Options) (string, error) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		return "", fmt.Errorf("chromium not installed (apt-get install -y chromium): %w", err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile-dom")}
	if o.VirtualTime > 0 {
		args = append(args, "--virtual-time-budget="+strconv.FormatInt(o.VirtualTime.Milliseconds(), 10))
	}
	args = append(args, "--dump-dom", url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var errs strings.Builder
	cmd.Stderr = &errs
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("chromium: %v\n%s", err, errs.String())
	}
	return string(out), nil
}

// Screenshot renders url in headless Chromium, with a fresh profile in
// dir, and returns the decoded screenshot and the file it is in (dir's
// shot.png, or KRIEGBOT_SCREENSHOT when set, so a test run can keep the
// picture for docs/). It waits at most a minute.
func Screenshot(dir, url string, o Options) (image.Image, string, error) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		return nil, "", fmt.Errorf("chromium not installed (apt-get install -y chromium): %w", err)
	}
	shot := filepath.Join(dir, "shot.png")
	if keep := os.Getenv("KRIEGBOT_SCREENSHOT"); keep != "" {
		shot = keep
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile")}
	if o.VirtualTime > 0 {
		args = append(args, "--virtual-time-budget="+strconv.FormatInt(o.VirtualTime.Milliseconds(), 10))
	}
	args = append(args, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", o.Width, o.Height), url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", shot, err)
	}
	return img, shot, nil
}
