// Package doclinks holds no code, only a test that the repository's text
// points at nothing a user of the repository lacks: no file of the outside
// notes folder the project was planned in (its papers, protocol notes,
// fixtures' notes, design plan), and no relative link in the Markdown pages,
// nor docs/... path anywhere, to a file that does not exist here. What a
// user needs of those notes lives in docs/ (docs/references.md cites the
// papers and public sources).
package doclinks
