// Package chromium renders a page in headless Chromium (Debian's chromium
// package) and returns the screenshot, for the opt-in tests that check our
// HTML pages are drawn (KRIEGBOT_CHROMIUM=1): the replay page, the live
// page and the TD's crosstable. One place holds the browser's flags, the
// opt-in and where a kept screenshot goes (KRIEGBOT_SCREENSHOT=FILE).
package chromium
