"""Mission: Red Planet: the countdown's step kinds, one table (``_STEP_KINDS``) saying for each
what it asks, what an answer does and what the neutral colour picks (R7-R16, R22, R26)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from core.contract import Event, Option

from .common import (
    PREFIX,
    S,
    _arrive,
    _discard_ship,
    _dock_opt,
    _ev,
    _launch,
    _leader,
    _opt,
    _pilot_zones,
    _place_on,
    _places,
    _room,
    _ship_label,
    _ship_ref,
    _ships,
    _target_args,
    _target_label,
    _victim,
    _who,
    dest_of,
)
from .data import (
    ADJ,
    COURSE_CORRECTION,
    EMERGENCY_LAUNCH,
    MARS,
    OUTER,
    PHOBOS,
    ZONE_NAMES,
    ZONES,
    event_kind,
)

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
