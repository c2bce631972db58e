"""MLEM — the turn: the open decisions (``pending_of``) and applying an answer
(``apply_move``, on a copy of the state: a deep copy, except for an astronaut boarding the
rocket before the last, where only the boarding seat's astronauts and the crew list are
copied and the rest is shared with the input; states are immutable values either way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from core.contract import Decision, Event, IllegalMove, Option
from rules.kit import clone

from .board import ACCEPTS, BODY_SPACE, DEEP, MISSION_OPT, OPT_MISSION, PLANETS, SATELLITE
from .picks import _booster_owners, _explore_specs, _parts, _picking, _reroll_available, _spec_text
from .state import EV, OPT, _commander, _dice_text
from .voyage import (
    _begin_explore,
    _crash,
    _do_land,
    _do_move,
    _do_pick,
    _land_targets,
    _launch_seat,
    _roll,
    _start_voyage,
)

# --------------------------------------------------------------------------- decisions


def pending_of(s: dict[str, Any]) -> list[Decision]:
    phase = s["phase"]
    if phase == "over":
        return []
    if phase == "missions":
        out = []
        for seat in range(s["n"]):
            if s["missions"]["kept"][seat] is None:
                dealt = s["missions"]["dealt"][seat]
                opts = tuple(OPT(f"drop.{MISSION_OPT[m]}", "opt.drop", mission=m) for m in dealt)
                out.append(
                    Decision(
                        seat, "mlem.prompt.mission", opts, {"missions": ", ".join(dealt)}, True
                    )
                )
        return out
    if phase == "launch":
        seat = _launch_seat(s)
        opts = tuple(OPT(f"board.{a}", f"ability.{a}", "primary") for a in s["board"][seat])
        return [Decision(seat, "mlem.prompt.launch", opts, {"round": s["voyage"]})]
    if phase == "explore":
        cmd = _commander(s)
        assert cmd is not None
        specs = _explore_specs(s)
        args = {"dice": _dice_text(s["roll"]), "space": s["space"]}
        if s.get("pick") is not None:  # second step: keep the number dice or not
            go = s["pick"]
            steps = specs[go][0]
            kargs = {**args, "steps": steps, "to": min(DEEP, s["space"] + steps)}
            kargs["dice"] = _spec_text(s, specs[go])
            keep = (OPT(go + "+k", "opt.keep_yes", "primary"), OPT(go, "opt.keep_no"))
            return [Decision(cmd, "mlem.prompt.keep", keep, kargs)]
        if _picking(s, specs):
            parts = _parts(s)
            if _reroll_available(s):  # a reroll is its own answer (R32)
                parts.append(replace(OPT("reroll", "opt.reroll"), alone=True))
            return [
                Decision(
                    cmd,
                    "mlem.prompt.explore_pick",
                    tuple(parts),
                    args,
                    min_picks=1,
                    max_picks=len(parts),
                )
            ]
        available = len(_booster_owners(s))
        opt_list = []
        # Nearest first; the same distance with fewer dice first.
        ordered = sorted(specs.items(), key=lambda item: (item[1][0], item[0].count("+")))
        for oid, sp in ordered:
            to = min(DEEP, s["space"] + sp[0])
            oargs: dict[str, Any] = {"steps": sp[0], "to": to, "dice": _spec_text(s, sp)}
            label = "mlem.opt.go_deep" if to >= DEEP else "mlem.opt.go"
            if 0 < len(sp[2]) < available:  # say whose boosters when it is a choice
                label = f"{label}_b{len(sp[2])}"
                rest = _spec_text(s, sp, boosters=False)
                oargs["dice"] = rest + " " if rest else ""
                oargs.update({f"b{i + 1}_seat": seat for i, seat in enumerate(sp[2])})
            opt_list.append(Option(oid, label, oargs, "primary"))
        if _reroll_available(s):
            opt_list.append(OPT("reroll", "opt.reroll"))
        prompt = "mlem.prompt.explore"
        if not any(f in ACCEPTS[s["space"]] for f in s["roll"]):
            opt_list.append(OPT("crash", "opt.crash", "danger"))
            prompt = "mlem.prompt.rescue"
        return [Decision(cmd, prompt, tuple(opt_list), args)]
    # land / chute
    seat, ability = s["queue"][0]
    targets = _land_targets(s)
    opts = tuple(_land_option(oid, t) for oid, t in targets.items())
    prompt, largs = _land_prompt(s, ability, targets)
    return [Decision(seat, prompt, opts, largs)]


def _land_prompt(
    s: dict[str, Any], ability: str, targets: Mapping[str, tuple[Any, ...] | None]
) -> tuple[str, dict[str, Any]]:
    """The landing question, naming the astronaut and where plain landing puts it:
    ``mlem.prompt.land_moon`` / ``land_planet`` / ``land`` (only the shifter's ±1 lands),
    and ``mlem.prompt.parachute_moon`` / ``parachute_planet`` after a crash."""
    args: dict[str, Any] = {
        "space": s["space"],
        "astronaut": ability,
        "astronaut_key": f"mlem.ability.{ability}",
    }
    here = targets.get("chute.land" if s["phase"] == "chute" else "land")
    prompt = "mlem.prompt.parachute" if s["phase"] == "chute" else "mlem.prompt.land"
    if here is not None:
        kind, body, _idx, points = here
        prompt += "_" + kind
        if kind == "moon":
            args["points"] = points
        else:
            args["planet_key"] = f"mlem.planet.{body}"
            args["values"] = "/".join(str(v) for v in PLANETS[body])
    return prompt, args


def _waiting(s: dict[str, Any]) -> list[int]:
    """Seats with an open decision (the seats of :func:`pending_of`, computed cheaply)."""
    phase = s["phase"]
    if phase == "missions":
        return [i for i, k in enumerate(s["missions"]["kept"]) if k is None]
    if phase == "launch":
        return [_launch_seat(s)]
    if phase == "explore":
        return [s["crew"][0][0]]
    if phase in ("land", "chute"):
        return [s["queue"][0][0]]
    return []


def _land_option(oid: str, target: tuple[Any, ...] | None) -> Option:
    if target is None:
        if oid == "stay":
            return OPT(oid, "opt.stay")
        return OPT(oid, "opt.chute_back")
    kind, body, _idx, points = target
    shift = {"land.up": "+1", "land.down": "-1"}.get(oid)
    label = ("mlem.opt.shift_" if shift else "mlem.opt.land_") + kind
    args: dict[str, Any] = {"body": body, "points": points}
    if kind == "planet":
        args["values"] = "/".join(str(v) for v in PLANETS[body])
        label += "." + body
    elif kind == "moon":
        args["space"] = BODY_SPACE[body]
    if shift:
        args["shift"] = shift
    return Option(oid, label, args, "success")


def apply_move(
    state: dict[str, Any], seat: int, choice: str
) -> tuple[dict[str, Any], list[Event]]:
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove("mlem.error.game_over")
    if not isinstance(choice, str):
        raise IllegalMove("mlem.error.not_offered", choice=str(choice))
    if phase == "launch" and len(state["crew"]) + 1 < state["n"]:
        return _board_astronaut(state, seat, choice)
    s = clone(state)
    ev: list[Event] = []
    if phase == "missions":
        kept = s["missions"]["kept"]
        if not isinstance(seat, int) or not 0 <= seat < s["n"] or kept[seat] is not None:
            raise IllegalMove("mlem.error.not_your_turn")
        dealt = s["missions"]["dealt"][seat]
        mission = OPT_MISSION.get(choice[5:]) if choice.startswith("drop.") else None
        if mission is None or mission not in dealt:
            raise IllegalMove("mlem.error.not_offered", choice=choice)
        kept[seat] = [m for m in dealt if m != mission]
        ev.append(EV("mission_kept", seat))
        ev.append(EV("mission_private", seat, private_to=seat, missions=", ".join(kept[seat])))
        if all(k is not None for k in kept):
            ev.append(EV("missions_ready"))
            _start_voyage(s, ev)
        return s, ev
    if phase == "launch":
        if seat != _launch_seat(s):
            raise IllegalMove("mlem.error.not_your_turn")
        ability = choice[6:] if choice.startswith("board.") else None
        if ability not in s["board"][seat]:
            raise IllegalMove("mlem.error.not_offered", choice=choice)
        s["board"][seat].remove(ability)
        s["crew"].append([seat, ability, 0])
        ev.append(EV(f"board.{ability}", seat))
        if len(s["crew"]) == s["n"]:
            if any(c[1] == "satellite" for c in s["crew"]):
                s["space"] = SATELLITE
                ev.append(EV("satellite", space=SATELLITE))
            _begin_explore(s, ev)
        return s, ev
    if phase == "explore":
        if seat != _commander(s):
            raise IllegalMove("mlem.error.not_your_turn")
        if s.get("pick") is not None:
            if choice not in (s["pick"], s["pick"] + "+k"):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            s["pick"] = None
            _do_move(s, ev, choice)
        elif choice == "reroll":
            if not _reroll_available(s):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            s["exp"]["avail"] = False
            ev.append(EV("reroll", seat))
            _roll(s, ev)
        elif choice == "crash":
            if any(f in ACCEPTS[s["space"]] for f in s["roll"]):
                raise IllegalMove("mlem.error.not_offered", choice=choice)
            _crash(s, ev)
        elif not choice.startswith("go.") and _picking(s, _explore_specs(s)):
            _do_pick(s, ev, choice)
        else:
            _do_move(s, ev, choice)
        return s, ev
    # land / chute
    if not s["queue"] or seat != s["queue"][0][0]:
        raise IllegalMove("mlem.error.not_your_turn")
    _do_land(s, ev, seat, choice)
    return s, ev


def _board_astronaut(
    state: dict[str, Any], seat: int, choice: str
) -> tuple[dict[str, Any], list[Event]]:
    """An astronaut boards the rocket while others are still to board: the launch phase's
    own step of :func:`apply_move` without a deep copy (the most frequent move)."""
    if seat != _launch_seat(state):
        raise IllegalMove("mlem.error.not_your_turn")
    ability = choice[6:] if choice.startswith("board.") else None
    if ability not in state["board"][seat]:
        raise IllegalMove("mlem.error.not_offered", choice=choice)
    s = dict(state)
    board = s["board"] = list(state["board"])
    board[seat] = list(board[seat])
    board[seat].remove(ability)
    s["crew"] = [*state["crew"], [seat, ability, 0]]
    return s, [EV(f"board.{ability}", seat)]
