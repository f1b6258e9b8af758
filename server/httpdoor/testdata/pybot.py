#!/usr/bin/env python3
"""A kriegspiel.org bot shaped like the site's public bots (API.md section 10),
standard library only, for testing `kriegbot serve -http`.

    KS_BASE=http://127.0.0.1:8000 python3 pybot.py NAME create|join

Registers NAME, then creates a lobby game (create) or joins another bot's
(join), and plays random moves from allowed_moves, never resending a refused
one, until the game ends. Prints one JSON line: the result and its attempts.
KS_PREFIX (e.g. /api) is put before every path; KS_POLL is the poll interval.
"""
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ["KS_BASE"] + os.environ.get("KS_PREFIX", "")
POLL = float(os.environ.get("KS_POLL", "0.05"))


def call(method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    req.add_header("X-Bot-Registration-Key", "ignored")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as err:
        raw = err.read()
        return err.code, (json.loads(raw) if raw else None)


def main():
    name, mode = sys.argv[1], sys.argv[2]
    status, reg = call("POST", "/auth/bots/register", {
        "username": name, "display_name": name + " bot", "owner_email": "py@example.org",
        "supported_rule_variants": ["wild16"]})
    if status != 201:
        print("register: %d %s" % (status, reg), file=sys.stderr)
        return 1
    token = reg["api_token"]
    rng = random.Random(name)
    game_id, attempts = None, 0
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            if game_id is None:
                _, mine = call("GET", "/game/mine/active", token=token)
                active = [g for g in mine["games"] if g["state"] == "active"]
                if active:
                    game_id = active[0]["game_id"]
                elif mode == "create" and not mine["games"]:
                    call("POST", "/game/create", {"rule_variant": "wild16", "play_as": "random",
                                                  "time_control": "rapid", "opponent_type": "human"}, token)
                elif mode == "join":
                    _, lobby = call("GET", "/game/open", token=token)
                    for row in lobby["games"]:
                        if row["created_by"] == name or row["rule_variant"] != "wild16":
                            continue
                        _, user = call("GET", "/user/" + row["created_by"])
                        if not user.get("is_bot"):
                            continue
                        status, joined = call("POST", "/game/join/" + row["game_code"], token=token)
                        if status == 200:
                            game_id = joined["game_id"]
                            break
            if game_id is not None:
                _, state = call("GET", "/game/%s/state" % game_id, token=token)
                if state["state"] == "completed":
                    print(json.dumps({"result": state["result"], "attempts": attempts, "color": state["your_color"]}))
                    return 0
                if (state["state"] == "active" and state["turn"] == state["your_color"]
                        and "move" in state["possible_actions"]):
                    candidates = list(state["allowed_moves"])
                    rng.shuffle(candidates)
                    for uci in candidates:  # never resend a refused move
                        status, res = call("POST", "/game/%s/move" % game_id, {"uci": uci}, token)
                        attempts += 1
                        if status != 200 or res["move_done"] or res["game_over"]:
                            break
                    continue
        except (urllib.error.URLError, OSError, ValueError, KeyError) as err:
            print("error: %s" % err, file=sys.stderr)
        time.sleep(POLL)
    print("timeout", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
