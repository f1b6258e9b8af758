#!/usr/bin/env python3
"""Count the rule features in variant fixture files (from the files alone).

Usage: python3 tools/ksgen/coverage.py FILE.jsonl.gz...
"""

import collections
import gzip
import json
import sys


def count(path):
    c = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            c["games"] += 1
            c["termination " + g["termination"] + " " + g["result"]] += 1
            prev_must = False
            for a in g["attempts"]:
                c["attempts"] += 1
                c["answer " + a["answer"]] += 1
                if a["answer"] in ("ILLEGAL_MOVE", "NONSENSE", "IMPOSSIBLE_TO_ASK") and a["heard"]:
                    c["refusals heard by the opponent " + a["answer"]] += 1
                if a.get("must") and a["answer"] == "ILLEGAL_MOVE":
                    c["failed pawn tries under the obligation"] += 1
                if a.get("must") and a["answer"] == "IMPOSSIBLE_TO_ASK":
                    c["other attempts under the obligation"] += 1
                if prev_must and not a.get("must") and a["answer"] not in ("REGULAR_MOVE", "CAPTURE_DONE"):
                    c["obligation released"] += 1
                if a["answer"] in ("REGULAR_MOVE", "CAPTURE_DONE"):
                    prev_must = False
                else:
                    prev_must = bool(a.get("must"))
                cap = a.get("capture")
                if cap:
                    c["capture kind " + str(cap["kind"])] += 1
                    if cap["square"] != a["move"][2:4]:
                        c["en passant on the captured pawn's square"] += 1
                if a.get("en_passant"):
                    c["en passant announced"] += 1
                if a.get("promotion"):
                    c["promotion announced"] += 1
                mv = a["move"]
                if len(mv) == 5 and a["answer"] in ("REGULAR_MOVE", "CAPTURE_DONE"):
                    c["promotions played"] += 1
                if "@" in mv:
                    c["drop attempts"] += 1
                if a.get("drop"):
                    c["drops played " + a["drop"]] += 1
                if a.get("checks"):
                    c["checks %d" % len(a["checks"])] += 1
                if "pawn_tries" in a:
                    c["pawn_tries announced"] += 1
                if "has_pawn_capture" in a:
                    c["has_pawn_capture %s" % a["has_pawn_capture"]] += 1
                if "pawn_try_squares" in a:
                    c["pawn_try_squares %s" % ("empty" if not a["pawn_try_squares"] else "some")] += 1
    return c


def main():
    for path in sys.argv[1:]:
        print(path)
        for k, v in sorted(count(path).items()):
            print(f"  {k}: {v}")


if __name__ == "__main__":
    main()
