// Package boardsvg draws chess boards as inline SVG for our HTML pages: the
// replay page and the operator's live page. One drawing, so both pages show
// our men, the belief's heat maps and the true position the same way.
package boardsvg
