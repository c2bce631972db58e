"""Mission: Red Planet — the pure rules engine: set-up, the decisions due, applying a move,
the round's flow, persistence. Split by what it does: ``common`` (constants and helpers),
``steps`` (the countdown's step kinds), ``scoring`` (production and final scoring); the
names other code imports from here are re-exported (``__all__``).

The state is a plain JSON-compatible dict (see the package docstring for its rulings).
Colours are indexed like seats; in the two-player game the neutral colour is index 2,
which is never a seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option
from rules.kit import check, clone, copy_by_shape, load_or_refuse, maps, rng, rows

from .common import (
    COMMITTABLE,
    PHASE_KEYS,
    PREFIX,
    STEPS,
    S,
    _arrive,
    _discard_ship,
    _dock_opt,
    _ev,
    _launch,
    _opt,
    _room,
    _ship,
    _who,
    dest_of,
)
from .data import (
    ACTIONS,
    ASTRONAUTS,
    CHAR_NUMS,
    CHARACTERS,
    COURSE_CORRECTION,
    DEST_TOKENS,
    DISCOVERIES,
    EMERGENCY_LAUNCH,
    EXPLORER,
    FEMME_FATALE,
    GAME_ID,
    MIN_DOCKS,
    MISSIONS,
    OUTER,
    PHOBOS,
    PILOT,
    PRODUCTION,
    RECRUITER,
    REINFORCEMENTS,
    RES_COUNT,
    RES_TYPES,
    ROUNDS,
    SABOTEUR,
    SCIENTIST,
    SECRET_AGENT,
    SHIP_IDS,
    SHIPS,
    SOLDIER,
    TRAVEL_AGENT,
    ZONE_NAMES,
    ZONES,
)
from .scoring import (
    _final_scoring,
    _production,
    _reveal_discoveries,
    breakdown_of,
    distribute,
    mission_done,
    public_scores,
    result_of,
)
from .steps import _do, _neutral_pick, _options

#: The engine's interface, with the names other modules and tests import from here
#: (re-exported from the modules the engine is split into).
__all__ = [
    "COMMITTABLE",
    "MISSIONS",
    "OUTER",
    "PHASE_KEYS",
    "SCHEMA",
    "ZONE_NAMES",
    "_dock_opt",
    "_neutral_pick",
    "_production",
    "_reveal_discoveries",
    "apply_move",
    "astronaut_totals",
    "breakdown_of",
    "chose_done",
    "dest_of",
    "distribute",
    "dump_state",
    "load_state",
    "mission_done",
    "new_state",
    "pending_of",
    "public_scores",
    "result_of",
]

SCHEMA = 1


# --------------------------------------------------------------------------- set-up


def new_state(players: int, options: Mapping[str, str], seed: int) -> S:
    if not 2 <= players <= 6:
        raise ValueError("Mission: Red Planet takes 2 to 6 players")
    neutral = players if players == 2 else None
    nc = players + (1 if neutral is not None else 0)
    docks = max(MIN_DOCKS, nc)
    s: S = {
        "schema": SCHEMA,
        "seed": int(seed),
        "rc": 0,
        "n": players,
        "nc": nc,
        "neutral": neutral,
        "round": 1,
        "step": "missions",
        "first": 0,
        "docks": [None] * docks,
        "launched": [],
        "deck": [],
        "discard": [],
        "astros": {z: [0] * nc for z in ZONES},
        "res": {},
        "spare": "",
        "pile": {z: {r: 0 for r in RES_TYPES} for z in ZONES},
        "tokens": [{r: 0 for r in RES_TYPES} for _ in range(nc)],
        "supply": [ASTRONAUTS] * nc,
        "memorial": [0] * nc,
        "dtok": {z: DEST_TOKENS for z in ZONES},
        "hand": [list(CHAR_NUMS) for _ in range(nc)],
        "played": [[] for _ in range(nc)],
        "chosen": [None] * nc,
        "dealt": [[] for _ in range(players)],
        "missions": [[] for _ in range(players)],
        "actions": [[] for _ in range(players)],
        "ask": [[] for _ in range(players)],
        "commit": [[] for _ in range(players)],
        "nevents": [],
        "edeck": [],
        "ediscard": [],
        "disc": {},
        "order": [],
        "done": [],
        "task": None,
        "last": None,
        "course": False,
        "prod": 0,
    }
    r = rng(s, GAME_ID)
    # Ships: every dock gets a ship with a known destination (R19).
    deck = list(SHIP_IDS)
    r.shuffle(deck)
    for i in range(docks):
        while SHIPS[deck[0]]["dest"] is None:
            unknown = deck.pop(0)
            deck.insert(r.randrange(1, len(deck) + 1), unknown)
        s["docks"][i] = _ship(deck.pop(0))
    s["deck"] = deck
    if not any(d["dest"] == PHOBOS for d in s["docks"]):
        s["docks"][-1]["tok"] = PHOBOS
        s["dtok"][PHOBOS] -= 1
    # One astronaut per colour, at random, one per docked ship (docks == colours).
    colours = list(range(nc))
    r.shuffle(colours)
    for i, c in enumerate(colours):
        s["docks"][i]["crew"].append(c)
        s["supply"][c] -= 1
    s["first"] = next(c for c in colours if c != neutral)
    # Resources: ten face down on the zones, the eleventh aside.
    tokens = [t for t in RES_TYPES for _ in range(RES_COUNT[t])]
    r.shuffle(tokens)
    s["res"] = {z: [tokens[i], False] for i, z in enumerate(ZONES)}
    s["spare"] = tokens[len(ZONES)]
    # Missions: two dealt to each player, one kept (the other returns to the pile).
    mdeck = list(MISSIONS)
    r.shuffle(mdeck)
    for seat in range(players):
        s["dealt"][seat] = [mdeck.pop(), mdeck.pop()]
    s["edeck"] = mdeck  # completed with the returned missions and the other cards later
    if neutral is not None:
        nh = list(CHAR_NUMS)
        r.shuffle(nh)
        s["hand"][neutral] = nh
    return s


# --------------------------------------------------------------------------- decisions


def pending_of(s: S) -> list[Decision]:
    step = s["step"]
    if step == "missions":
        return [
            Decision(
                seat,
                PREFIX + "prompt.mission",
                tuple(_opt(f"keep.{m}", f"mission.{m}") for m in s["dealt"][seat]),
                private=True,
                key=f"mission.{seat}",
            )
            for seat in range(s["n"])
            if s["dealt"][seat]
        ]
    if step == "choose":
        out: list[Decision] = []
        for seat in range(s["n"]):
            if s["chosen"][seat] is None:
                out.append(
                    Decision(
                        seat,
                        PREFIX + "prompt.choose",
                        _character_options(tuple(sorted(s["hand"][seat], reverse=True))),
                        args={"round": s["round"]},
                        private=True,
                        key=f"choose.{s['round']}",
                    )
                )
            elif s["ask"][seat]:
                # R22: whether to play a held action card this round is asked inside the
                # secret choice, so the public sees only "still choosing" (see _is_done).
                card = s["ask"][seat][0]
                out.append(
                    Decision(
                        seat,
                        PREFIX + "prompt.commit." + card,
                        (
                            _opt("play", "opt.play", "primary"),
                            _opt("keep", "opt.keep", "success"),
                        ),
                        args={"round": s["round"]},
                        private=True,
                        key=f"commit.{s['round']}.{card}",
                    )
                )
        return out
    if step == "resolve":
        task = s["task"]
        if task is None or not task["steps"]:
            return []
        c = task["c"]
        got = _options(s, c, task["steps"][0])
        if got is None:
            return []
        prompt, args, opts, private = got
        return [Decision(c, PREFIX + "prompt." + prompt, tuple(opts), args, private)]
    return []


@cache
def _character_options(hand: tuple[int, ...]) -> tuple[Option, ...]:
    """The options of a secret choice of character from ``hand`` (highest first)."""
    return tuple(_opt(f"c{num}", f"char.{num}", "primary") for num in hand)


# --------------------------------------------------------------------------- apply


def _ships(v: list[dict[str, Any] | None]) -> list[dict[str, Any] | None]:
    return [None if sh is None else {**sh, "crew": sh["crew"][:]} for sh in v]


def _lists_by_zone(v: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {z: x[:] for z, x in v.items()}


def _maps_by_zone(v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {z: x.copy() for z, x in v.items()}


def _task(t: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if t is None else {**t, "steps": rows(t["steps"])}


def _discoveries(v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {z: {**d, "known": d["known"][:]} for z, d in v.items()}


#: How ``apply`` copies each key of a state (its known shape; see
#: ``rules.kit.copy_by_shape``): much cheaper than a generic deep copy.
_COPY: dict[str, Any] = {
    "docks": _ships,
    "launched": _ships,
    "astros": _lists_by_zone,
    "res": _lists_by_zone,
    "pile": _maps_by_zone,
    "tokens": maps,
    "dtok": dict.copy,
    "task": _task,
    "disc": _discoveries,
    **dict.fromkeys(
        ("hand", "played", "dealt", "missions", "actions", "ask", "commit", "order", "done"),
        rows,
    ),
    **dict.fromkeys(
        ("deck", "discard", "supply", "memorial", "chosen", "nevents", "edeck", "ediscard"),
        list.copy,
    ),
}


def apply_move(state: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    step = state["step"]
    if step == "over":
        raise IllegalMove("red_planet.error.over")
    decisions = [d for d in pending_of(state) if d.seat == seat]
    if not decisions:
        raise IllegalMove("red_planet.error.not_your_turn")
    if decisions[0].option(choice) is None:
        raise IllegalMove("red_planet.error.not_offered", choice=choice)
    s = copy_by_shape(state, _COPY)
    ev: list[Event] = []
    if step == "missions":
        mid = choice.split(".", 1)[1]
        other = next(m for m in s["dealt"][seat] if m != mid)
        s["missions"][seat].append(mid)
        s["edeck"].append(other)
        s["dealt"][seat] = []
        ev.append(_ev("mission_kept", seat))
        if not any(s["dealt"]):
            r = rng(s, GAME_ID)
            deck = [*s["edeck"], *DISCOVERIES, *ACTIONS]
            r.shuffle(deck)
            s["edeck"] = deck
            _start_choose(s, ev)
        return s, ev
    if step == "choose":
        if s["chosen"][seat] is None:
            s["chosen"][seat] = int(choice[1:])
            s["ask"][seat] = [a for a in COMMITTABLE if a in s["actions"][seat]]
        else:
            card = s["ask"][seat].pop(0)
            if choice == "play":
                s["commit"][seat].append(card)
                ev.append(_ev(f"commit.{card}", seat, private_to=seat))
        if not s["ask"][seat]:
            # Only now does the table learn that this seat has chosen (R5, R22).
            ev.append(_ev("chose", seat))
            if all(chose_done(s, c) for c in range(s["nc"])):
                _start_resolve(s, ev)
        return s, ev
    # resolve
    task = s["task"]
    head = task["steps"].pop(0)
    _do(s, seat, head, choice, ev)
    _run(s, ev)
    return s, ev


def chose_done(s: S, c: int) -> bool:
    """Whether colour ``c`` has finished its secret choice: a character, and an answer for
    each action card it holds (R22). The public view shows only this."""
    if s["chosen"][c] is None:
        return False
    return c >= s["n"] or not s["ask"][c]


def _start_choose(s: S, ev: list[Event]) -> None:
    s["step"] = "choose"
    s["chosen"] = [None] * s["nc"]
    s["ask"] = [[] for _ in range(s["n"])]
    s["commit"] = [[] for _ in range(s["n"])]
    s["done"] = []
    nt = s["neutral"]
    if nt is not None:
        s["chosen"][nt] = s["hand"][nt].pop(0)
    ev.append(_ev("round", round=s["round"], first_seat=s["first"]))


def _start_resolve(s: S, ev: list[Event]) -> None:
    s["step"] = "resolve"
    nc = s["nc"]
    nt = s["neutral"]
    clockwise = [(s["first"] + k) % nc for k in range(nc)]
    humans = [c for c in clockwise if c != nt]
    if nt is not None:
        humans.append(nt)  # the neutral resolves after the humans on a shared number
    order = []
    for num in CHAR_NUMS:
        order += [[c, num] for c in humans if s["chosen"][c] == num]
    s["order"] = order
    s["course"] = False
    s["task"] = None
    _run(s, ev)


def _steps_for(s: S, c: int, num: int) -> list[list[Any]]:
    place = CHARACTERS[num]["place"]
    pre: list[list[Any]] = [["card", REINFORCEMENTS]]
    if num == TRAVEL_AGENT:
        body: list[list[Any]] = [["place3"]]
    elif num == SECRET_AGENT:
        body = [["place", 0], ["place", 1], ["launch"]]
    else:
        body = [["place", 0] for _ in range(place)]
        if num == RECRUITER:
            body.append(["recruit"])
        elif num == EXPLORER:
            body.append(["move", CHARACTERS[num]["moves"]])
        elif num == SCIENTIST:
            body.append(["sci"])
        elif num == SABOTEUR:
            body.append(["destroy"])
        elif num == FEMME_FATALE:
            body.append(["ff"])
        elif num == SOLDIER:
            body += [["kill"], ["drop", CHARACTERS[num]["drops"]]]
        elif num == PILOT:
            body.append(["pilot"])
    return [*pre, *body, ["full"], ["card", EMERGENCY_LAUNCH]]


def _run(s: S, ev: list[Event]) -> None:
    """Advance through automatic steps until a seat must decide or the game ends."""
    while s["step"] == "resolve":
        task = s["task"]
        if task is None:
            if s["order"]:
                c, num = s["order"].pop(0)
                steps: list[list[Any]]
                if num == 0:
                    steps = [["card", COURSE_CORRECTION]]
                else:
                    if c != s["neutral"]:
                        s["hand"][c].remove(num)
                    s["played"][c].append(num)
                    s["done"].append([c, num])
                    if c != s["neutral"]:
                        s["last"] = c
                    ev.append(_who(f"reveal.{num}", c, s, reveals=True))
                    steps = _steps_for(s, c, num)
                s["task"] = {"c": c, "num": num, "steps": steps, "last": -1}
                continue
            if not s["course"]:
                s["course"] = True
                nc = s["nc"]
                holders = [
                    (s["first"] + k) % nc
                    for k in range(nc)
                    if (s["first"] + k) % nc < s["n"]
                    and COURSE_CORRECTION in s["commit"][(s["first"] + k) % nc]
                ]
                s["order"] = [[c, 0] for c in holders]
                continue
            _end_round(s, ev)
            return
        if not task["steps"]:
            s["task"] = None
            continue
        c = task["c"]
        head = task["steps"][0]
        if head[0] == "recruit":
            task["steps"].pop(0)
            if c == s["neutral"]:
                r = rng(s, GAME_ID)
                deck = list(CHAR_NUMS)
                r.shuffle(deck)
                s["hand"][c] = deck
            else:
                s["hand"][c] = sorted([*s["hand"][c], *s["played"][c]], reverse=True)
            s["played"][c] = []
            ev.append(_who("recruit", c, s))
            continue
        if head[0] == "card":
            task["steps"].pop(0)
            if c < s["n"] and head[1] in s["commit"][c]:
                _play_card(s, c, head[1], ev)
            continue
        if head[0] == "full":
            task["steps"].pop(0)
            for i, sh in enumerate(s["docks"]):
                if sh is not None and _room(sh) <= 0:
                    _launch(s, i, ev)
            continue
        got = _options(s, c, head)
        if got is None:
            task["steps"].pop(0)
            if head[0] == "place3":
                ev.append(_who("travel_skipped", c, s))
            continue
        if c == s["neutral"]:
            task["steps"].pop(0)
            _do(s, c, head, _neutral_pick(s, c, head, got[2]), ev)
            continue
        return


def _play_card(s: S, c: int, card: str, ev: list[Event]) -> None:
    """A committed action card at its moment: revealed and discarded face up, then its
    effect (R22). With nothing it could do, it is spent all the same."""
    s["commit"][c].remove(card)
    s["actions"][c].remove(card)
    s["ediscard"].append(card)
    ev.append(_ev(f"action.{card}", c, reveals=True))
    task = s["task"]
    if card == REINFORCEMENTS:
        steps = [["place", 0] for _ in range(ACTIONS[REINFORCEMENTS]["place"])]
    else:
        steps = [["act2" if card == EMERGENCY_LAUNCH else "act3"]]
    if _options(s, c, steps[0]) is None:
        ev.append(_ev(f"void.{card}", c))
        return
    task["steps"][0:0] = steps


# --------------------------------------------------------------------------- end of round


def _end_round(s: S, ev: list[Event]) -> None:
    s["task"] = None
    # Landing, in launch order.
    for sh in s["launched"]:
        dest = dest_of(sh)
        counts = [sh["crew"].count(c) for c in range(s["nc"])]
        if dest is None:
            # Only an empty "?" ship can lack a destination (R3).
            ev.append(_ev("land_empty"))
        else:
            ev.append(_ev("land", zone=ZONE_NAMES[dest], crew=len(sh["crew"])))
            for c, k in enumerate(counts):
                if k:
                    _arrive(s, dest, c, k, ev)
        _discard_ship(s, sh)
    s["launched"] = []
    # Refill the docks.
    for i, sh in enumerate(s["docks"]):
        if sh is None:
            if not s["deck"]:
                r = rng(s, GAME_ID)
                deck = list(s["discard"])
                r.shuffle(deck)
                s["deck"], s["discard"] = deck, []
                ev.append(_ev("reshuffle"))
            s["docks"][i] = _ship(s["deck"].pop(0))
    if s["last"] is not None:
        s["first"] = s["last"]
    rnd = s["round"]
    if rnd in PRODUCTION and rnd < ROUNDS:
        _production(s, PRODUCTION[rnd], ev)
    if rnd >= ROUNDS:
        _reveal_discoveries(s, ev)
        _production(s, PRODUCTION.get(rnd, 3), ev, final=True)
        s["step"] = "over"
        s["task"] = None
        res = result_of(s)
        assert res is not None
        _final_scoring(s, res, ev)
        ev.append(_ev("game_over", scores=list(res.scores), winners=list(res.winners)))
        return
    s["round"] = rnd + 1
    _start_choose(s, ev)


# --------------------------------------------------------------------------- persistence


def dump_state(s: S) -> S:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> S:
    return load_or_refuse(data, "red_planet", _validate, _upgrade)


def _upgrade(s: S) -> None:
    if "ask" not in s:
        # Saved before R22 committed action cards in the secret choice: nothing is
        # committed, and the old private offers still queued become no-ops.
        s["ask"] = [[] for _ in range(s["n"])]
        s["commit"] = [[] for _ in range(s["n"])]
        old = {"act2": EMERGENCY_LAUNCH, "act3": COURSE_CORRECTION, "act4": REINFORCEMENTS}
        if s["task"] is not None:
            s["task"]["steps"] = [
                ["card", old[st[0]]] if st[0] in old else st for st in s["task"]["steps"]
            ]


def _validate(s: S) -> None:
    check(s.get("schema") == SCHEMA, "schema")
    n, nc = s["n"], s["nc"]
    check(isinstance(n, int) and 2 <= n <= 6, "players")
    check(nc == n + (1 if n == 2 else 0), "colours")
    check(s["step"] in STEPS, "step")
    check(1 <= s["round"] <= ROUNDS, "round")
    check(0 <= s["first"] < n, "first player")
    check(len(s["docks"]) == max(MIN_DOCKS, nc), "docks")
    check(set(s["astros"]) == set(ZONES) and set(s["res"]) == set(ZONES), "zones")
    for c in range(nc):
        check(sum(s["tokens"][c].values()) >= 0, "tokens")
        check(all(v >= 0 for v in s["tokens"][c].values()), "tokens")
    check(astronaut_totals(s) == [ASTRONAUTS] * nc, "22 astronauts per colour")
    check(all(0 <= s["dtok"][z] <= DEST_TOKENS for z in ZONES), "destination tokens")
    ships = [sh["id"] for sh in s["docks"] if sh] + [sh["id"] for sh in s["launched"]]
    ships += s["deck"] + s["discard"]
    check(sorted(ships) == sorted(SHIP_IDS), "ships")
    for seat in range(n):
        check(all(m in MISSIONS for m in s["missions"][seat]), "missions")
        held = s["actions"][seat]
        check(all(a in held for a in s["ask"][seat] + s["commit"][seat]), "action cards")
    for c in range(nc):
        check(all(x in CHARACTERS for x in s["hand"][c] + s["played"][c]), "characters")


def astronaut_totals(s: Mapping[str, Any]) -> list[int]:
    """Astronauts of each colour in supply, on ships, on Mars and in the Memorial."""
    nc = s["nc"]
    astros = s["astros"]
    tot = [
        sum(col)
        for col in zip(
            s["supply"][:nc], s["memorial"][:nc], *(astros[z][:nc] for z in ZONES), strict=True
        )
    ]
    for sh in [*s["docks"], *s["launched"]]:
        if sh is not None:
            for c in sh["crew"]:
                tot[c] += 1
    return tot
