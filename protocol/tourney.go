package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Tournament wire: the three datagrams an ICC TD uses (63 suggestion, 103
// tourney, 104 remove-tourney) and the text lines TD bots print (the
// Automato "tourney set to" variable line and the FICS mamer lines), as
// docs/tournaments.md (TD wire) gives them. Each form has one formatter
// (used by our server's TD) and one parser (used by the daemon), so the two
// sides cannot drift apart.

// Tournament datagram numbers.
const (
	DGSuggestion    = 63  // DG_SUGGESTION: a pairing suggestion
	DGTourney       = 103 // DG_TOURNEY: an event was announced or changed
	DGRemoveTourney = 104 // DG_REMOVE_TOURNEY: an event is over or withdrawn
)

// SuggestionDG is DG 63, DG_SUGGESTION, the machine-readable pairing:
// Command is what the receiver should send (e.g. "match TD-paired-name"),
// Text says why, Suggester is the TD and Subject the suggested opponent.
// Field order as JIN reads it (docs/tournaments.md, TD wire §3).
type SuggestionDG struct {
	Command   string
	Text      string
	Priority  int
	Suggester string
	Subject   string
	ID        int
}

// TourneyDG is DG 103, DG_TOURNEY: ID, a bit field (1 guests may join, 2
// new window on join, 4 on watch, 8 on info), a description and the
// &-separated join, watch and info commands (see SplitCommands), and the
// text to confirm a join with.
type TourneyDG struct {
	ID          int
	Bits        int
	Description string
	Join        string
	Watch       string
	Info        string
	Confirm     string
}

// RemoveTourneyDG is DG 104, DG_REMOVE_TOURNEY.
type RemoveTourneyDG struct{ ID int }

func (SuggestionDG) Number() int    { return DGSuggestion }
func (TourneyDG) Number() int       { return DGTourney }
func (RemoveTourneyDG) Number() int { return DGRemoveTourney }

// Fields returns the DG's fields in wire order, for AppendDatagram.
func (d SuggestionDG) Fields() []string {
	return []string{d.Command, d.Text, strconv.Itoa(d.Priority), d.Suggester, d.Subject, strconv.Itoa(d.ID)}
}

// Fields returns the DG's fields in wire order, for AppendDatagram.
func (d TourneyDG) Fields() []string {
	return []string{strconv.Itoa(d.ID), strconv.Itoa(d.Bits), d.Description, d.Join, d.Watch, d.Info, d.Confirm}
}

// Fields returns the DG's fields in wire order, for AppendDatagram.
func (d RemoveTourneyDG) Fields() []string { return []string{strconv.Itoa(d.ID)} }

// decodeTourney decodes DGs 63, 103 and 104; ok is false for other numbers.
func decodeTourney(p *dgFields, dg int) (out DG, ok bool) {
	switch dg {
	case DGSuggestion:
		return SuggestionDG{Command: p.str(0, "command"), Text: p.str(1, "text"), Priority: p.num(2, "priority"),
			Suggester: p.word(3, "suggester"), Subject: p.str(4, "subject"), ID: p.num(5, "id")}, true
	case DGTourney:
		return TourneyDG{ID: p.num(0, "id"), Bits: p.num(1, "bitfield"), Description: p.str(2, "description"),
			Join: p.str(3, "join-commands"), Watch: p.str(4, "watch-commands"), Info: p.str(5, "info-commands"),
			Confirm: p.str(6, "confirm-text")}, true
	case DGRemoveTourney:
		return RemoveTourneyDG{ID: p.num(0, "id")}, true
	}
	return nil, false
}

// SplitCommands splits a DG 103 command list: commands are separated by '&',
// and a backslash makes the next character literal (so "\&" is an
// ampersand). Empty commands are dropped.
func SplitCommands(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case c == '&':
			if t := strings.TrimSpace(cur.String()); t != "" {
				out = append(out, t)
			}
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if t := strings.TrimSpace(cur.String()); t != "" {
		out = append(out, t)
	}
	return out
}

// JoinCommands is SplitCommands' inverse: it escapes '&' and '\' in each
// command and joins them with '&'.
func JoinCommands(cmds ...string) string {
	r := strings.NewReplacer(`\`, `\\`, `&`, `\&`)
	for i, c := range cmds {
		cmds[i] = r.Replace(c)
	}
	return strings.Join(cmds, "&")
}

// TDLineKind says which TD text line a TDLine is.
type TDLineKind int

// The TD text lines of docs/tournaments.md, TD wire §2 and §4.
const (
	TDNone        TDLineKind = iota
	TDTourneySet             // tourney set to "TD TAG * opp wt wi bt bi u w16 colour round" by TD.
	TDPairing                // You play <colour> against <name> in this round of tourney #N.
	TDJoined                 // You have joined tourney #N.
	TDAborted                // Tourney #N has been aborted!
	TDForfeited              // You have been forfeited from tourney #N.
	TDVariableOff            // <td> has set your tourney variable to OFF.
	TDStandings              // Tourney #N's standings:
	TDJoinRefused            // You cannot join tourney #N (TAG): <reason>.
)

var tdKindNames = [...]string{"none", "tourney-set", "pairing", "joined", "aborted", "forfeited", "variable-off", "standings", "join-refused"}

func (k TDLineKind) String() string {
	if k >= 0 && int(k) < len(tdKindNames) {
		return tdKindNames[k]
	}
	return "TDLineKind(" + strconv.Itoa(int(k)) + ")"
}

// TDLine is one TD text line, parsed. Which fields are set depends on Kind:
// TourneySet sets TD, Tag, Opponent, the four clock fields, Rated, Wild,
// Colour and Round; Pairing sets Colour, Opponent and Event; Joined,
// Aborted, Forfeited and Standings set Event; VariableOff sets TD;
// JoinRefused sets Event, and Tag (the event's name) and Reason when the
// TD gave them.
type TDLine struct {
	Kind     TDLineKind
	TD       string
	Tag      string
	Event    int
	Reason   string // why a join was refused, without the final "."
	Opponent string
	Colour   string // "white" or "black"
	WhiteMin int
	WhiteInc int
	BlackMin int
	BlackInc int
	Rated    bool
	Wild     int
	Round    int
}

// Answer is the command a player sends to play the paired game: "match
// <opponent>!" for a tourney-set line (icsdrone's form; the "!" asks for
// the exact handle) and "td play N" for a mamer pairing; "" otherwise.
func (l TDLine) Answer() string {
	switch l.Kind {
	case TDTourneySet:
		return "match " + l.Opponent + "!"
	case TDPairing:
		return "td play " + strconv.Itoa(l.Event)
	}
	return ""
}

// String formats the line as a TD prints it, without the ":" that FICS
// puts before a qtell line; ParseTDLine(l.String()) gives l back.
func (l TDLine) String() string {
	switch l.Kind {
	case TDTourneySet:
		r := "u"
		if l.Rated {
			r = "r"
		}
		var f []string
		for _, w := range []string{l.TD, l.Tag} {
			if w != "" {
				f = append(f, w)
			}
		}
		f = append(f, "*", l.Opponent, strconv.Itoa(l.WhiteMin), strconv.Itoa(l.WhiteInc),
			strconv.Itoa(l.BlackMin), strconv.Itoa(l.BlackInc), r, "w"+strconv.Itoa(l.Wild))
		if l.Colour != "" {
			f = append(f, l.Colour, strconv.Itoa(l.Round))
		}
		return "tourney set to \"" + strings.Join(f, " ") + "\" by " + l.TD + "."
	case TDPairing:
		return fmt.Sprintf("You play %s against %s in this round of tourney #%d.", l.Colour, l.Opponent, l.Event)
	case TDJoined:
		return fmt.Sprintf("You have joined tourney #%d.", l.Event)
	case TDAborted:
		return fmt.Sprintf("Tourney #%d has been aborted!", l.Event)
	case TDForfeited:
		return fmt.Sprintf("You have been forfeited from tourney #%d.", l.Event)
	case TDVariableOff:
		return l.TD + " has set your tourney variable to OFF."
	case TDStandings:
		return fmt.Sprintf("Tourney #%d's standings:", l.Event)
	case TDJoinRefused:
		r := fmt.Sprintf("You cannot join tourney #%d", l.Event)
		if l.Tag != "" {
			r += " (" + l.Tag + ")"
		}
		if l.Reason != "" {
			r += ": " + l.Reason
		}
		return r + "."
	}
	return ""
}

// ErrNotTDLine is returned by ParseTDLine for text that is none of the TD
// lines.
var ErrNotTDLine = errors.New("protocol: not a TD line")

// ParseTDLine reads one TD text line (one of TDLine's kinds), with or
// without FICS's leading ":" and surrounding blanks. Text that is no TD line
// gives ErrNotTDLine; a line that starts like one but is malformed gives an
// error naming the field. Lines that are longer than 1,000 bytes are
// refused, because no TD line is.
func ParseTDLine(s string) (TDLine, error) {
	if len(s) > 1000 {
		return TDLine{}, ErrNotTDLine
	}
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ":"))
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			// No TD line carries control bytes; a name holding one would
			// be sent back to the server in the answer.
			return TDLine{}, ErrNotTDLine
		}
	}
	switch {
	case strings.HasPrefix(s, "tourney set to \""):
		return parseTourneySet(s)
	case strings.HasPrefix(s, "You play "):
		return parsePairing(s)
	case strings.HasPrefix(s, "You have joined") && strings.Contains(s, "tourney #") && !strings.Contains(s, "has been changed"):
		return eventLine(TDJoined, s, "tourney #")
	case strings.HasPrefix(s, "Tourney #") && strings.HasSuffix(s, "has been aborted!"):
		return eventLine(TDAborted, s, "Tourney #")
	case strings.HasPrefix(s, "You have been forfeited from tourney #"):
		return eventLine(TDForfeited, s, "tourney #")
	case strings.HasSuffix(s, " has set your tourney variable to OFF."):
		td := strings.TrimSuffix(s, " has set your tourney variable to OFF.")
		if !tdName(td) {
			return TDLine{}, fmt.Errorf("protocol: TD line %q: bad TD name", s)
		}
		return TDLine{Kind: TDVariableOff, TD: td}, nil
	case strings.HasPrefix(s, "Tourney #") && strings.HasSuffix(s, "'s standings:"):
		return eventLine(TDStandings, s, "Tourney #")
	case strings.HasPrefix(s, joinRefusedPrefix):
		return parseJoinRefused(s)
	}
	return TDLine{}, ErrNotTDLine
}

// tdName reports whether s can be a handle in a TD line: 1 to 32 bytes,
// no blank and no quote (which would end the tourney-set value).
func tdName(s string) bool {
	return s != "" && len(s) <= 32 && !strings.ContainsAny(s, " \t\"")
}

// eventLine reads the event number after the first mark in s.
func eventLine(kind TDLineKind, s, mark string) (TDLine, error) {
	i := strings.Index(s, mark)
	if i < 0 {
		return TDLine{}, fmt.Errorf("protocol: %s line %q: no %q", kind, s, mark)
	}
	n, ok := leadingNumber(s[i+len(mark):])
	if !ok {
		return TDLine{}, fmt.Errorf("protocol: %s line %q: bad event number", kind, s)
	}
	return TDLine{Kind: kind, Event: n}, nil
}

// leadingNumber reads the decimal number at the start of s (at most 9
// digits, so it cannot overflow).
func leadingNumber(s string) (int, bool) {
	j := 0
	for j < len(s) && j < 9 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(s[:j])
	return n, true
}

// parsePairing reads "You play <colour> against <name> in this round of
// tourney #N."
func parsePairing(s string) (TDLine, error) {
	f := strings.Fields(s)
	// You play white against NAME in this round of tourney #N.
	if len(f) != 11 || f[3] != "against" || strings.Join(f[5:10], " ") != "in this round of tourney" {
		return TDLine{}, fmt.Errorf("protocol: pairing line %q: not \"You play <colour> against <name> in this round of tourney #N.\"", s)
	}
	l := TDLine{Kind: TDPairing, Colour: strings.ToLower(f[2]), Opponent: f[4]}
	if !tdName(l.Opponent) {
		return TDLine{}, fmt.Errorf("protocol: pairing line %q: bad opponent name %q", s, f[4])
	}
	if l.Colour != "white" && l.Colour != "black" {
		return TDLine{}, fmt.Errorf("protocol: pairing line %q: bad colour %q", s, f[2])
	}
	n, ok := leadingNumber(strings.TrimPrefix(f[10], "#"))
	if !ok || !strings.HasPrefix(f[10], "#") {
		return TDLine{}, fmt.Errorf("protocol: pairing line %q: bad event number %q", s, f[10])
	}
	l.Event = n
	return l, nil
}

// parseTourneySet reads Automato's `tourney set to "TD TAG * opp wt wi bt
// bi u w0 colour round" by TD.`. The opponent, the token after "*", is
// required; the rest is read when present and well formed, since its
// meaning is partly inferred (docs/tournaments.md, TD wire §2).
func parseTourneySet(s string) (TDLine, error) {
	rest := strings.TrimPrefix(s, "tourney set to \"")
	q := strings.IndexByte(rest, '"')
	if q < 0 {
		return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: no closing quote", s)
	}
	val, tail := rest[:q], strings.TrimSpace(rest[q+1:])
	l := TDLine{Kind: TDTourneySet}
	if by, ok := strings.CutPrefix(tail, "by "); ok {
		l.TD = strings.TrimSuffix(strings.TrimSpace(by), ".")
	}
	f := strings.Fields(val)
	star := -1
	for i, w := range f {
		if w == "*" {
			star = i
			break
		}
	}
	if star < 0 || star+1 >= len(f) {
		return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: no opponent after \"*\"", s)
	}
	if star >= 1 && l.TD == "" {
		l.TD = f[0]
	}
	if star >= 2 {
		l.Tag = strings.Join(f[1:star], " ")
	}
	l.Opponent = f[star+1]
	if !tdName(l.Opponent) {
		return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad opponent name %q", s, l.Opponent)
	}
	if l.TD != "" && !tdName(l.TD) {
		return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad TD name %q", s, l.TD)
	}
	nums := []*int{&l.WhiteMin, &l.WhiteInc, &l.BlackMin, &l.BlackInc}
	i := star + 2
	for _, p := range nums {
		if i >= len(f) {
			return l, nil
		}
		n, err := strconv.Atoi(f[i])
		if err != nil || n < 0 || n > 100000 {
			return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad clock field %q", s, f[i])
		}
		*p = n
		i++
	}
	if i < len(f) {
		switch f[i] {
		case "r":
			l.Rated = true
		case "u":
		default:
			return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad rated field %q", s, f[i])
		}
		i++
	}
	if i < len(f) {
		w, ok := strings.CutPrefix(f[i], "w")
		n, err := strconv.Atoi(w)
		if !ok || err != nil || n < 0 || n > 1000 {
			return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad wild field %q", s, f[i])
		}
		l.Wild = n
		i++
	}
	if i < len(f) {
		c := strings.ToLower(f[i])
		if c != "white" && c != "black" {
			return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad colour %q", s, f[i])
		}
		l.Colour = c
		i++
	}
	if i < len(f) {
		n, err := strconv.Atoi(f[i])
		if err != nil || n < 0 || n > 100000 {
			return TDLine{}, fmt.Errorf("protocol: tourney-set line %q: bad round %q", s, f[i])
		}
		l.Round = n
	}
	return l, nil
}

const joinRefusedPrefix = "You cannot join tourney #"

// parseJoinRefused reads "You cannot join tourney #N (TAG): <reason>.",
// the TD's answer to a join it will not take; the tag and the reason are
// optional ("You cannot join tourney #N.").
func parseJoinRefused(s string) (TDLine, error) {
	rest := strings.TrimPrefix(s, joinRefusedPrefix)
	n, ok := leadingNumber(rest)
	if !ok {
		return TDLine{}, fmt.Errorf("protocol: join-refused line %q: bad event number", s)
	}
	l := TDLine{Kind: TDJoinRefused, Event: n}
	rest = strings.TrimLeft(rest, "0123456789")
	if tag, ok := strings.CutPrefix(rest, " ("); ok {
		end := strings.IndexByte(tag, ')')
		if end < 0 || !tdName(tag[:end]) || strings.ContainsAny(tag[:end], "()") {
			return TDLine{}, fmt.Errorf("protocol: join-refused line %q: bad event name", s)
		}
		l.Tag, rest = tag[:end], tag[end+1:]
	}
	switch {
	case rest == ".":
	case strings.HasPrefix(rest, ": ") && strings.HasSuffix(rest, "."):
		l.Reason = strings.TrimSuffix(rest[2:], ".")
	default:
		return TDLine{}, fmt.Errorf("protocol: join-refused line %q: not \"You cannot join tourney #N (name): <reason>.\"", s)
	}
	return l, nil
}
