package replymodel

import (
	"kriegbot/engine/chess"
	"kriegbot/engine/umpire"
)

// umpireMoveView is our legal quiet move's answer from the standard start.
func umpireMoveView(m chess.Move) umpire.View {
	u := umpire.New(umpire.ICC())
	u.Reset(chess.StartPosition())
	a, err := u.Attempt(m)
	if err != nil || !a.Legal {
		panic("umpireMoveView: not a legal first move")
	}
	return a.For(chess.White)
}
