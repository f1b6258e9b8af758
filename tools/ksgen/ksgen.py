#!/usr/bin/env python3
"""Generate referee fixtures for every Kriegspiel variant of kriegspiel.org.

kriegbot's own driver, not part of ks-game: it imports the site's referee
(ks-game) and its board library (python-chess) from the paths given on the
command line, plays seeded random games through the referee, and writes
every attempt with every answer as JSON Lines (schema: docs/fixtures.md,
section "Variant fixtures"). ks-game's code never enters this repository,
only the answers it gave.

Usage:
  python3 tools/ksgen/ksgen.py --ks-game DIR --python-chess DIR \
      --variant berkeley_any --games 200 --out FILE.jsonl.gz
"""

import argparse
import gzip
import io
import json
import random
import sys

VARIANTS = ["berkeley", "berkeley_any", "cincinnati", "english", "rand", "crazykrieg"]
# Each variant's seeds are SEED_BASE[variant] + n, n = 0 .. games-1.
SEED_BASE = {v: 4100000 + 10000 * i for i, v in enumerate(VARIANTS)}
POLICIES = ["uniform", "capture_first", "pawn_push", "king_walk", "check_first",
            "capture_first", "king_walk", "castle_ep"]
ENDINGS = {
    "CHECKMATE_WHITE_WINS": ("checkmate", "1-0"),
    "CHECKMATE_BLACK_WINS": ("checkmate", "0-1"),
    "STALEMATE_WHITE_WINS": ("stalemate", "1-0"),
    "STALEMATE_BLACK_WINS": ("stalemate", "0-1"),
    "DRAW_STALEMATE": ("stalemate", "1/2-1/2"),
    "DRAW_INSUFFICIENT": ("insufficient_material", "1/2-1/2"),
    "DRAW_TOOMANYREVERSIBLEMOVES": ("too_many_reversible_moves", "1/2-1/2"),
}
# The true position is written before every FEN_EVERY-th legal move (and the
# game's last), to keep the files small; the verifier checks it there.
FEN_EVERY = 20
CHECKS = {
    "CHECK_RANK": "rank", "CHECK_FILE": "file", "CHECK_LONG_DIAGONAL": "long_diagonal",
    "CHECK_SHORT_DIAGONAL": "short_diagonal", "CHECK_KNIGHT": "knight",
}


class Driver:
    """Plays one game: chooses each attempt, asks the referee, records the answer."""

    def __init__(self, ks, chess, variant, seed, policy, max_plies):
        self.ks, self.chess = ks, chess
        self.variant, self.seed, self.policy = variant, seed, policy
        self.max_plies = max_plies
        self.rng = random.Random(seed)
        self.game = ks.KriegspielGame(ruleset=variant)
        self.any_rule = self.game._ruleset.allow_ask_any

    # What the mover may ask, as ks-game lists it, sorted by text.
    def askable(self):
        ask_any = False
        moves = []
        for q in self.game.possible_to_ask:
            if q.question_type == self.ks.QuestionAnnouncement.ASK_ANY:
                ask_any = True
            else:
                moves.append(q.chess_move)
        moves.sort(key=lambda m: m.uci())
        return moves, ask_any

    def board(self):
        return self.game._board

    def heard_count(self, color):
        sheet = self.game._whites_scoresheet if color == self.chess.WHITE else self.game._blacks_scoresheet
        return sum(len(t) for t in sheet.moves_opponent)

    def captures(self, moves):
        b = self.board()
        return [m for m in moves if m.drop is None and b.is_capture(m)]

    def pick(self, moves):
        """A move from the askable list by the game's policy (it may look at the true board)."""
        chess, b, rng = self.chess, self.board(), self.rng
        pol = self.policy
        if pol == "capture_first":
            caps = self.captures(moves)
            return rng.choice(caps or moves)
        if pol == "pawn_push":
            promos = [m for m in moves if m.promotion]
            if promos and rng.random() < 0.9:
                return rng.choice(promos)
            pawns = [m for m in moves if m.drop is None and b.piece_type_at(m.from_square) == chess.PAWN]
            if pawns and rng.random() < 0.7:
                return rng.choice(pawns)
            return rng.choice(moves)
        if pol == "king_walk":
            kings = [m for m in moves if m.drop is None and b.piece_type_at(m.from_square) == chess.KING]
            if kings and rng.random() < 0.5:
                return rng.choice(kings)
            caps = self.captures(moves)
            return rng.choice(caps or moves)
        if pol == "check_first":
            legal = [m for m in moves if b.is_legal(m)]
            mates, checks = [], []
            for m in legal:
                if b.gives_check(m):
                    b.push(m)
                    (mates if b.is_checkmate() else checks).append(m)
                    b.pop()
            if mates:
                return rng.choice(mates)
            if checks and rng.random() < 0.6:
                return rng.choice(checks)
            return rng.choice(moves)
        if pol == "castle_ep":
            castles = [m for m in moves if m.drop is None and b.piece_type_at(m.from_square) == chess.KING
                       and abs(m.to_square - m.from_square) == 2]
            if castles:
                return rng.choice(castles)
            eps = [m for m in moves if m.drop is None and b.is_en_passant(m)]
            if eps:
                return rng.choice(eps)
            home = chess.BB_RANK_1 if b.turn == chess.WHITE else chess.BB_RANK_8
            minors = [m for m in moves if m.drop is None and chess.BB_SQUARES[m.from_square] & home
                      and b.piece_type_at(m.from_square) in (chess.KNIGHT, chess.BISHOP, chess.QUEEN)]
            if minors and rng.random() < 0.5:
                return rng.choice(minors)
            promos = [m for m in moves if m.promotion]
            if promos and rng.random() < 0.9:
                return rng.choice(promos)
            return rng.choice(moves)
        return rng.choice(moves)

    def impossible(self, moves, refused, must_pawns):
        """An attempt outside the askable list: a refused one again, a non-pawn
        move under the pawn obligation, a pawn try after "no", or a move that
        no man of the mover can make."""
        chess, b, rng = self.chess, self.board(), self.rng
        listed = {m.uci() for m in moves}
        pool = [m for m in refused if m.uci() not in listed]
        own = list(chess.SquareSet(b.occupied_co[b.turn]))
        if must_pawns:
            # A legal move that is not a pawn capture.
            pool += [m for m in b.legal_moves if m.uci() not in listed][:8]
        # A pawn diagonal step not offered (no try in force, or "no" heard).
        for sq in b.pieces(chess.PAWN, b.turn):
            for t in b.attacks(sq):
                if b.color_at(t) != b.turn and chess.square_rank(t) not in (0, 7):
                    m = chess.Move(sq, t)
                    if m.uci() not in listed:
                        pool.append(m)
        # Nonsense: an own man moving where it cannot.
        for _ in range(4):
            frm = rng.choice(own)
            to = rng.randrange(64)
            if to == frm:
                continue
            m = chess.Move(frm, to)
            if m.uci() not in listed:
                pool.append(m)
        if self.variant == "crazykrieg":
            # A drop of a man not in the pocket, or onto an own man.
            for pt in (chess.KNIGHT, chess.QUEEN):
                sq = rng.randrange(8, 56)
                m = chess.Move(sq, sq, drop=pt)
                if m.uci() not in listed:
                    pool.append(m)
        if not pool:
            return None
        return pool[rng.randrange(len(pool))]

    def play(self):
        ks, chess, rng = self.ks, self.chess, self.rng
        QA, MA = ks.QuestionAnnouncement, ks.MainAnnouncement
        attempts = []
        plies = 0
        ending = None
        start_fen = self.board().fen()
        while ending is None and plies < self.max_plies:
            refused = []
            turn_attempts = 0
            any_p = {"uniform": 0.3, "capture_first": 0.6, "pawn_push": 0.5}.get(self.policy, 0.4)
            while True:
                moves, ask_any = self.askable()
                b = self.board()
                mover = b.turn
                must = self.game.must_use_pawns
                question = None
                if ask_any and rng.random() < (any_p if turn_attempts == 0 else 0.1):
                    question = ks.KriegspielMove(QA.ASK_ANY)
                elif turn_attempts < 40 and rng.random() < (0.25 if must else 0.05):
                    m = self.impossible(moves, refused, must)
                    if m is not None:
                        question = ks.KriegspielMove(QA.COMMON, m)
                if question is None:
                    if not moves:
                        raise RuntimeError(f"{self.variant} seed {self.seed}: nothing askable")
                    question = ks.KriegspielMove(QA.COMMON, self.pick(moves))
                fen = b.fen()
                heard_before = self.heard_count(not mover)
                answer = self.game.ask_for(question)
                heard = self.heard_count(not mover) > heard_before
                rec = {"ply": plies}
                if answer.move_done:
                    rec["fen"] = fen
                rec["color"] = "w" if mover == chess.WHITE else "b"
                rec["move"] = "any" if question.question_type == QA.ASK_ANY else question.chess_move.uci()
                rec["answer"] = answer.main_announcement.name
                rec["heard"] = heard
                rec["possible"] = len(moves)
                if self.any_rule:
                    rec["any"] = ask_any
                if must:
                    rec["must"] = True
                self.answer_fields(rec, answer)
                attempts.append(rec)
                turn_attempts += 1
                if answer.move_done:
                    special = answer.special_announcement.name
                    if special in ENDINGS:
                        ending = special
                    elif plies % FEN_EVERY:
                        del rec["fen"]  # kept every FEN_EVERY plies and on the last move
                    plies += 1
                    break
                if answer.main_announcement == MA.ILLEGAL_MOVE:
                    refused.append(question.chess_move)
                if turn_attempts > 400:
                    raise RuntimeError(f"{self.variant} seed {self.seed}: turn does not end")
        rec = {
            "id": f"{self.variant}-{self.seed - SEED_BASE[self.variant]}",
            "variant": self.variant,
            "seed": self.seed,
            "policy": self.policy,
        }
        if ending is None:
            rec["result"], rec["termination"] = "*", "ply_limit"
        else:
            rec["termination"], rec["result"] = ENDINGS[ending]
        rec["start_fen"] = start_fen
        rec["attempts"] = attempts
        return rec

    def answer_fields(self, rec, answer):
        chess = self.chess
        if answer.capture_at_square is not None:
            kind = answer.captured_piece_announcement
            rec["capture"] = {"square": chess.SQUARE_NAMES[answer.capture_at_square],
                              "kind": None if kind is None else kind.name.lower()}
        if answer.en_passant_announced:
            rec["en_passant"] = True
        if answer.promotion_announced:
            rec["promotion"] = True
        if answer.dropped_piece_announcement is not None:
            rec["drop"] = answer.dropped_piece_announcement.name.lower()
        special = answer.special_announcement.name
        if special in CHECKS:
            rec["checks"] = [CHECKS[special]]
        elif special == "CHECK_DOUBLE":
            rec["checks"] = [CHECKS[answer.check_1.name], CHECKS[answer.check_2.name]]
        elif special in ENDINGS:
            rec["game_over"] = ENDINGS[special][0]
        if answer.next_turn_pawn_tries is not None:
            rec["pawn_tries"] = answer.next_turn_pawn_tries
        if answer.next_turn_has_pawn_capture is not None:
            rec["has_pawn_capture"] = answer.next_turn_has_pawn_capture
        if answer.next_turn_pawn_try_squares is not None:
            rec["pawn_try_squares"] = [chess.SQUARE_NAMES[s] for s in answer.next_turn_pawn_try_squares]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ks-game", required=True, help="directory holding ks-game's kriegspiel package")
    ap.add_argument("--python-chess", required=True, help="directory holding python-chess's chess package")
    ap.add_argument("--variant", required=True, choices=VARIANTS)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-plies", type=int, default=200, help="legal moves before a game is cut off")
    ap.add_argument("--out", required=True, help="output file; gzip when it ends in .gz")
    args = ap.parse_args()
    sys.path[:0] = [args.ks_game, args.python_chess]
    import chess  # noqa: E402  (from the path above)
    import kriegspiel as ks  # noqa: E402

    raw = open(args.out, "wb")
    out = raw
    if args.out.endswith(".gz"):
        # No name and no time in gzip's header: the same games give the same bytes.
        out = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
    f = io.TextIOWrapper(out, encoding="utf-8")
    for n in range(args.games):
        seed = SEED_BASE[args.variant] + n
        d = Driver(ks, chess, args.variant, seed, POLICIES[n % len(POLICIES)], args.max_plies)
        f.write(json.dumps(d.play(), separators=(",", ":")) + "\n")
    f.close()
    raw.close()

if __name__ == "__main__":
    main()
