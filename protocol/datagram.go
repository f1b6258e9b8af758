package protocol

import (
	"bytes"
	"fmt"
	"strconv"

	"kriegbot/engine/chess"
)

// DG is a decoded ICC datagram (a Datagram event's content). Number reports its DG number.
//
// Decoder.Decode returns one of the ...DG struct values below (not pointers) for the DGs listed in
// docs/icc-protocol.md (b), and a RawDG for any other DG number. All strings
// are copies, so a DG stays valid after the Reader reuses its
// buffers.
type DG interface {
	Number() int
}

// DecodeError reports a missing or malformed datagram field.
type DecodeError struct {
	DG      int    // datagram number
	Field   string // field name, as in formats.txt
	Value   string // the offending value; empty when Missing
	Missing bool   // the field was absent
}

func (e *DecodeError) Error() string {
	if e.Missing {
		return fmt.Sprintf("protocol: DG %d: missing field %s", e.DG, e.Field)
	}
	return fmt.Sprintf("protocol: DG %d: malformed field %s: %q", e.DG, e.Field, e.Value)
}

// MoveFields says which optional move fields DG 24 and the move-info
// fields of DG 25 carry. They depend on the switches DG 33-36 (and 113,
// DG 24's is-variation) being on; see docs/icc-protocol.md (a.3).
type MoveFields struct {
	Algebraic bool // DG 33: SAN
	Smith     bool // DG 34: smith (e2e4, e1g1c, f6e5n, ?, ?xb1)
	Time      bool // DG 35: seconds used
	Clock     bool // DG 36: seconds left
	Variation bool // DG 113: is-variation (DG 24 only)
}

// BotMoveFields matches BotDatagrams: 33-36 on, 113 off, giving
// (24 959 e4 e2e4 23 37).
var BotMoveFields = MoveFields{Algebraic: true, Smith: true, Time: true, Clock: true}

// Decoder decodes datagrams. Moves must match the switches the session
// turned on, because the optional move fields cannot be told apart by
// their count alone: with only 34 and 36 on (Reindeer) DG 24 is
// (24 227 e7e6 298), with 33-36 on it is (24 959 e4 e2e4 23 37). The zero
// Decoder expects DG 24 to carry the game number only. A field whose
// switch is on but which is absent is an error.
//
// Intern, when set, reuses the strings of move fields (SAN and smith), so
// that DG 24 and DG 56 decode with no allocation once the common moves have
// been seen. A Decoder with an Interner must be used by one goroutine at a
// time.
type Decoder struct {
	Moves  MoveFields
	Intern *Interner
}

// Interner hands out one string per distinct byte sequence, up to a bound.
type Interner struct {
	m   map[string]string
	max int
}

// NewInterner keeps at most max strings; beyond that it allocates as usual,
// so a hostile stream cannot grow it without bound.
func NewInterner(max int) *Interner {
	return &Interner{m: make(map[string]string, 64), max: max}
}

// String returns b as a string, shared with earlier calls for the same bytes.
func (in *Interner) String(b []byte) string {
	if in == nil {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in.m) < in.max {
		in.m[s] = s
	}
	return s
}

// dgFields reads fields by index; the first error sticks.
type dgFields struct {
	dg  int
	f   [][]byte
	err error
	in  *Interner
}

func (p *dgFields) fail(name string, v []byte, missing bool) {
	if p.err == nil {
		p.err = &DecodeError{DG: p.dg, Field: name, Value: string(v), Missing: missing}
	}
}

func (p *dgFields) has(i int) bool { return i < len(p.f) }

func (p *dgFields) raw(i int, name string) []byte {
	if p.err != nil {
		return nil
	}
	if i >= len(p.f) {
		p.fail(name, nil, true)
		return nil
	}
	return p.f[i]
}

func (p *dgFields) str(i int, name string) string { return string(p.raw(i, name)) }

// word is a non-empty string field.
func (p *dgFields) word(i int, name string) string {
	b := p.raw(i, name)
	if p.err == nil && len(b) == 0 {
		p.fail(name, b, false)
	}
	return string(b)
}

// moveWord is word through the interner.
func (p *dgFields) moveWord(i int, name string) string {
	b := p.raw(i, name)
	if p.err == nil && len(b) == 0 {
		p.fail(name, b, false)
	}
	if p.err != nil {
		return ""
	}
	return p.in.String(b)
}

func (p *dgFields) num(i int, name string) int {
	b := p.raw(i, name)
	if p.err != nil {
		return 0
	}
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	n, ok := parseNumber(digits, 12)
	if !ok {
		p.fail(name, b, false)
		return 0
	}
	if neg {
		return -n
	}
	return n
}

func (p *dgFields) flag(i int, name string) bool {
	b := p.raw(i, name)
	if p.err != nil {
		return false
	}
	switch string(b) {
	case "0":
		return false
	case "1":
		return true
	}
	p.fail(name, b, false)
	return false
}

func (p *dgFields) color(i int, name string) chess.Color {
	b := p.raw(i, name)
	if p.err != nil {
		return chess.White
	}
	switch string(b) {
	case "W", "w":
		return chess.White
	case "B", "b":
		return chess.Black
	}
	p.fail(name, b, false)
	return chess.White
}

// move reads a move from fields f[i:] according to mf, returning the
// index after it.
func (p *dgFields) move(m *MoveDG, i int, mf MoveFields, variation bool) int {
	m.CaptureSquare = chess.NoSquare
	hiddenSrc, hiddenName := "", ""
	if mf.Algebraic {
		m.SAN = p.moveWord(i, "algebraic")
		hiddenSrc, hiddenName = m.SAN, "algebraic"
		i++
	}
	if mf.Smith {
		m.Smith = p.moveWord(i, "smith")
		hiddenSrc, hiddenName = m.Smith, "smith"
		i++
	}
	if mf.Time {
		m.TimeUsed = p.num(i, "time")
		i++
	}
	if mf.Clock {
		m.Clock = p.num(i, "clock")
		i++
	}
	if variation && mf.Variation {
		m.Variation = p.flag(i, "is-variation")
		i++
	}
	if p.err == nil && len(hiddenSrc) > 0 && hiddenSrc[0] == '?' {
		m.Hidden = true
		switch {
		case hiddenSrc == "?":
		case len(hiddenSrc) == 4 && hiddenSrc[1] == 'x':
			sq, ok := chess.ParseSquare(hiddenSrc[2:])
			if !ok {
				p.fail(hiddenName, []byte(hiddenSrc), false)
			}
			m.CaptureSquare = sq
		default:
			p.fail(hiddenName, []byte(hiddenSrc), false)
		}
	}
	return i
}

// DecodeMove decodes the fields of a DG 24 without boxing it in a DG, so the
// hottest datagram costs no allocation (with an Interner, once warm).
func (d Decoder) DecodeMove(fields [][]byte) (MoveDG, error) {
	p := dgFields{dg: DGSendMoves, f: fields, in: d.Intern}
	m := MoveDG{Game: p.num(0, "gamenumber")}
	p.move(&m, 1, d.Moves, true)
	if p.err != nil {
		return MoveDG{}, p.err
	}
	return m, nil
}

// DecodeMyTurn decodes the fields of a DG 139 without boxing.
func DecodeMyTurn(fields [][]byte) (MyTurnDG, error) {
	p := dgFields{dg: DGMyTurn, f: fields}
	m := MyTurnDG{Game: p.num(0, "gamenumber")}
	if p.err != nil {
		return MyTurnDG{}, p.err
	}
	return m, nil
}

// DecodeIllegalMove decodes the fields of a DG 42 without boxing; with an
// Interner the move string is shared once seen.
func (d Decoder) DecodeIllegalMove(fields [][]byte) (IllegalMoveDG, error) {
	p := dgFields{dg: DGIllegalMove, f: fields, in: d.Intern}
	m := IllegalMoveDG{Game: p.num(0, "gamenumber")}
	if b := p.raw(1, "movestring"); p.err == nil {
		m.Move = d.Intern.String(b)
	}
	m.Reason = p.num(2, "reason")
	if p.err != nil {
		return IllegalMoveDG{}, p.err
	}
	return m, nil
}

// DecodeMsec decodes the fields of a DG 56 without boxing; it never allocates
// on success.
func DecodeMsec(fields [][]byte) (MsecDG, error) {
	p := dgFields{dg: DGMsec, f: fields}
	m := MsecDG{Game: p.num(0, "gamenumber"), Color: p.color(1, "color"), Msec: p.num(2, "msec"),
		Running: p.flag(3, "running")}
	if p.has(5) {
		m.HasExtra = true
		m.FreeTime = p.num(4, "free_time_to_move")
		m.MinMoveTime = p.num(5, "min_move_time")
	}
	if p.err != nil {
		return MsecDG{}, p.err
	}
	return m, nil
}

// Decode decodes one datagram. Fields are the Reader's Datagram event
// fields (quotes removed); they are not retained. Too few fields, or a field
// that does not parse, give a *DecodeError naming the DG and field; extra
// trailing fields are ignored. DG numbers without a decoder give a RawDG.
func (d Decoder) Decode(dg int, fields [][]byte) (DG, error) {
	p := &dgFields{dg: dg, f: fields, in: d.Intern}
	var out DG
	switch dg {
	case DGWhoAmI:
		out = WhoAmIDG{Name: p.word(0, "myname"), Titles: p.str(1, "titles")}
	case DGMyGameStarted:
		out = MyGameStartedDG{
			Game: p.num(0, "gamenumber"), White: p.word(1, "whitename"), Black: p.word(2, "blackname"),
			Wild: p.num(3, "wild-number"), RatingType: p.str(4, "rating-type"), Rated: p.flag(5, "rated"),
			WhiteInitial: p.num(6, "white-initial"), WhiteIncrement: p.num(7, "white-increment"),
			BlackInitial: p.num(8, "black-initial"), BlackIncrement: p.num(9, "black-increment"),
			Played: p.flag(10, "played-game"), ExString: p.str(11, "ex-string"),
			WhiteRating: p.num(12, "white-rating"), BlackRating: p.num(13, "black-rating"),
			GameID: p.str(14, "game-id"), WhiteTitles: p.str(15, "white-titles"), BlackTitles: p.str(16, "black-titles"),
			IrregularLegality: p.flag(17, "irregular-legality"), IrregularSemantics: p.flag(18, "irregular-semantics"),
			UsesPlunkers: p.flag(19, "uses-plunkers"), FancyTimeControl: p.str(20, "fancy-timecontrol"),
			PromoteToKing: p.flag(21, "promote-to-king"),
		}
	case DGMyGameResult:
		out = MyGameResultDG{
			Game: p.num(0, "gamenumber"), BecomeExamined: p.flag(1, "become-examined"),
			Code: p.word(2, "game_result_code"), Score: p.word(3, "score_string2"),
			Description: p.str(4, "description-string"), ECO: p.str(5, "ECO"),
		}
	case DGMyGameEnded:
		out = MyGameEndedDG{Game: p.num(0, "gamenumber")}
	case DGPlayersInMyGame:
		out = PlayersInMyGameDG{Game: p.num(0, "gamenumber"), Name: p.word(1, "playername"),
			Symbol: p.word(2, "symbol"), Kib: p.num(3, "kibvalue")}
	case DGOffersInMyGame:
		out = OffersInMyGameDG{
			Game: p.num(0, "gamenumber"), WhiteDraw: p.flag(1, "wdraw"), BlackDraw: p.flag(2, "bdraw"),
			WhiteAdjourn: p.flag(3, "wadjourn"), BlackAdjourn: p.flag(4, "badjourn"),
			WhiteAbort: p.flag(5, "wabort"), BlackAbort: p.flag(6, "babort"),
			WhiteTakeback: p.num(7, "wtakeback"), BlackTakeback: p.num(8, "btakeback"),
		}
	case DGSendMoves:
		m, err := d.DecodeMove(fields)
		if err != nil {
			return nil, err
		}
		return m, nil
	case DGMoveList:
		ml := MoveListDG{Game: p.num(0, "gamenumber"), Initial: p.word(1, "initial-position")}
		if p.err == nil && ml.Initial != "*" && len(ml.Initial) != 64 {
			p.fail("initial-position", []byte(ml.Initial), false)
		}
		for i := 2; p.err == nil && i < len(fields); i++ {
			sub := &dgFields{dg: dg, f: bytes.Fields(fields[i])}
			m := MoveDG{Game: ml.Game}
			sub.move(&m, 0, d.Moves, false)
			if sub.err != nil {
				e := sub.err.(*DecodeError)
				e.Field = "move-info " + strconv.Itoa(i-1) + " " + e.Field
				p.err = e
				break
			}
			ml.Moves = append(ml.Moves, m)
		}
		out = ml
	case DGMatch:
		m := MatchDG{
			Challenger: p.word(0, "challenger"), ChallengerRating: p.num(1, "challenger-rating"),
			ChallengerAnnot: p.num(2, "challenger-annot"), ChallengerTitles: p.str(3, "challenger-titles"),
			Receiver: p.word(4, "receiver"), ReceiverRating: p.num(5, "receiver-rating"),
			ReceiverAnnot: p.num(6, "receiver-annot"), ReceiverTitles: p.str(7, "receiver-titles"),
			Wild: p.num(8, "wild-number"), RatingType: p.str(9, "rating-type"), Rated: p.flag(10, "rated"),
			Adjourned: p.flag(11, "adjourned"), ChallengerTime: p.num(12, "challenger-time"),
			ChallengerInc: p.num(13, "challenger-inc"), ReceiverTime: p.num(14, "receiver-time"),
			ReceiverInc: p.num(15, "receiver-inc"), ColorRequest: p.num(16, "color-request"),
		}
		switch {
		case len(fields) >= 21:
			m.Assess = []string{string(fields[17]), string(fields[18]), string(fields[19])}
			m.FancyTimeControl = string(fields[20])
		case len(fields) >= 18:
			m.FancyTimeControl = string(fields[17])
		}
		out = m
	case DGSeek:
		sk := SeekDG{Index: p.num(0, "index"), Name: p.word(1, "name"), Titles: p.str(2, "titles"),
			Rating: p.num(3, "rating"), Provisional: p.num(4, "provisional-status"), Wild: p.num(5, "wild"),
			RatingType: p.str(6, "rating-type"), Minutes: p.num(7, "time"), Inc: p.num(8, "inc"),
			Rated: p.flag(9, "rated"), Color: p.num(10, "color"), MinRating: p.num(11, "minrating"),
			MaxRating: p.num(12, "maxrating"), Automatic: p.flag(13, "autoaccept"), Formula: p.flag(14, "formula")}
		if len(fields) > 15 {
			sk.FancyTC = string(fields[15])
		}
		out = sk
	case DGSeekRemoved:
		out = SeekRemovedDG{Index: p.num(0, "index"), Reason: p.num(1, "reasoncode")}
	case DGMatchRemoved:
		out = MatchRemovedDG{Challenger: p.word(0, "challenger"), Receiver: p.word(1, "receiver"),
			Explanation: p.str(2, "explanation")}
	case DGPersonalTell:
		out = PersonalTellDG{Name: p.word(0, "playername"), Titles: p.str(1, "titles"),
			Text: p.str(2, "text"), Type: p.num(3, "type")}
	case DGSetClock:
		out = SetClockDG{Game: p.num(0, "gamenumber"), White: p.num(1, "white-clock"), Black: p.num(2, "black-clock")}
	case DGFlip:
		out = FlipDG{Game: p.num(0, "gamenumber"), Flip: p.flag(1, "flip")}
	case DGIllegalMove:
		m, err := d.DecodeIllegalMove(fields)
		if err != nil {
			return nil, err
		}
		return m, nil
	case DGMyRelationToGame:
		out = RelationDG{Game: p.num(0, "gamenumber"), Symbol: p.word(1, "symbol")}
	case DGMsec:
		m, err := DecodeMsec(fields)
		if err != nil {
			return nil, err
		}
		return m, nil
	case DGMoretime:
		out = MoretimeDG{Game: p.num(0, "gamenumber"), Color: p.color(1, "color"), Seconds: p.num(2, "seconds")}
	case DGPersonalTellEcho:
		out = PersonalTellEchoDG{Receiver: p.word(0, "receivername"), Type: p.num(1, "type"), Text: p.str(2, "text")}
	case DGLoginFailed:
		out = LoginFailedDG{Code: p.num(0, "code"), Explanation: p.str(1, "explanation")}
	case DGGameMessage:
		out = GameMessageDG{Game: p.num(0, "gamenumber"), Text: p.str(1, "string")}
	case DGPositionBegin:
		out = PositionBeginDG{Game: p.num(0, "gamenumber"), FEN: p.word(1, "initial-FEN"), NMoves: p.num(2, "nmoves-to-follow")}
	case DGSwitchServers:
		out = SwitchServersDG{Server: p.word(0, "server"), Port: p.num(1, "port"), IP: p.str(2, "ip")}
	case DGSet2:
		out = Set2DG{DG: p.num(0, "dg-code"), On: p.flag(1, "on")}
	case DGMyTurn:
		m, err := DecodeMyTurn(fields)
		if err != nil {
			return nil, err
		}
		return m, nil
	case DGError:
		out = ErrorDG{Code: p.num(0, "err-no"), Lang: p.str(1, "iso-lang"), Text: p.str(2, "text"), URL: p.str(3, "URL")}
	case DGFail:
		out = FailDG{CommandID: p.num(0, "command_id"), Message: p.str(1, "error_message")}
	default:
		if t, ok := decodeTourney(p, dg); ok {
			out = t
			break
		}
		r := RawDG{N: dg, Fields: make([]string, len(fields))}
		for i, f := range fields {
			r.Fields[i] = string(f)
		}
		return r, nil
	}
	if p.err != nil {
		return nil, p.err
	}
	return out, nil
}
