// Package players defines Player, the one interface for everything that plays
// Kriegspiel (the daemon on a chess server, the in-process match runner, the
// stdio engine of docs/kep.md), and its simple kinds: random and heuristic.
// The MCTS player plugs in as one more Kind.
//
// # Driving a Player
//
// A driver (the referee's side of the conversation) calls, for each game:
//
//	NewGame(Game{Color, Rules, Control, Seed})
//	loop until the game ends:
//	    when it is our turn:
//	        m := Attempt(ctx, budget)   // repeated until the referee accepts
//	        Hear(Event{Kind: Answer, View: answer.For(our colour)})
//	    when the opponent moved (legally):
//	        Hear(Event{Kind: Answer, View: answer.For(our colour)})
//	    whenever the clocks are known anew:
//	        Hear(Event{Kind: ClockUpdate, Clock: ...})
//	GameOver(Outcome{Result, Reason})
//
// The contract, which every kind keeps and the match runner checks:
//
//   - Events are told from the player's own side: an "Illegal move" for our own
//     refused attempt (View.Own, View.Illegal), our accepted move with what the
//     referee announced (capture, checks on the opponent, its pawn tries), and
//     the opponent's hidden move as the referee announces it (View.Move is
//     chess.NullMove; capture of one of our men, checks on our king, our pawn
//     tries). In wild 16 the opponent's refused attempts are never told (ICC
//     does not tell them), so a driver may pass them or not: View.Heard false
//     is ignored. In the variants that make them public (umpire.Variant) the
//     opponent's "Illegal move" is told (View.Illegal, Own false), and so is
//     the answer to either side's "Any?" (View.Verdict HasAny or NoAny);
//     Moved tells a move from these.
//   - Attempt returns chess.NullMove to ask "Any?" (where the variant has it),
//     and a drop (umpire.DropMove) in crazykrieg; a driver puts the first to
//     the referee's AskAny and the rest to its Attempt. No kind returns either
//     in wild 16.
//   - A player keeps its own knowledge of its own men from these events alone;
//     it is never shown the opponent's men.
//   - Attempt never returns an attempt the referee already refused this turn,
//     and it always returns an attempt while one remains (it returns
//     ErrNoAttempt only if every askable attempt was refused, which the rules
//     make impossible while the game is on).
//   - Attempt honours the context: when ctx is done it returns its best
//     attempt so far at once (never an error for a timeout). Budget.Time is
//     the thinking time to aim for; the context's deadline is the hard limit.
//     Budget.Nodes bounds the work instead of time, for reproducible matches.
//     The budget is the driver's (it owns the game's clock.Turn): a player
//     keeps no time manager of its own, and a zero Budget means "answer with
//     what is cheap".
//   - Given the same Game.Seed, the same events and a node (not time) budget,
//     a player makes the same attempts: all randomness comes from the seed.
//   - A Player is used by one goroutine at a time; a driver playing games in
//     parallel makes one Player per game in flight (Spec.New).
//   - A Ponderer (mcts) may also think during the opponent's turn: a driver
//     runs Ponder on a goroutine of its own from our accepted move, and ends
//     it (cancels and waits, which is immediate) before the player hears
//     anything or is asked anything else. A ponder's iteration counts repeat
//     it exactly (PonderTrees), so drivers record them where they record
//     searches.
//
// # Specs
//
// A player is named by a spec, "kind" or "kind:key=value,key=value", for
// example "random", "heuristic:noise=0" or "mcts:approach=c,threads=1". Parse
// reads a spec against the registered kinds (Kinds) and checks its options
// once, so a typo fails before a match starts; Spec.New then makes as many
// independent players as needed.
//
// Adding a kind is a file in this package with a func returning its Kind
// (name, help, Build reading the options through Options.String, Int and
// Float, which reject bad values and unknown keys) and one line in Kinds.
// The mcts kind wraps engine/search this way; search itself does not import
// this package.
package players
