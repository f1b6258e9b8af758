package umpire

import (
	"fmt"
	"strings"
)

// Variant is one Kriegspiel rule variant as data: what the referee
// announces and how it refuses (docs/rulesets.md has the table). One
// referee reads it; there is no code path per variant.
//
// The zero Variant is wild 16, ICC's Kriegspiel, so that every rule set
// built before the other variants existed keeps its meaning.
type Variant struct {
	// Name is the site's identifier (Wild16's is "wild16"; the zero value's "").
	Name string
	// AskAny offers the "Any?" question (are there pawn captures?).
	AskAny bool
	// OffList is the answer to an attempt that is not on the askable list:
	// IllegalMove, ImpossibleToAsk or NonsenseMove.
	OffList Verdict
	// PublicIllegal tells the opponent of every refused attempt answered
	// IllegalMove (wild 16 tells the mover only).
	PublicIllegal bool
	// Captures says what is announced of a captured man beside its square.
	Captures CaptureDetail
	// PawnNews is what the next mover is told of its pawn captures.
	PawnNews PawnNews
	// AnnouncePromotion tells both sides that a pawn promoted (not to what).
	AnnouncePromotion bool
	// AnnounceEnPassant calls an en passant capture so, on its destination
	// square (the others give the captured pawn's square, unnamed).
	AnnounceEnPassant bool
	// ReleaseAfterFailedTry frees the asker from the pawn-capture obligation
	// of a "has pawn captures" at the first refused pawn try; the askable list
	// is then rebuilt whole (without "Any?" and the refused try).
	ReleaseAfterFailedTry bool
	// StalemateLoses makes stalemate a loss for the stalemated side.
	StalemateLoses bool
	// Drops adds crazyhouse pockets and drops (crazykrieg): a captured man
	// goes to the captor's pocket (a promoted one as a pawn) and may come
	// back as a drop (DropMove) instead of a move; the dropped man's type is
	// announced.
	Drops bool
}

// CaptureDetail is what the referee says of a captured man.
type CaptureDetail uint8

// Capture details. The zero value is wild 16's.
const (
	// CaptureTyped announces pawn or piece (a promoted man is a piece).
	CaptureTyped CaptureDetail = iota
	// CaptureUntyped announces the square only.
	CaptureUntyped
	// CaptureExact announces the man's type (a promoted man is a pawn).
	CaptureExact
)

// PawnNews is what the next mover is told of its legal pawn captures.
type PawnNews uint8

// Pawn news. The zero value is wild 16's.
const (
	// PawnCount announces how many (from, to) pawn captures are legal.
	PawnCount PawnNews = iota
	// PawnNothing announces nothing; every pawn try stays askable.
	PawnNothing
	// PawnHas announces whether there is at least one.
	PawnHas
	// PawnSquares announces the squares of the pawns that have one.
	PawnSquares
)

// Wild16 returns ICC's wild 16, as kriegspiel.org plays it.
func Wild16() Variant { return Variant{Name: "wild16"} }

// Variants returns the seven variants of kriegspiel.org, by the site's
// identifiers, as its referee (ks-game) plays them.
func Variants() []Variant {
	return []Variant{
		{Name: "berkeley", OffList: ImpossibleToAsk, PublicIllegal: true, Captures: CaptureUntyped, PawnNews: PawnNothing},
		{Name: "berkeley_any", AskAny: true, OffList: ImpossibleToAsk, PublicIllegal: true, Captures: CaptureUntyped, PawnNews: PawnNothing},
		{Name: "cincinnati", OffList: NonsenseMove, PublicIllegal: true, Captures: CaptureTyped, PawnNews: PawnHas},
		{Name: "english", AskAny: true, OffList: IllegalMove, PublicIllegal: true, Captures: CaptureUntyped, PawnNews: PawnNothing,
			AnnounceEnPassant: true, ReleaseAfterFailedTry: true},
		{Name: "rand", OffList: NonsenseMove, PublicIllegal: true, Captures: CaptureTyped, PawnNews: PawnSquares,
			AnnouncePromotion: true, StalemateLoses: true},
		{Name: "crazykrieg", AskAny: true, OffList: NonsenseMove, PublicIllegal: true, Captures: CaptureExact, PawnNews: PawnNothing,
			ReleaseAfterFailedTry: true, Drops: true},
		Wild16(),
	}
}

// VariantNames lists the identifiers ParseVariant accepts.
func VariantNames() []string {
	vs := Variants()
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return names
}

// ParseVariant returns the variant the site calls name.
func ParseVariant(name string) (Variant, error) {
	for _, v := range Variants() {
		if v.Name == strings.ToLower(name) {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("umpire: unknown variant %q (want %s)", name, strings.Join(VariantNames(), ", "))
}

// IsWild16 reports whether v plays as wild 16 (the zero Variant does).
func (v Variant) IsWild16() bool {
	w := v
	w.Name = ""
	return w == Variant{} && (v.Name == "" || v.Name == "wild16")
}

// Site returns the rules of kriegspiel.org for variant v: ks-game's endings
// (KS) with v's announcements.
func Site(v Variant) Rules {
	r := KS()
	r.Variant = v
	return r
}
