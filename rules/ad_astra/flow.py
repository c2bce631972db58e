"""Ad Astra — the flow between answers: revealing the next slot, armed artifacts, the end
of a card and of a round.
"""

from __future__ import annotations

from core.contract import Event

from .data import CARD_IDS, END_VP, HAND_LIMIT, RES, SCORING_CARDS, card_kind, card_pair
from .decisions import _art_opts, _build_options, _move_targets
from .state import ARMED, S, _bonus, _ev, hand_total, order_from, vp_total

# --------------------------------------------------------------------------- flow


def _advance(s: S, ev: list[Event]) -> None:
    while True:
        step = s["step"]
        if step == "plan":
            if s["placed"] < len(s["slots"]):
                return
            s["step"] = "act"
            s["cur"] = -1
            s["task"] = None
            continue
        if step == "discard":
            if any(s["need"]):
                return
            _end_round(s, ev)
            continue
        if step == "over":
            return
        if s["task"] is None:
            s["cur"] += 1
            if s["cur"] >= len(s["slots"]):
                _round_over(s, ev)
                continue
            _start_slot(s, ev)
            continue
        if _task_ready(s, ev):
            return


def _start_slot(s: S, ev: list[Event]) -> None:
    slot = s["slots"][s["cur"]]
    owner, card = slot[0], slot[1]
    slot[2] = True
    kind = card_kind(card)
    fac = s["fac"][owner]
    a, b = card_pair(fac, card) if kind in ("prod", "move") else ("", "")
    ev.append(_ev(f"reveal_{kind}", owner, slot=s["cur"] + 1, card=card, a=a, b=b))
    owner, chooser = _armed_here(s, owner, kind, ev)
    t: S = {"k": kind, "o": owner, "card": card, "n": 0, "by": chooser}
    if kind == "prod":
        t["pair"] = list(card_pair(fac, card))
    elif kind == "move":
        t["sys"] = list(card_pair(fac, card))
        t["q"] = (
            [[owner, "one"]] + [[o, "one"] for o in order_from(s, owner)[1:]] + [[owner, "rest"]]
        )
        t["moved"] = [[] for _ in range(s["n"])]
        t["land"] = None
        t["gate"] = None
        t["free"] = []
        t["spec"] = None
    elif kind == "build":
        t["q"] = order_from(s, owner)
        t["free"] = None
    elif kind == "score":
        t["elem"] = None
        t["pick"] = None
        t["q"] = []
        t["got"] = [0] * s["n"]
        s["first"] = owner
        ev.append(_ev("first_player", owner))
    else:
        t["tid"] = f"{s['round']}.{s['cur'] + 1}"
        t["offers"] = []
        t["comp"] = {}
        t["bank"] = None
        t["nb"] = 0
        t["out"] = []
        t["nprop"] = [0] * s["n"]
        t["noff"] = 0
        t["ncomp"] = 0
        ev.append(_ev("trade_open", owner))
    s["task"] = t


def _armed_here(s: S, owner: int, kind: str, ev: list[Event]) -> tuple[int, int]:
    """Apply the artifacts armed on the slot just revealed: Omnibus Rebus Responsum makes
    its holder the owner for this resolution; then Sigillum Arbitri lets its holder make
    the owner's choice of another player's Production or Scoring. An artifact that cannot
    act here (on the holder's own card, or Sigillum on another kind) goes back unused."""
    here = [x for x in s.get("armed", []) if x[0] == s["cur"]]
    s["armed"] = [x for x in s.get("armed", []) if x[0] != s["cur"]]
    chooser = owner
    for art in ARMED:  # Responsum first
        for _slot, seat, a in here:
            if a != art:
                continue
            usable = seat != owner and (art == "responsum" or kind in ("prod", "score"))
            if not usable:
                ev.append(_ev("armed_back", seat, private_to=seat, art=art))
                continue
            s["arts"][seat].remove(art)
            ev.append(_ev("art_used", seat, art=art, reveals=True))
            if art == "responsum":
                owner = chooser = seat
            else:
                chooser = seat
    return owner, chooser


def _task_ready(s: S, ev: list[Event]) -> bool:
    """Drop queue entries with nothing to do; True when a decision is open, False when the
    task has finished (``task`` set to None)."""
    t = s["task"]
    kind = t["k"]
    if kind in ("prod", "trade"):
        return True
    if kind == "move":
        if t["land"] is not None or t["spec"] is not None or t.get("swap"):
            return True
        while t["q"]:
            seat = t["q"][0][0]
            if _move_targets(s, seat) or _art_opts(s, seat, "move"):
                return True
            t["q"].pop(0)
        s["task"] = None
        return False
    if kind == "build":
        if t.get("swap") or t.get("ore"):
            return True
        while t["q"]:
            seat = t["q"][0]
            if _build_options(s, seat) or _art_opts(s, seat, "build"):
                return True
            t["q"].pop(0)
            if t["free"] == seat:
                t["free"] = None
        s["task"] = None
        return False
    # scoring
    if t["elem"] is None:
        return True
    while t["q"]:
        seat = t["q"][0]
        hand = s["res"][seat]
        if t["elem"] == "same" and any(hand[r] >= 2 for r in RES):
            return True
        if t["elem"] == "diff" and sum(1 for r in RES if hand[r]) >= 2:
            return True
        t["q"].pop(0)
    _bonus(s, t["got"], ev)
    s["task"] = None
    return False


def _round_over(s: S, ev: list[Event]) -> None:
    s["cur"] = -1
    s["need"] = [max(0, hand_total(s, seat) - HAND_LIMIT) for seat in range(s["n"])]
    s["step"] = "discard"


def _end_round(s: S, ev: list[Event]) -> None:
    n = s["n"]
    for slot in s["slots"]:
        seat, card = slot[0], slot[1]
        if card in SCORING_CARDS:
            s["used_sc"][seat].append(card)
        else:
            s["hand"][seat].append(card)
    for seat in range(n):
        if len(s["used_sc"][seat]) == len(SCORING_CARDS):
            s["hand"][seat] += s["used_sc"][seat]
            s["used_sc"][seat] = []
            ev.append(_ev("scoring_back", seat))
        s["hand"][seat] = [c for c in CARD_IDS if c in s["hand"][seat]]
    s["slots"] = [None] * len(s["slots"])
    s["armed"] = []
    ev.append(_ev("round_end", round=s["round"]))
    if s["ending"] or any(vp_total(s, seat) >= END_VP for seat in range(n)):
        s["step"] = "over"
        s["task"] = None
        ev.append(_ev("game_over", reveals=True))
        return
    s["round"] += 1
    s["step"] = "plan"
    s["placed"] = 0
    s["pick"] = None
    s["planner"] = s["first"]
    s["task"] = None
