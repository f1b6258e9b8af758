package protocol

import "kriegbot/engine/chess"

// The typed datagrams Decoder.Decode returns, one per DG number of
// docs/icc-protocol.md (b), with the field names of formats.txt.

// RawDG is a datagram without a typed decoder.
type RawDG struct {
	N      int
	Fields []string
}

// WhoAmIDG is DG 0, DG_WHO_AM_I.
type WhoAmIDG struct{ Name, Titles string }

// MyGameStartedDG is DG 15, DG_MY_GAME_STARTED. Times are minutes
// (initial) and seconds (increment).
type MyGameStartedDG struct {
	Game                             int
	White, Black                     string
	Wild                             int
	RatingType                       string
	Rated                            bool
	WhiteInitial, WhiteIncrement     int
	BlackInitial, BlackIncrement     int
	Played                           bool // false for an examined game
	ExString                         string
	WhiteRating, BlackRating         int
	GameID                           string
	WhiteTitles, BlackTitles         string
	IrregularLegality                bool
	IrregularSemantics, UsesPlunkers bool
	FancyTimeControl                 string // "", "?" or a fancy control
	PromoteToKing                    bool
}

// MyGameResultDG is DG 16, DG_MY_GAME_RESULT.
type MyGameResultDG struct {
	Game           int
	BecomeExamined bool
	Code           string // Res, Mat, Fla, ...
	Score          string // 1-0, 0-1, 1/2-1/2, *, aborted
	Description    string
	ECO            string
}

// MyGameEndedDG is DG 17, DG_MY_GAME_ENDED.
type MyGameEndedDG struct{ Game int }

// PlayersInMyGameDG is DG 20, DG_PLAYERS_IN_MY_GAME.
type PlayersInMyGameDG struct {
	Game   int
	Name   string
	Symbol string // O PW PB SW SB E X
	Kib    int
}

// OffersInMyGameDG is DG 21, DG_OFFERS_IN_MY_GAME.
type OffersInMyGameDG struct {
	Game                   int
	WhiteDraw, BlackDraw   bool
	WhiteAdjourn           bool
	BlackAdjourn           bool
	WhiteAbort, BlackAbort bool
	WhiteTakeback          int // half-moves asked for
	BlackTakeback          int
}

// MoveDG is DG 24, DG_SEND_MOVES, and one move-info of DG 25. Fields
// whose switch is off (see MoveFields) are zero.
type MoveDG struct {
	Game  int
	SAN   string
	Smith string
	// Hidden is set for a Kriegspiel opponent move shown as "?" or
	// "?x<sq>"; CaptureSquare is <sq> (our piece captured there), or
	// chess.NoSquare.
	Hidden        bool
	CaptureSquare chess.Square
	TimeUsed      int // seconds
	Clock         int // seconds left, after increment
	Variation     bool
}

// MoveListDG is DG 25, DG_MOVE_LIST.
type MoveListDG struct {
	Game    int
	Initial string // "*" or 64 characters a8..h1
	Moves   []MoveDG
}

// MatchDG is DG 29, DG_MATCH (a challenge).
type MatchDG struct {
	Challenger                string
	ChallengerRating          int
	ChallengerAnnot           int
	ChallengerTitles          string
	Receiver                  string
	ReceiverRating            int
	ReceiverAnnot             int
	ReceiverTitles            string
	Wild                      int
	RatingType                string
	Rated, Adjourned          bool
	ChallengerTime            int // minutes
	ChallengerInc             int // seconds
	ReceiverTime, ReceiverInc int
	ColorRequest              int      // -1 none, 0 black, 1 white
	Assess                    []string // win/draw/loss, when present
	FancyTimeControl          string
}

// SeekDG is DG 50, DG_SEEK: a seek ad, answered by "play <index>"
// (docs/icc-protocol.md (b): index name titles rating provisional wild
// rating-type time inc rated color minrating maxrating automatic formula
// fancy-tc).
type SeekDG struct {
	Index       int
	Name        string
	Titles      string
	Rating      int
	Provisional int
	Wild        int
	RatingType  string
	Minutes     int // initial time
	Inc         int // seconds
	Rated       bool
	Color       int // -1 either, 0 black, 1 white: the colour the seeker plays
	MinRating   int
	MaxRating   int
	Automatic   bool // a "play" starts the game at once (else the seeker decides)
	Formula     bool
	FancyTC     string
}

// SeekRemovedDG is DG 51, DG_SEEK_REMOVED: index and reason (1 left, 2
// playing, 3 removed, 4 replaced, 5 n/a).
type SeekRemovedDG struct {
	Index, Reason int
}

// MatchRemovedDG is DG 30, DG_MATCH_REMOVED.
type MatchRemovedDG struct{ Challenger, Receiver, Explanation string }

// PersonalTellDG is DG 31, DG_PERSONAL_TELL. Type: 0 say, 1 tell,
// 2 ptell, 4 atell.
type PersonalTellDG struct {
	Name, Titles, Text string
	Type               int
}

// SetClockDG is DG 38, DG_SET_CLOCK (seconds).
type SetClockDG struct{ Game, White, Black int }

// FlipDG is DG 39, DG_FLIP. Flip is true when we are Black.
type FlipDG struct {
	Game int
	Flip bool
}

// IllegalMoveDG is DG 42, DG_ILLEGAL_MOVE; see the reason codes in
// docs/icc-protocol.md (b).
type IllegalMoveDG struct {
	Game   int
	Move   string
	Reason int
}

// RelationDG is DG 43, DG_MY_RELATION_TO_GAME.
type RelationDG struct {
	Game   int
	Symbol string // PW PB O E X ...
}

// MsecDG is DG 56, DG_MSEC.
type MsecDG struct {
	Game        int
	Color       chess.Color
	Msec        int
	Running     bool
	HasExtra    bool // the two trailing fields were present
	FreeTime    int
	MinMoveTime int
}

// MoretimeDG is DG 61, DG_MORETIME.
type MoretimeDG struct {
	Game    int
	Color   chess.Color
	Seconds int
}

// PersonalTellEchoDG is DG 62, DG_PERSONAL_TELL_ECHO.
type PersonalTellEchoDG struct {
	Receiver string
	Type     int
	Text     string
}

// LoginFailedDG is DG 69, DG_LOGIN_FAILED.
type LoginFailedDG struct {
	Code        int
	Explanation string
}

// GameMessageDG is DG 77, DG_GAME_MESSAGE.
type GameMessageDG struct {
	Game int
	Text string
}

// PositionBeginDG is DG 101, DG_POSITION_BEGIN; NMoves DG 24s follow.
type PositionBeginDG struct {
	Game   int
	FEN    string
	NMoves int
}

// SwitchServersDG is DG 120, DG_SWITCH_SERVERS.
type SwitchServersDG struct {
	Server string
	Port   int
	IP     string
}

// Set2DG is DG 124, DG_SET2: the server acknowledges set-2 of a DG.
type Set2DG struct {
	DG int
	On bool
}

// MyTurnDG is DG 139, DG_MY_TURN.
type MyTurnDG struct{ Game int }

// ErrorDG is DG 154, DG_ERROR.
type ErrorDG struct {
	Code            int
	Lang, Text, URL string
}

// FailDG is DG 168, DG_FAIL.
type FailDG struct {
	CommandID int
	Message   string
}

func (r RawDG) Number() int            { return r.N }
func (WhoAmIDG) Number() int           { return DGWhoAmI }
func (MyGameStartedDG) Number() int    { return DGMyGameStarted }
func (MyGameResultDG) Number() int     { return DGMyGameResult }
func (MyGameEndedDG) Number() int      { return DGMyGameEnded }
func (SeekDG) Number() int             { return DGSeek }
func (SeekRemovedDG) Number() int      { return DGSeekRemoved }
func (PlayersInMyGameDG) Number() int  { return DGPlayersInMyGame }
func (OffersInMyGameDG) Number() int   { return DGOffersInMyGame }
func (MoveDG) Number() int             { return DGSendMoves }
func (MoveListDG) Number() int         { return DGMoveList }
func (MatchDG) Number() int            { return DGMatch }
func (MatchRemovedDG) Number() int     { return DGMatchRemoved }
func (PersonalTellDG) Number() int     { return DGPersonalTell }
func (SetClockDG) Number() int         { return DGSetClock }
func (FlipDG) Number() int             { return DGFlip }
func (IllegalMoveDG) Number() int      { return DGIllegalMove }
func (RelationDG) Number() int         { return DGMyRelationToGame }
func (MsecDG) Number() int             { return DGMsec }
func (MoretimeDG) Number() int         { return DGMoretime }
func (PersonalTellEchoDG) Number() int { return DGPersonalTellEcho }
func (LoginFailedDG) Number() int      { return DGLoginFailed }
func (GameMessageDG) Number() int      { return DGGameMessage }
func (PositionBeginDG) Number() int    { return DGPositionBegin }
func (SwitchServersDG) Number() int    { return DGSwitchServers }
func (Set2DG) Number() int             { return DGSet2 }
func (MyTurnDG) Number() int           { return DGMyTurn }
func (ErrorDG) Number() int            { return DGError }
func (FailDG) Number() int             { return DGFail }
