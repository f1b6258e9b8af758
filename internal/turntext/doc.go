// Package turntext words, for the replay and live pages, what a game of one
// of kriegspiel.org's variants beyond wild 16 says besides its moves: the
// answers only those variants give (an "Any?" answer, ours or the
// opponent's; the opponent's refused attempt, of which the site says only
// that it was refused), and the state of the turn (the obligation after
// "has pawn captures", the opponent's last turn, our pawn news, the
// crazykrieg pockets). A wild 16 game has none of it: its pages say what
// they always said.
package turntext
