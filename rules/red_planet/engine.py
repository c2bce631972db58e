"""Mission: Red Planet — the pure rules engine (state, decisions, effects, scoring).

The state is a plain JSON-compatible dict (see the package docstring for its rulings).
Colours are indexed like seats; in the two-player game the neutral colour is index 2,
which is never a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from core.contract import Decision, Event, IllegalMove, Option, Result
from rules.kit import Events, Options, check, clone, ranks_of, rng

from .data import (
    ACTIONS,
    ADJ,
    ASTRONAUTS,
    BLOCKS_OF_ICE,
    CHAR_NUMS,
    CHARACTERS,
    COURSE_CORRECTION,
    DEST_TOKENS,
    DISCOVERIES,
    EMERGENCY_LAUNCH,
    EXPLORER,
    FEMME_FATALE,
    GAME_ID,
    GROUPS,
    ICE_MONOPOLY,
    MARS,
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
    RES_VALUE,
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
    event_kind,
)

SCHEMA = 1
#: The action cards a holder decides on during the secret choice, in the order of their
#: moments (Blocks of Ice plays itself at the next production).
COMMITTABLE = (REINFORCEMENTS, EMERGENCY_LAUNCH, COURSE_CORRECTION)
STEPS = ("missions", "choose", "resolve", "over")
PHASE_KEYS = {
    "missions": "red_planet.phase.missions",
    "choose": "red_planet.phase.choose",
    "resolve": "red_planet.phase.resolve",
    "over": "red_planet.phase.over",
}
PREFIX = "red_planet."

_ev = Events(GAME_ID)
_opt = Options(GAME_ID)

S = dict[str, Any]


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


def _ship(ship_id: str) -> dict[str, Any]:
    data = SHIPS[ship_id]
    return {"id": ship_id, "cap": data["cap"], "dest": data["dest"], "tok": None, "crew": []}


def dest_of(ship: Mapping[str, Any]) -> str | None:
    tok: str | None = ship["tok"]
    return tok if tok is not None else ship["dest"]


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
                        tuple(
                            _opt(f"c{num}", f"char.{num}", "primary")
                            for num in sorted(s["hand"][seat], reverse=True)
                        ),
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


def _dock_opt(s: S, i: int, label: str = "opt.dock") -> Option:
    ship = s["docks"][i]
    dest = dest_of(ship)
    return _opt(
        f"d{i}",
        label,
        dock=i + 1,
        zone=ZONE_NAMES[dest] if dest else "?",
        crew=len(ship["crew"]),
        cap=ship["cap"],
    )


def _room(ship: Mapping[str, Any]) -> int:
    return int(ship["cap"]) - len(ship["crew"])


def _places(s: S) -> list[tuple[str, list[int]]]:
    """Every place astronauts can be targeted (docked ships, launched ships, zones), as
    (reference, per-colour counts)."""
    out: list[tuple[str, list[int]]] = []
    nc = s["nc"]
    for ref, sh in _ships(s):
        counts = [0] * nc
        for col in sh["crew"]:
            counts[col] += 1
        out.append((ref, counts))
    out += [(z, s["astros"][z]) for z in ZONES]
    return out


def _ships(s: S) -> list[tuple[str, dict[str, Any]]]:
    out = [(f"d{i}", sh) for i, sh in enumerate(s["docks"]) if sh is not None]
    out += [(f"l{j}", sh) for j, sh in enumerate(s["launched"])]
    return out


def _ship_ref(s: S, ref: str) -> dict[str, Any]:
    idx = int(ref[1:])
    sh: dict[str, Any] = s["docks"][idx] if ref[0] == "d" else s["launched"][idx]
    return sh


def _ship_label(s: S, ref: str) -> str:
    """A short public name for a ship: 🚀2 is the ship in dock 2, 🛸1 the first launched."""
    return ("🚀" if ref[0] == "d" else "🛸") + str(int(ref[1:]) + 1)


def _pilot_zones(s: S, sh: Mapping[str, Any]) -> list[str]:
    cur = dest_of(sh)
    return [z for z in ZONES if s["dtok"][z] > 0 and z != cur]


def _target_label(s: S, o: int) -> str:
    return "opt.target_n" if o == s["neutral"] else "opt.target"


def _target_args(s: S, where: str, o: int) -> dict[str, Any]:
    place: str | dict[str, str]
    if where in ZONE_NAMES:
        place = ZONE_NAMES[where]
    else:
        place = _ship_label(s, where)
    if o == s["neutral"]:
        return {"place": place}
    return {"place": place, "victim_seat": o}


# --------------------------------------------------------------------------- apply


def apply_move(state: S, seat: int, choice: str) -> tuple[S, list[Event]]:
    step = state["step"]
    if step == "over":
        raise IllegalMove("red_planet.error.over")
    decisions = [d for d in pending_of(state) if d.seat == seat]
    if not decisions:
        raise IllegalMove("red_planet.error.not_your_turn")
    if decisions[0].option(choice) is None:
        raise IllegalMove("red_planet.error.not_offered", choice=choice)
    s = clone(state)
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


def _who(code: str, c: int, s: S, reveals: bool = False, **args: Any) -> Event:
    """An event whose actor is colour ``c`` (the neutral has its own wording)."""
    if c == s["neutral"]:
        return _ev("n_" + code, reveals=reveals, **args)
    return _ev(code, c, reveals=reveals, **args)


def _launch(s: S, i: int, ev: list[Event]) -> None:
    sh = s["docks"][i]
    s["docks"][i] = None
    s["launched"].append(sh)
    dest = dest_of(sh)
    ev.append(
        _ev("launch", dock=i + 1, zone=ZONE_NAMES[dest] if dest else "?", crew=len(sh["crew"]))
    )


def _arrive(s: S, z: str, c: int, k: int, ev: list[Event]) -> None:
    s["astros"][z][c] += k
    if k > 0 and not s["res"][z][1]:
        s["res"][z][1] = True
        ev.append(_ev(f"resource.{s['res'][z][0]}", zone=ZONE_NAMES[z], reveals=True))


def _place_on(s: S, c: int, i: int, k: int, ev: list[Event]) -> None:
    sh = s["docks"][i]
    was_empty = not sh["crew"]
    sh["crew"] += [c] * k
    s["supply"][c] -= k
    s["task"]["last"] = i
    ev.append(_who("place", c, s, dock=i + 1, count=k))
    if was_empty and dest_of(sh) is None:
        s["task"]["steps"].insert(0, ["dest", i])


# --------------------------------------------------------------------------- step kinds
#
# A character's effect is a list of steps (see _steps_for); a step is ``[kind, *params]``.
# Each kind that asks the resolving colour something has one entry in _STEP_KINDS: ``ask``
# builds the decision (prompt, args, options, private) or returns None to skip the step;
# ``do`` applies the chosen option; ``neutral`` is what the two-player game's neutral colour
# picks (R26). The automatic kinds (recruit, card, full) are handled by _run without asking.

#: What a step asks: (prompt, args, options, private), or None when it is skipped.
Ask = tuple[str, dict[str, Any], list[Option], bool] | None


class StepKind(NamedTuple):
    ask: Callable[[S, int, list[Any]], Ask]
    do: Callable[[S, int, list[Any], str, list[Event]], None]
    #: The neutral colour's pick among the offered ids (R26): by default ``done`` when
    #: offered (it never moves or drops astronauts), else the first.
    neutral: Callable[[S, list[str]], str] = lambda s, ids: "done" if "done" in ids else ids[0]


def _done_opt() -> Option:
    return _opt("done", "opt.done", "success")


def _or_done(prompt: str, args: dict[str, Any], opts: list[Option]) -> Ask:
    """A step that may be left with ``done``; skipped when nothing else is offered."""
    return (prompt, args, [*opts, _done_opt()], False) if opts else None


def _room_opts(s: S) -> list[Option]:
    """The docked ships with room, as options."""
    return [_dock_opt(s, i) for i, sh in enumerate(s["docks"]) if sh is not None and _room(sh) > 0]


def _ship_opts(s: S, launched_only: bool) -> list[Option]:
    """The ships (docked and launched, or launched only) that a Pilot could reroute."""
    return [
        _opt(
            ref,
            "opt.ship",
            ship=_ship_label(s, ref),
            zone=ZONE_NAMES.get(dest_of(sh) or "", "?"),
        )
        for ref, sh in _ships(s)
        if (not launched_only or ref.startswith("l")) and _pilot_zones(s, sh)
    ]


def _ask_place(s: S, c: int, step: list[Any]) -> Ask:
    if s["supply"][c] <= 0:
        return None
    excl = s["task"]["last"] if step[1] else -1
    opts = [
        _dock_opt(s, i)
        for i, sh in enumerate(s["docks"])
        if sh is not None and _room(sh) > 0 and i != excl
    ]
    return ("place", {}, opts, False) if opts else None


def _do_place(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    _place_on(s, c, int(choice[1:]), 1, ev)


def _ask_place3(s: S, c: int, step: list[Any]) -> Ask:
    if s["supply"][c] < 3:
        return None
    opts = [
        _dock_opt(s, i) for i, sh in enumerate(s["docks"]) if sh is not None and _room(sh) >= 3
    ]
    return ("place3", {}, opts, False) if opts else None


def _do_place3(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    _place_on(s, c, int(choice[1:]), 3, ev)


def _ask_dest(s: S, c: int, step: list[Any]) -> Ask:
    opts = [_opt(z, "opt.zone", zone=ZONE_NAMES[z]) for z in ZONES if s["dtok"][z] > 0]
    return ("dest", {"dock": step[1] + 1}, opts, False) if opts else None


def _do_dest(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    sh = s["docks"][step[1]]
    sh["tok"] = choice
    s["dtok"][choice] -= 1
    ev.append(_who("dest", c, s, dock=step[1] + 1, zone=ZONE_NAMES[choice]))


def _ask_move(s: S, c: int, step: list[Any]) -> Ask:
    opts = [
        _opt(f"mv.{a}.{b}", "opt.move", frm=ZONE_NAMES[a], to=ZONE_NAMES[b])
        for a in ZONES
        if s["astros"][a][c] > 0
        for b in ADJ[a]
    ]
    return _or_done("move", {"left": step[1]}, opts)


def _do_move(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    if choice == "done":
        return
    _, a, b = choice.split(".")
    s["astros"][a][c] -= 1
    ev.append(_who("move", c, s, frm=ZONE_NAMES[a], to=ZONE_NAMES[b]))
    _arrive(s, b, c, 1, ev)
    if step[1] > 1:
        s["task"]["steps"].insert(0, ["move", step[1] - 1])


def _ask_sci(s: S, c: int, step: list[Any]) -> Ask:
    """The Scientist's draw or peek (``sci``), or a peek alone (``peek``, R12)."""
    kind = step[0]
    opts = []
    if kind == "sci" and s["edeck"]:
        opts.append(_opt("draw", "opt.draw", "primary"))
    opts += [
        _opt(f"peek.{z}", "opt.peek", zone=ZONE_NAMES[z])
        for z in OUTER
        if z in s["disc"] and not s["disc"][z]["up"]
    ]
    return (kind, {}, opts, False) if opts else None


def _do_sci(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    task = s["task"]
    if choice == "draw":
        card = s["edeck"].pop(0)
        if c == s["neutral"]:
            s["nevents"].append(card)
            ev.append(_who("draw", c, s, reveals=True))
            return
        ekind = event_kind(card)
        ev.append(_ev("draw", c, reveals=True))
        ev.append(_ev(f"drew.{card}", c, private_to=c))
        if ekind == "mission":
            s["missions"][c].append(card)
        elif ekind == "action":
            s["actions"][c].append(card)
        elif any(z not in s["disc"] for z in OUTER):
            task["steps"].insert(0, ["assign", card])
        else:
            s["ediscard"].append(card)
            ev.append(_ev(f"discard_discovery.{card}", c))
            task["steps"].insert(0, ["peek"])
        return
    z = choice.split(".", 1)[1]
    d = s["disc"][z]
    if c < s["n"] and c not in d["known"]:
        d["known"].append(c)
        d["known"].sort()
    ev.append(_who("peek", c, s, zone=ZONE_NAMES[z]))
    if c < s["n"]:
        ev.append(_ev(f"peeked.{d['id']}", c, private_to=c, zone=ZONE_NAMES[z]))


def _ask_assign(s: S, c: int, step: list[Any]) -> Ask:
    opts = [_opt(z, "opt.zone", zone=ZONE_NAMES[z]) for z in OUTER if z not in s["disc"]]
    card = {"card": step[1], "card_key": f"{PREFIX}card.{step[1]}"}
    card["desc_key"] = f"{PREFIX}card.{step[1]}.desc"
    return ("assign", card, opts, True) if opts else None


def _do_assign(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    s["disc"][choice] = {"id": step[1], "known": [c], "up": False}
    ev.append(_ev("assign", c, zone=ZONE_NAMES[choice]))


def _ask_launch(s: S, c: int, step: list[Any]) -> Ask:
    opts = _room_opts(s)
    return ("launch", {}, opts, False) if opts else None


def _do_launch(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    ev.append(_who("force_launch", c, s, dock=int(choice[1:]) + 1))
    _launch(s, int(choice[1:]), ev)


def _ask_destroy(s: S, c: int, step: list[Any]) -> Ask:
    opts = [_dock_opt(s, i) for i, sh in enumerate(s["docks"]) if sh is not None]
    return ("destroy", {}, opts, False) if opts else None


def _do_destroy(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    i = int(choice[1:])
    sh = s["docks"][i]
    for col in sh["crew"]:
        s["memorial"][col] += 1
    _discard_ship(s, sh)
    s["docks"][i] = None
    ev.append(_who("destroy", c, s, dock=i + 1, killed=len(sh["crew"])))


def _ask_ff(s: S, c: int, step: list[Any]) -> Ask:
    if s["supply"][c] <= 0:
        return None
    opts = [
        _opt(f"ff.{where}.{o}", _target_label(s, o), **_target_args(s, where, o))
        for where, crew in _places(s)
        if crew[c] > 0
        for o in range(s["nc"])
        if o != c and crew[o] > 0
    ]
    return ("ff", {}, opts, False) if opts else None


def _do_ff(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    _, where, o_ = choice.split(".")
    o = int(o_)
    if where in s["astros"]:
        s["astros"][where][o] -= 1
        s["astros"][where][c] += 1
    else:
        crew = _ship_ref(s, where)["crew"]
        crew[crew.index(o)] = c
    s["memorial"][o] += 1
    s["supply"][c] -= 1
    ev.append(_victim("replace", c, o, s, _target_args(s, where, o)["place"]))


def _ask_kill(s: S, c: int, step: list[Any]) -> Ask:
    opts = [
        _opt(f"kill.{z}.{o}", _target_label(s, o), **_target_args(s, z, o))
        for z in ZONES
        if s["astros"][z][c] > 0
        for o in range(s["nc"])
        if o != c and s["astros"][z][o] > 0
    ]
    return ("kill", {}, opts, False) if opts else None


def _do_kill(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    _, z, o_ = choice.split(".")
    o = int(o_)
    s["astros"][z][o] -= 1
    s["memorial"][o] += 1
    ev.append(_victim("kill", c, o, s, ZONE_NAMES[z]))


def _ask_drop(s: S, c: int, step: list[Any]) -> Ask:
    if s["astros"][PHOBOS][c] <= 0:
        return None
    opts = [_opt(f"drop.{z}", "opt.zone", zone=ZONE_NAMES[z]) for z in MARS]
    return _or_done("drop", {"left": step[1]}, opts)


def _do_drop(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    if choice == "done":
        return
    z = choice.split(".", 1)[1]
    s["astros"][PHOBOS][c] -= 1
    ev.append(_who("drop", c, s, zone=ZONE_NAMES[z]))
    _arrive(s, z, c, 1, ev)
    if step[1] > 1:
        s["task"]["steps"].insert(0, ["drop", step[1] - 1])


def _ask_pilot(s: S, c: int, step: list[Any]) -> Ask:
    opts = _ship_opts(s, launched_only=False)
    return ("pilot", {}, opts, False) if opts else None


def _do_pilot(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    s["task"]["steps"].insert(0, ["pilot2", choice])


def _ask_pilot2(s: S, c: int, step: list[Any]) -> Ask:
    sh = _ship_ref(s, step[1])
    opts = [_opt(z, "opt.zone", zone=ZONE_NAMES[z]) for z in _pilot_zones(s, sh)]
    return ("pilot2", {"ship": _ship_label(s, step[1])}, opts, False) if opts else None


def _do_pilot2(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    sh = _ship_ref(s, step[1])
    if sh["tok"] is not None:
        s["dtok"][sh["tok"]] += 1
    sh["tok"] = choice
    s["dtok"][choice] -= 1
    ev.append(_who("redirect", c, s, ship=_ship_label(s, step[1]), zone=ZONE_NAMES[choice]))


def _ask_act2(s: S, c: int, step: list[Any]) -> Ask:
    """Emergency Launch: a docked ship with room, or ``done``."""
    return _or_done("act2", {}, _room_opts(s))


def _do_act2(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    if choice == "done":
        ev.append(_ev(f"unused.{EMERGENCY_LAUNCH}", c))
    else:
        _launch(s, int(choice[1:]), ev)


def _ask_act3(s: S, c: int, step: list[Any]) -> Ask:
    """Course Correction: a launched ship to reroute, or ``done``."""
    return _or_done("act3", {}, _ship_opts(s, launched_only=True))


def _do_act3(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    if choice == "done":
        ev.append(_ev(f"unused.{COURSE_CORRECTION}", c))
    else:
        s["task"]["steps"].insert(0, ["pilot2", choice])


def _fullest(s: S, ids: list[str]) -> str:
    """The neutral places on (or launches) the docked ship closest to full, leftmost on a
    tie."""
    return min(ids, key=lambda oid: (_room(s["docks"][int(oid[1:])]), int(oid[1:])))


def _leader_hit(s: S, ids: list[str]) -> str:
    """The neutral's victim: an astronaut of the leading player where it can (R26)."""
    lead = _leader(s)
    hits = [oid for oid in ids if oid.endswith(f".{lead}")]
    return (hits or ids)[0]


def _leader_ship(s: S, ids: list[str]) -> str:
    """The neutral destroys the docked ship with the most of the leader's astronauts
    (leftmost on a tie)."""
    lead = _leader(s)
    return max(ids, key=lambda oid: (s["docks"][int(oid[1:])]["crew"].count(lead), -int(oid[1:])))


def _draw_first(s: S, ids: list[str]) -> str:
    return "draw" if "draw" in ids else ids[0]


_STEP_KINDS: dict[str, StepKind] = {
    "place": StepKind(_ask_place, _do_place, _fullest),
    "place3": StepKind(_ask_place3, _do_place3, _fullest),
    "dest": StepKind(_ask_dest, _do_dest),
    "move": StepKind(_ask_move, _do_move),
    "sci": StepKind(_ask_sci, _do_sci, _draw_first),
    "peek": StepKind(_ask_sci, _do_sci, _draw_first),
    "assign": StepKind(_ask_assign, _do_assign),
    "launch": StepKind(_ask_launch, _do_launch, _fullest),
    "destroy": StepKind(_ask_destroy, _do_destroy, _leader_ship),
    "ff": StepKind(_ask_ff, _do_ff, _leader_hit),
    "kill": StepKind(_ask_kill, _do_kill, _leader_hit),
    "drop": StepKind(_ask_drop, _do_drop),
    "pilot": StepKind(_ask_pilot, _do_pilot),
    "pilot2": StepKind(_ask_pilot2, _do_pilot2),
    "act2": StepKind(_ask_act2, _do_act2),
    "act3": StepKind(_ask_act3, _do_act3),
}


def _options(s: S, c: int, step: list[Any]) -> Ask:
    """The decision a step asks for: (prompt, args, options, private), or None to skip."""
    if step[0].startswith("act") and c >= s["n"]:
        return None  # the neutral holds no action cards
    return _STEP_KINDS[step[0]].ask(s, c, step)


def _neutral_pick(s: S, c: int, step: list[Any], opts: list[Option]) -> str:
    """What the neutral colour ``c`` picks among ``opts``, the options ``step`` offers it."""
    return _STEP_KINDS[step[0]].neutral(s, [o.id for o in opts])


def _do(s: S, c: int, step: list[Any], choice: str, ev: list[Event]) -> None:
    """Apply ``choice``, the answer to what ``step`` asked colour ``c``."""
    _STEP_KINDS[step[0]].do(s, c, step, choice, ev)


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


def _victim(code: str, c: int, o: int, s: S, place: Any) -> Event:
    if o == s["neutral"]:
        return _who(code + "_vn", c, s, place=place)
    return _who(code, c, s, place=place, victim_seat=o)


def _discard_ship(s: S, sh: Mapping[str, Any]) -> None:
    if sh["tok"] is not None:
        s["dtok"][sh["tok"]] += 1
    s["discard"].append(sh["id"])


# --------------------------------------------------------------------------- neutral


def _leader(s: S) -> int:
    """The human player leading on point-token value (lowest seat on a tie)."""
    vals = [_token_value(s, seat) for seat in range(s["n"])]
    return vals.index(max(vals))


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


def _production(s: S, k: int, ev: list[Event], final: bool = False) -> None:
    s["prod"] += 1
    ev.append(_ev("production", n=s["prod"], tokens=k, round=s["round"]))
    for seat in range(s["n"]):
        if BLOCKS_OF_ICE in s["actions"][seat]:
            s["actions"][seat].remove(BLOCKS_OF_ICE)
            s["tokens"][seat]["ice"] += ACTIONS[BLOCKS_OF_ICE]["ice"]
            ev.append(_ev(f"action.{BLOCKS_OF_ICE}", seat, reveals=True))
    for z in ZONES:
        mods = _p3_mods(s, z) if final else set()
        rtype, up = s["res"][z]
        pile = s["pile"][z]
        if up and "exhausted" not in mods:
            pile[rtype] += k + (2 if "extra" in mods else 0)
        if "lake" in mods:
            pile["ice"] += 2
        if not any(pile.values()):
            continue
        zone = ZONE_NAMES[z]
        if "storm" in mods:
            ev.append(_ev("prod.storm", zone=zone, what=_pile_code(pile)))
            continue
        before = [dict(t) for t in s["tokens"]]
        counts = s["astros"][z]
        distribute(counts, pile, s["tokens"])
        gains = [{r: s["tokens"][c][r] - before[c][r] for r in RES_TYPES} for c in range(s["nc"])]
        takers = [c for c in range(s["nc"]) if any(gains[c].values())]
        code = "prod.take" if len(takers) == 1 and not any(pile.values()) else "prod.share"
        for c in takers:
            ev.append(
                _who(
                    code,
                    c,
                    s,
                    zone=zone,
                    astronauts=counts[c],
                    what=_pile_code(gains[c]),
                    pts=sum(RES_VALUE[r] * v for r, v in gains[c].items()),
                )
            )
        if any(pile.values()):
            left = "prod.lost" if final else "prod.left"
            if not takers:
                why = "_tie" if max(counts) > 0 else "_empty"
                left += why
            ev.append(_ev(left, zone=zone, what=_pile_code(pile), n=sum(pile.values())))


def _pile_code(pile: Mapping[str, int]) -> str:
    """Point tokens as a code the strings spell out ("3ice+2syl", see core.i18n)."""
    return "+".join(f"{pile[r]}{r}" for r in RES_TYPES if pile.get(r))


def distribute(counts: list[int], pile: dict[str, int], tokens: list[dict[str, int]]) -> None:
    """Pay a zone's point tokens by majority (R16): a sole leader takes everything, tied
    leaders take an even share of each type, the rest stays; nobody there, all stays."""
    top = max(counts)
    if top <= 0:
        return
    leaders = [c for c, k in enumerate(counts) if k == top]
    for r in RES_TYPES:
        share = pile[r] // len(leaders)
        if share:
            for c in leaders:
                tokens[c][r] += share
            pile[r] -= share * len(leaders)


def _p3_mods(s: S, z: str) -> set[str]:
    d = s["disc"].get(z)
    if d is None or not d["up"]:
        return set()
    card = DISCOVERIES[d["id"]]
    return {card["kind"]} if card["icon"] == "P3" else set()


def _reveal_discoveries(s: S, ev: list[Event]) -> None:
    for z in OUTER:
        d = s["disc"].get(z)
        if d is None:
            continue
        d["up"] = True
        card = DISCOVERIES[d["id"]]
        ev.append(_ev(f"discovery.{d['id']}", zone=ZONE_NAMES[z], reveals=True))
        if card["icon"] != "R":
            continue
        kind = card["kind"]
        if kind == "kill":
            killed = 0
            for c in range(s["nc"]):
                k = min(card["n"], s["astros"][z][c])
                s["astros"][z][c] -= k
                s["memorial"][c] += k
                killed += k
            ev.append(_ev("disc_kill", zone=ZONE_NAMES[z], killed=killed))
            continue
        if kind == "become":
            s["res"][z] = [card["res"], True]
        elif kind == "deposit":
            if not s["res"][z][1]:
                s["res"][z][1] = True
            else:
                s["res"][z][0], s["spare"] = s["spare"], s["res"][z][0]
        ev.append(_ev(f"resource.{s['res'][z][0]}", zone=ZONE_NAMES[z]))


# --------------------------------------------------------------------------- scoring


def _token_value(s: S, c: int) -> int:
    return sum(RES_VALUE[r] * k for r, k in s["tokens"][c].items())


def _sole_max(values: list[int]) -> int | None:
    top = max(values)
    if top <= 0 or values.count(top) > 1:
        return None
    return values.index(top)


def mission_done(s: S, c: int, mid: str) -> int:
    """Points colour ``c`` earns from mission ``mid`` now (0 when not completed)."""
    m = MISSIONS[mid]
    kind = m["kind"]
    astros = s["astros"]
    if kind == "group":
        cnt = sum(1 for z in GROUPS[m["group"]] if astros[z][c] > 0)
        return int(m["points"][cnt - 1]) if cnt else 0
    ok = False
    if kind == "most_zone":
        ok = _sole_max(astros[m["zone"]]) == c
    elif kind == "most_tokens":
        ok = _sole_max([t[m["res"]] for t in s["tokens"]]) == c
    elif kind == "spread":
        ok = sum(1 for z in MARS if astros[z][c] > 0) >= m["min"]
    elif kind == "dominion":
        ok = sum(1 for z in ZONES if _sole_max(astros[z]) == c) >= m["min"]
    elif kind == "memorial":
        ok = _sole_max(s["memorial"]) == c
    elif kind == "full_spectrum":
        held = {s["res"][z][0] for z in ZONES if s["res"][z][1] and _sole_max(astros[z]) == c}
        ok = set(RES_TYPES) <= held
    elif kind == "colony":
        ok = any(astros[z][c] >= m["min"] for z in MARS)
    return int(m["points"]) if ok else 0


def _discovery_points(s: S, c: int) -> int:
    return sum(pts for _, _, pts in _discovery_parts(s, c))


def breakdown_of(s: S) -> list[dict[str, int]]:
    n = s["n"]
    ice = [s["tokens"][seat]["ice"] for seat in range(n)]
    top = max(ice)
    mono = [0] * n
    if top > 0:
        leaders = [seat for seat in range(n) if ice[seat] == top]
        for seat in leaders:
            mono[seat] = ICE_MONOPOLY // len(leaders)
    return [
        {
            "tokens": _token_value(s, seat),
            "missions": sum(mission_done(s, seat, m) for m in s["missions"][seat]),
            "ice_monopoly": mono[seat],
            "discoveries": _discovery_points(s, seat),
        }
        for seat in range(n)
    ]


def _discovery_parts(s: S, c: int) -> list[tuple[str, str, int]]:
    """(zone, discovery id, points) for each face-up discovery that scores colour ``c``."""
    out: list[tuple[str, str, int]] = []
    for z in OUTER:
        d = s["disc"].get(z)
        if d is None or not d["up"]:
            continue
        card = DISCOVERIES[d["id"]]
        here = s["astros"][z]
        pts = 0
        ruins = card["kind"] == "ruins" and _sole_max(here) == c
        if ruins or (card["kind"] == "fossils" and here[c] > 0):
            pts = card["points"]
        elif card["kind"] == "toxic":
            pts = -min(card["max"], here[c])
        if pts:
            out.append((z, d["id"], int(pts)))
    return out


def _final_scoring(s: S, res: Result, ev: list[Event]) -> None:
    """One event per final scoring step and player (what each part of the score is), then
    each player's sum: the jump from the token values to the final scores, explained."""
    n = s["n"]
    ev.append(_ev("final.head"))
    for seat in range(n):
        for m in s["missions"][seat]:
            pts = mission_done(s, seat, m)
            code = "final.mission_met" if pts else "final.mission_missed"
            ev.append(_ev(code, seat, mission_key=f"{PREFIX}card.{m}", pts=pts, reveals=True))
    ice = [s["tokens"][seat]["ice"] for seat in range(n)]
    if max(ice) <= 0:
        ev.append(_ev("final.ice_none"))
    else:
        for seat in range(n):
            pts = res.breakdown[seat]["ice_monopoly"]
            if ice[seat] == max(ice):
                shared = ice.count(max(ice)) > 1
                code = "final.ice_shared" if shared else "final.ice"
                ev.append(_ev(code, seat, ice=ice[seat], pts=pts))
    for seat in range(n):
        for z, cid, pts in _discovery_parts(s, seat):
            ev.append(
                _ev(
                    "final.discovery",
                    seat,
                    card_key=f"{PREFIX}card.{cid}",
                    zone=ZONE_NAMES[z],
                    pts=pts,
                )
            )
    for seat in range(n):
        b = res.breakdown[seat]
        ev.append(
            _ev(
                "final.total",
                seat,
                tokens=b["tokens"],
                missions=b["missions"],
                ice=b["ice_monopoly"],
                discoveries=b["discoveries"],
                total=res.scores[seat],
            )
        )


def result_of(s: S) -> Result | None:
    if s["step"] != "over":
        return None
    parts = breakdown_of(s)
    scores = tuple(sum(p.values()) for p in parts)
    counts = [sum(s["tokens"][seat].values()) for seat in range(s["n"])]
    keys = [(scores[i], counts[i]) for i in range(s["n"])]
    ranks = ranks_of(keys)
    # R25: the tie-break named when players equal on points were split by their tokens.
    split = any(
        scores[i] == scores[j] and counts[i] != counts[j]
        for i in range(s["n"])
        for j in range(i + 1, s["n"])
    )
    tiebreak = PREFIX + "tiebreak.tokens" if split else ""
    return Result(scores=scores, ranks=ranks, breakdown=tuple(parts), tiebreak=tiebreak)


def public_scores(s: S) -> list[int]:
    if s["step"] == "over":
        res = result_of(s)
        assert res is not None
        return list(res.scores)
    return [_token_value(s, seat) for seat in range(s["n"])]


# --------------------------------------------------------------------------- persistence


def dump_state(s: S) -> S:
    return clone(s)


def load_state(data: Mapping[str, Any]) -> S:
    try:
        s = clone(dict(data))
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
        _validate(s)
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise ValueError(f"not a red_planet state: {exc!r}") from exc
    return s


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
    tot = [s["supply"][c] + s["memorial"][c] for c in range(s["nc"])]
    for z in ZONES:
        for c in range(s["nc"]):
            tot[c] += s["astros"][z][c]
    for sh in [*s["docks"], *s["launched"]]:
        if sh is not None:
            for c in sh["crew"]:
                tot[c] += 1
    return tot
