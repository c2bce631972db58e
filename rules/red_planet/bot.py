"""A Mission: Red Planet bot: go where majorities can be won, pick characters that fit.

It reads only ``view(state, seat)`` and its own open decision (which is what that seat is
shown), so it never peeks at other hands, hidden choices, missions or face-down tokens.
"""

from __future__ import annotations

import random
from typing import Any

from core.contract import Decision

from .data import (
    DISCOVERIES,
    EMERGENCY_LAUNCH,
    GROUPS,
    MARS,
    MISSIONS,
    PRODUCTION,
    REINFORCEMENTS,
    RES_COUNT,
    RES_VALUE,
    ROUNDS,
    ZONES,
)
from .engine import pending_of
from .view import view_of

V = dict[str, Any]


def choose(s: dict[str, Any], seat: int, rng: random.Random) -> str:
    decision = next(d for d in pending_of(s) if d.seat == seat)
    return Bot(view_of(s, seat), seat, rng).pick(decision)


class Bot:
    def __init__(self, v: V, me: int, rng: random.Random) -> None:
        self.v = v
        self.me = me
        self.rng = rng
        self.nc = v["colours"]
        # Astronauts bound for each zone (on Mars, plus aboard ships heading there).
        self.proj: dict[str, list[float]] = {
            z: [float(k) for k in v["zones"][z]["astronauts"]] for z in ZONES
        }
        for sh in v["launched"]:
            if sh["dest"] is not None:
                for c in sh["crew"]:
                    self.proj[sh["dest"]][c] += 1
        # Docked ships may never fly (or be blown up): their crews count for less.
        for sh in v["docks"]:
            if sh is not None and sh["dest"] is not None:
                fill = len(sh["crew"]) / sh["cap"]
                for c in sh["crew"]:
                    self.proj[sh["dest"]][c] += 0.5 + 0.4 * fill
        left = [k for r, k in PRODUCTION.items() if r >= v["round"]]
        self.weight = sum(left)
        # Expected value of a face-down resource: the tokens nobody has seen yet.
        seen = [z["resource"] for z in v["zones"].values() if z["resource"] is not None]
        unseen = [r for r, k in RES_COUNT.items() for _ in range(k - seen.count(r))]
        self.unknown = sum(RES_VALUE[r] for r in unseen) / max(1, len(unseen))
        # What my secret missions want: a first astronaut somewhere, or a majority.
        # Ice also counts towards the Ice Monopoly (9 points).
        self.res_worth = {r: float(v) for r, v in RES_VALUE.items()}
        self.res_worth["ice"] += 1.2
        self.presence: dict[str, float] = {}
        self.focus: dict[str, float] = {}
        for m in v.get("private", {}).get("missions", []):
            card = MISSIONS[m["id"]]
            kind = card["kind"]
            if kind == "group":
                for z in GROUPS[card["group"]]:
                    self.presence[z] = self.presence.get(z, 0.0) + 2.0
            elif kind == "spread":
                for z in MARS:
                    self.presence[z] = self.presence.get(z, 0.0) + 1.0
            elif kind == "most_tokens":
                self.res_worth[card["res"]] += 1.0
            elif kind == "most_zone":
                self.focus[card["zone"]] = self.focus.get(card["zone"], 0.0) + card["points"]

    # ------------------------------------------------------------------ evaluation

    def worth(self, z: str) -> float:
        zone = self.v["zones"][z]
        res = zone["resource"]
        per = self.res_worth[res] if res is not None else self.unknown
        pile = sum(RES_VALUE[r] * k for r, k in zone["pile"].items())
        return per * self.weight + pile + 1.0

    def share(self, counts: list[float], c: int) -> float:
        mine = counts[c]
        if mine <= 0:
            return 0.0
        diff = mine - max(k for i, k in enumerate(counts) if i != c)
        if diff >= 1.5:
            return 1.0
        if diff >= 0.5:
            return 0.8
        if diff > -0.5:
            return 0.4
        return 0.1 if diff > -1.5 else 0.0

    def gain(
        self, z: str | None, add: list[int] | list[float] | None = None, c: int | None = None
    ) -> float:
        """How much colour ``c`` (default: me) gains in zone ``z`` when ``add`` arrives."""
        if z is None:
            return 0.0
        c = self.me if c is None else c
        before = self.proj[z]
        after = list(before)
        for col, k in enumerate(add or []):
            after[col] += k
        delta = self.share(after, c) - self.share(before, c)
        out = self.worth(z) * delta
        if c == self.me:
            out += self.focus.get(z, 0.0) * delta
            if before[c] <= 0 < after[c]:
                out += self.presence.get(z, 0.0)
        return out

    def one(self, c: int, k: int = 1) -> list[int]:
        out = [0] * self.nc
        out[c] += k
        return out

    def best_zone_gain(self, add: list[int]) -> float:
        return max(self.gain(z, add) for z in ZONES)

    def noise(self, scale: float = 0.6) -> float:
        return self.rng.uniform(0, scale)

    # ------------------------------------------------------------------ decisions

    def pick(self, d: Decision) -> str:
        if ".prompt.commit." in d.prompt:
            return self.on_commit(d.prompt.rsplit(".", 1)[1])
        kind = d.prompt.rsplit(".", 1)[1]
        ids = [o.id for o in d.options]
        handler = getattr(self, "on_" + kind, None)
        if handler is None:
            return self.rng.choice(ids)
        return str(handler(ids, d))

    def _best(self, ids: list[str], score: Any, scale: float = 0.6) -> str:
        return max(ids, key=lambda oid: score(oid) + self.noise(scale))

    def on_mission(self, ids: list[str], d: Decision) -> str:
        return self.rng.choice(ids)

    def dock_value(self, oid: str, k: int = 1) -> float:
        sh = self.v["docks"][int(oid[1:])]
        room = sh["cap"] - len(sh["crew"])
        add = self.one(self.me, k)
        gain = self.gain(sh["dest"], add) if sh["dest"] else self.best_zone_gain(add)
        launch = 1.0 if room <= k else 0.75 - 0.1 * (room - k)
        if self.v["round"] >= ROUNDS and room > k:
            launch = 0.25
        return gain * launch + 0.5 * k

    def on_place(self, ids: list[str], d: Decision) -> str:
        return self._best(ids, self.dock_value)

    def on_place3(self, ids: list[str], d: Decision) -> str:
        return self._best(ids, lambda oid: self.dock_value(oid, 3))

    def on_dest(self, ids: list[str], d: Decision) -> str:
        sh = self.v["docks"][int(d.args["dock"]) - 1]
        counts = [sh["crew"].count(c) for c in range(self.nc)] if sh else self.one(self.me)
        return self._best(ids, lambda z: self.gain(z, counts), 1.0)

    def on_move(self, ids: list[str], d: Decision) -> str:
        def score(oid: str) -> float:
            if oid == "done":
                return 0.3
            _, a, b = oid.split(".")
            return self.gain(b, self.one(self.me)) + self.gain(a, self.one(self.me, -1))

        return self._best(ids, score, 0.3)

    def on_sci(self, ids: list[str], d: Decision) -> str:
        return "draw" if "draw" in ids and self.rng.random() < 0.85 else self.rng.choice(ids)

    def on_peek(self, ids: list[str], d: Decision) -> str:
        return self.rng.choice(ids)

    def on_assign(self, ids: list[str], d: Decision) -> str:
        card = DISCOVERIES[str(d.args["card"])]
        good = card["kind"] in ("ruins", "fossils", "extra", "lake", "deposit")

        def score(z: str) -> float:
            counts = self.proj[z]
            mine = counts[self.me]
            other = max(k for i, k in enumerate(counts) if i != self.me)
            return (mine - other) if good else (other - mine)

        return self._best(ids, score, 1.0)

    def launch_value(self, oid: str) -> float:
        sh = self.v["docks"][int(oid[1:])]
        if not sh["crew"] or sh["dest"] is None:
            return 0.0
        mine = sh["crew"].count(self.me)
        return mine - 0.7 * (len(sh["crew"]) - mine)

    def on_launch(self, ids: list[str], d: Decision) -> str:
        return self._best(ids, self.launch_value, 0.5)

    def on_destroy(self, ids: list[str], d: Decision) -> str:
        def score(oid: str) -> float:
            crew = self.v["docks"][int(oid[1:])]["crew"]
            mine = crew.count(self.me)
            return (len(crew) - mine) - 1.5 * mine

        return self._best(ids, score, 0.5)

    def _target_value(self, oid: str) -> float:
        _, where, o_ = oid.split(".")
        o = int(o_)
        scores = self.v["scores"]
        lead = 0.3 * scores[o] / (1 + max(scores)) if o < len(scores) else 0.0
        if where in self.proj:
            return self.gain(where, self.one(o, -1)) + lead
        ref = self.v["docks" if where[0] == "d" else "launched"][int(where[1:])]
        return self.gain(ref["dest"], self.one(o, -1)) + lead + 0.2

    def on_ff(self, ids: list[str], d: Decision) -> str:
        def score(oid: str) -> float:
            where = oid.split(".")[1]
            bonus = self.gain(where, self.one(self.me)) if where in self.proj else 0.5
            return self._target_value(oid) + bonus

        return self._best(ids, score, 0.4)

    def on_kill(self, ids: list[str], d: Decision) -> str:
        return self._best(ids, self._target_value, 0.4)

    def on_drop(self, ids: list[str], d: Decision) -> str:
        def score(oid: str) -> float:
            if oid == "done":
                return 0.2
            z = oid.split(".", 1)[1]
            return self.gain(z, self.one(self.me)) + self.gain("PH", self.one(self.me, -1))

        return self._best(ids, score, 0.3)

    def ship_of(self, ref: str) -> dict[str, Any]:
        sh: dict[str, Any] = self.v["docks" if ref[0] == "d" else "launched"][int(ref[1:])]
        return sh

    def redirect_value(self, ref: str) -> float:
        sh = self.ship_of(ref)
        counts = [sh["crew"].count(c) for c in range(self.nc)]
        if not sh["crew"]:
            return 0.0
        best = max(self.gain(z, counts) for z in ZONES if z != sh["dest"])
        return best - self.gain(sh["dest"], counts)

    def on_pilot(self, ids: list[str], d: Decision) -> str:
        return self._best(ids, self.redirect_value, 0.3)

    def on_pilot2(self, ids: list[str], d: Decision) -> str:
        label = str(d.args["ship"])
        ref = ("d" if label.startswith("🚀") else "l") + str(int(label[1:]) - 1)
        sh = self.ship_of(ref)
        counts = [sh["crew"].count(c) for c in range(self.nc)]
        return self._best(ids, lambda z: self.gain(z, counts), 0.3)

    def on_commit(self, card: str) -> str:
        """Whether to play an action card this round, decided during the secret choice
        from what this seat sees now (R22): the card is spent even if it finds no use."""
        v = self.v
        last = v["round"] >= ROUNDS
        if card == REINFORCEMENTS:
            return "play" if v["supply"][self.me] >= 2 else "keep"
        if card == EMERGENCY_LAUNCH:
            docks = [f"d{i}" for i, sh in enumerate(v["docks"]) if sh is not None]
            best = max((self.launch_value(ref) for ref in docks), default=0.0)
            return "play" if best >= 2 or (last and best > 0) else "keep"
        # Course Correction: ships launch during the countdown, so look at the docked ones
        # that already carry my astronauts; in the last round, use it or lose it.
        mine = sum(sh["crew"].count(self.me) for sh in v["docks"] if sh is not None and sh["crew"])
        return "play" if last or mine >= 3 or self.rng.random() < 0.15 else "keep"

    def on_act2(self, ids: list[str], d: Decision) -> str:
        docks = [i for i in ids if i != "done"]
        best = max(docks, key=self.launch_value)
        return best if self.launch_value(best) > 0 else "done"

    def on_act3(self, ids: list[str], d: Decision) -> str:
        ships = [i for i in ids if i != "done"]
        best = max(ships, key=self.redirect_value)
        return best if self.redirect_value(best) > 0 else "done"

    # ------------------------------------------------------------------ characters

    def on_choose(self, ids: list[str], d: Decision) -> str:
        values = self.char_values(ids)
        # Multiplicative noise too, so a strong card does not always win: bots vary.
        return max(
            ids, key=lambda oid: values[oid] * self.rng.uniform(0.55, 1.45) + self.noise(2.0)
        )

    def char_values(self, ids: list[str]) -> dict[str, float]:
        """How good each character (``c<num>``) looks for this seat now, without noise."""
        v = self.v
        played = v["played"][self.me]
        last = v["round"] >= ROUNDS
        docks = [sh for sh in v["docks"] if sh is not None]
        rooms = [sh["cap"] - len(sh["crew"]) for sh in docks]
        place = max((self.dock_value(f"d{i}") for i, sh in enumerate(v["docks"]) if sh), default=0)
        on_mars = sum(v["zones"][z]["astronauts"][self.me] for z in MARS)
        on_phobos = v["zones"]["PH"]["astronauts"][self.me]
        others = [c for c in range(self.nc) if c != self.me]

        def value(oid: str) -> float:
            num = int(oid[1:])
            if num == 9:
                return place + (0 if last else 0.9 * len(played) - 1.0)
            if num == 8:
                return place + (1.5 if on_mars else 0)
            if num == 7:
                return 2 * place + (0.5 if last else 1.5)
            if num == 6:
                return 2 * place + 1.0
            if num == 5:
                hurt = max(
                    (sum(1 for c in sh["crew"] if c != self.me) - 2 * sh["crew"].count(self.me))
                    for sh in docks
                )
                return place + 0.8 * hurt
            if num == 4:
                return place + 2.0
            if num == 3:
                if not any(r >= 3 for r in rooms):
                    return -5.0
                best = max(
                    self.dock_value(f"d{i}", 3)
                    for i, sh in enumerate(v["docks"])
                    if sh and sh["cap"] - len(sh["crew"]) >= 3
                )
                return best + 0.5
            if num == 2:
                target = any(
                    v["zones"][z]["astronauts"][self.me]
                    and any(v["zones"][z]["astronauts"][o] for o in others)
                    for z in ZONES
                )
                return place + (1.5 if target else 0) + 1.2 * min(3, on_phobos)
            if num == 1:
                return place + 1.5
            return place

        return {oid: value(oid) for oid in ids}
