// Package chess is kriegbot's rules core: bitboards, legal move generation,
// copy-make, FEN, UCI and SAN notation, Zobrist keys and material draws, plus
// the queries the Kriegspiel layers ask of a true position (attack maps, "is this
// attempt legal", pawn-capture counts, check classification).
//
// A Position is a small value without pointers. To try a move, copy the position
// and call Make on the copy; nothing allocates. Lookup tables (attacks, magics,
// Zobrist keys) are built once at start-up from a fixed seed and never change.
//
// Squares run a1 = 0 to h8 = 63; a Move is what UCI notation carries (from, to,
// promotion), so the same value names a Kriegspiel attempt before it is judged.
package chess
