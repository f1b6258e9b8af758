package protocol

import "strings"

// ICC datagram (DG) numbers, named after ICC's DG_* constants in
// formats.txt (see docs/icc-protocol.md, section (b)).
const (
	DGWhoAmI           = 0   // DG_WHO_AM_I
	DGMyGameStarted    = 15  // DG_MY_GAME_STARTED
	DGMyGameResult     = 16  // DG_MY_GAME_RESULT
	DGMyGameEnded      = 17  // DG_MY_GAME_ENDED
	DGPlayersInMyGame  = 20  // DG_PLAYERS_IN_MY_GAME
	DGOffersInMyGame   = 21  // DG_OFFERS_IN_MY_GAME
	DGSendMoves        = 24  // DG_SEND_MOVES
	DGMoveList         = 25  // DG_MOVE_LIST
	DGKibitz           = 26  // DG_KIBITZ
	DGMatch            = 29  // DG_MATCH
	DGMatchRemoved     = 30  // DG_MATCH_REMOVED
	DGPersonalTell     = 31  // DG_PERSONAL_TELL
	DGMoveAlgebraic    = 33  // DG_MOVE_ALGEBRAIC: switch, adds the SAN field to 24/25
	DGMoveSmith        = 34  // DG_MOVE_SMITH: switch, adds the smith field to 24/25
	DGMoveTime         = 35  // DG_MOVE_TIME: switch, adds time used to 24/25
	DGMoveClock        = 36  // DG_MOVE_CLOCK: switch, adds clock left to 24/25
	DGSetClock         = 38  // DG_SET_CLOCK
	DGFlip             = 39  // DG_FLIP
	DGIllegalMove      = 42  // DG_ILLEGAL_MOVE
	DGMyRelationToGame = 43  // DG_MY_RELATION_TO_GAME
	DGSeek             = 50  // DG_SEEK
	DGSeekRemoved      = 51  // DG_SEEK_REMOVED
	DGMsec             = 56  // DG_MSEC
	DGMoretime         = 61  // DG_MORETIME
	DGPersonalTellEcho = 62  // DG_PERSONAL_TELL_ECHO
	DGLoginFailed      = 69  // DG_LOGIN_FAILED
	DGGameMessage      = 77  // DG_GAME_MESSAGE
	DGDummyResponse    = 81  // DG_DUMMY_RESPONSE
	DGPositionBegin    = 101 // DG_POSITION_BEGIN
	DGIsVariation      = 113 // switch: adds the is-variation field to DG 24
	DGWildKey          = 116 // DG_WILD_KEY
	DGSwitchServers    = 120 // DG_SWITCH_SERVERS
	DGSet2             = 124 // DG_SET2
	DGMyTurn           = 139 // DG_MY_TURN
	DGError            = 154 // DG_ERROR
	DGFail             = 168 // DG_FAIL
)

// BotDatagrams lists the DGs a Kriegspiel bot enables: those recommended in
// docs/icc-protocol.md (b) "Suggested level2settings for the bot" (0, 15, 16,
// 17, 21, 24, 29, 30, 31, 33-36, 38, 42, 43, 56, 61, 62, 69, 77, 101, 124,
// 139 and 154) plus 25, the move list, which the bot needs to take a game
// back after a reconnection and to read the whole game once it is over. With
// 33-36 on (and 113 off), DG 24 carries game SAN smith time clock; see
// BotMoveFields.
var BotDatagrams = []int{
	DGWhoAmI, DGMyGameStarted, DGMyGameResult, DGMyGameEnded,
	DGOffersInMyGame, DGSendMoves, DGMoveList, DGMatch, DGMatchRemoved, DGPersonalTell,
	DGMoveAlgebraic, DGMoveSmith, DGMoveTime, DGMoveClock,
	DGSetClock, DGIllegalMove, DGMyRelationToGame, DGMsec, DGMoretime,
	DGPersonalTellEcho, DGLoginFailed, DGGameMessage, DGPositionBegin,
	DGSet2, DGMyTurn, DGError,
}

// Level2Settings returns the level2settings bit string enabling exactly
// dgs: character i is '1' when DG i is in the list and '0' otherwise, and
// the length is the largest DG number plus one. Negative numbers are
// ignored; an empty list gives "". ICC DG numbers are below 200; the
// string is as long as the largest number given.
func Level2Settings(dgs ...int) string {
	n := 0
	for _, d := range dgs {
		if d+1 > n {
			n = d + 1
		}
	}
	b := []byte(strings.Repeat("0", n))
	for _, d := range dgs {
		if d >= 0 {
			b[d] = '1'
		}
	}
	return string(b)
}

// MoveFieldsFor returns the DG 24 fields a server sends when exactly dgs are on.
func MoveFieldsFor(dgs []int) MoveFields {
	var mf MoveFields
	for _, d := range dgs {
		switch d {
		case DGMoveAlgebraic:
			mf.Algebraic = true
		case DGMoveSmith:
			mf.Smith = true
		case DGMoveTime:
			mf.Time = true
		case DGMoveClock:
			mf.Clock = true
		case DGIsVariation:
			mf.Variation = true
		}
	}
	return mf
}
