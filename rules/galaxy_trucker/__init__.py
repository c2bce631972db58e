"""Galaxy Trucker (Vlaada Chvátil, CGE; 2nd edition) — the pure rules engine, 2 to 4 players.

``GAME`` is the object the host registers. The state is a plain JSON-compatible dict; every
random act draws from ``random.Random(f"galaxy_trucker:{seed}:{counter}")`` (``rules.kit.rng``)
with the counter kept in the state. Tiles, boards and cards come from ``data/galaxy_trucker/``
(``tiles.json``, ``boards.json``, ``cards.json``); values we had to invent are listed under
each level's ``designed`` key in ``boards.json`` (level III cards carry ``provisional``).

What is built: set-up, the building phase (simultaneous and private, with the hourglass),
pre-launch (check, removal, "fix it for me", split ships, aliens, crew and batteries), the
flight (``adventure.py`` and ``encounters.py``: every card type of the 2nd edition, with the
choices of R14-R22 and R30-R34), voluntary retirement, the end-of-flight table and the
Intergalactic Trek (the ``level`` option's ``trek``: three flights in a row, credits carried
over). Not built: the Trek's titles (no source has them) and the "Un viaje accidentado"
mini-expansion.

Decisions and option ids
------------------------
Building (one private decision per builder, ``key = build.<seat>.<step>``; the hourglass
rides on it as ``Timer("hourglass.<run>", seconds, "hg.out")``):

* empty hand: ``draw`` (face down), ``take.<tile>`` (open pool), ``use.<tile>`` (reserve),
  ``lrot`` / ``lift`` (turn or pick up again the last placed tile), ``peek.<0-2>`` (look at
  a card pile), ``done``;
* tile in hand: ``place.<row>.<col>`` (a grid of the ship board, cropped to the rows and
  columns of the free cells; ``cell`` = position in it), ``rot`` (a quarter turn
  clockwise), ``reserve``, ``return`` (face up to the pool) or ``back`` (a reserve tile goes
  back to the reserve);
* looking at a pile: ``unpeek``;
* ``flip`` (turn the hourglass) when allowed, also offered to finished players
  (public decision ``key = flip.<run>``).

``hg.out`` is the hourglass timer's option: it is never among the options (no button can
end the sand); the host applies it when the timer runs out.

Pre-launch (private, ``key = pre.<seat>.<step>``, grid of the board): ``keep.<row>.<col>``
(split ship: keep the part holding that tile), ``rm.<row>.<col>`` (remove a tile), ``fix``
(fix it for me), ``alien.<colour>.<row>.<col>`` / ``noalien``.

Flight (public, one seat at a time, ``key = fl.<cards done>.<answers>``): ``pow.<k>`` (power
k double engines or cannons), ``take`` / ``pass`` (a reward or an abandoned ship/station),
``planet.<i>`` / ``pass``, ``keep.<row>.<col>`` (a ship broken by a hit), ``crew.<row>.<col>``
(the cabin a lost crew member leaves), ``def`` / ``def.<row>.<col>`` / ``hit`` (a hazard a
battery could stop, R30), for goods (R31, a multi-pick question) ``auto`` alone or goods
aboard ``a.<row>.<col>.<j>`` and new ones ``n.<i>``; ``retire`` (give up the flight after
this card, R26) beside ``pow``, ``take``/``pass``, ``planet`` and ``def``/``hit``; between
two cards, for a ship the card hurt, ``go`` / ``retire`` (R26b).

Standing (the ``standing`` hook: never pending, nobody waits on it; public,
``key = give_up.<seat>``): ``retire`` for every flying ship not being asked (R26c).

The Trek (``level`` = ``trek``) prefixes every decision key and hourglass timer key with
``t<flight>.`` (``t2.build.0.31``, ``t2.hourglass.1``).

A state records the rulings it was created under (``rules``: 2 for new games; a state
without it follows the first rulings of R10, R11 and R26, so stored games replay exactly).
The version comes from the lobby's hidden ``rules`` option, which every new lobby stores:
the host rebuilds a game from ``new(players, options, seed)`` and its log (undo, rollback,
the replay audit), so a lobby stored before the option existed replays under rules 1.

Rulings (where the rules leave a choice to us; R1-R13 are tested in
``tests/rules/test_galaxy_trucker_rulings.py``, R13-R22 in ``test_galaxy_trucker_flight.py``,
R23-R29 in ``test_galaxy_trucker_trek.py``, R26c in
``test_galaxy_trucker_give_up.py``, R30-R34 in ``test_galaxy_trucker_choices.py``)
-----------------------------------------------------------------------------------------
R1. Edition: 2nd edition tiles (152 + 4 starting cabins), boards and level I/II cards;
    level III cards are the original edition's (provisional). Seat i has the starting cabin
    of colour i (blue, green, red, yellow); unused starting cabins stay in the box.
R2. Levels: ``learning`` (board I, learning-flight cards, no aliens, no hourglass), I, II, III.
    Hourglass runs per level: learning 0, I 2, II 3, III 4 (II is sourced, the others
    DESIGNED); the lobby sets the length of one run of the sand.
R3. The sand starts running with the game (run 1). When it runs out (``hg.out``) anybody may
    flip it to the next run; only a finished player may flip it onto the last run. When the
    last run runs out, everyone still building stops at once: a tile in hand goes back face
    up to the pool (or to the reserve if it came from there) and their rockets take the
    free start spaces in seat order.
R4. A tile drawn face down is seen by its drawer only (private event and view); taking,
    returning and reserving are public. A face-up tile goes to the first click; a later
    click is told who took it (``gone_reason``).
R5. A tile may be placed on any empty cell of the board next to a tile already placed
    (orthogonally). Connectors, engines, cannons and splits are checked at pre-launch only,
    as in the real game.
R6. The last placed tile can be turned (``lrot``) or picked up again (``lift``, back to the
    hand with its origin: a lifted pool tile may still go back to the pool) until the seat
    takes another tile (draw, take, use) or looks at a card pile.
R7. A seat must be holding no tile to finish (``done``) or look at cards; card piles may be
    looked at only after the first tile is attached, one at a time, never the 4th pile.
R8. ``done`` takes the best free start space: the k-th finisher gets the k-th start space.
R9. Two neighbouring tiles are joined when both facing sides carry a connector; the joint
    is legal for single-single, double-double and universal-any. A connector against a
    smooth side is illegal; two smooth sides are fine. Parts of a ship are its groups of
    joined tiles.
R10. Pre-launch order per seat: a split ship first chooses the part to keep (``keep``), then
    illegal joints and misplaced engines/cannons are fixed by removing tiles one at a time
    (a removal that splits the ship asks again which part to keep). Only a tile that is part
    of a problem (marked in red) may be removed (R10b: removing is for fixing errors, so a
    legal tile cannot be dropped to win the best-looking-ship bonus; a forged click on one
    is refused and changes nothing; games stored before R10b still accept any tile).
    Reserved tiles are lost when building ends. Every removed or fallen tile is a lost
    component (-1 credit).
R11. "Fix it for me" (also what an absent player gets) keeps the part holding the starting
    cabin, as a player would: the humans are there (R11b; games stored before it keep the
    largest part, the starting cabin only breaking ties). Among such plans it loses the
    fewest tiles (counting the ones that fall off), then keeps the front-most, left-most
    cells. The search is exact within a node budget (``ship.FIX_BUDGET``), else the best
    valid plan found so far.
R12. Aliens (not in the learning flight): first brown, then purple, each optional, in a
    cabin (never the starting cabin) joined by a legal joint to a life support of that
    colour; one per colour. Every other cabin gets 2 humans; batteries start full.
R13. The deck is the four piles shuffled together, reshuffled until the top card is of the
    flight's level (the learning flight: its 8 cards). Rockets start on the start spaces
    in finishing order. Retirements (lapped, no humans left, no engine power in open
    space) are checked before each card and at the end of the flight's last card.
R14. Batteries powering double engines or cannons (``pow.k``) are spent from the fullest
    battery tile (ties: the first by its ``row.col`` key). We do not ask which tiles pay
    there: it would add up to k questions per declaration, and a tile's charge only
    matters if that tile is destroyed later. Against a hazard the player chooses (R30); a
    single cannon shoots a large meteor for free, with nothing asked.
R15. Crew losses (abandoned ship, slavers, combat zone): the player picks the cabin of each
    member lost (``crew.<row>.<col>``, one question per member) unless there is no real
    choice (a single occupied cabin, or everyone aboard goes). The epidemic is automatic.
R16. The automatic load (every load without a real choice, ``auto``, bots and absent
    players): the most valuable goods that fit, among those aboard and the new ones (red
    only in red holds; aboard before new among equals); goods aboard move between holds to
    make room (a yellow in a red hold goes to a normal hold for a red); goods left out go
    back to the bank; what the bank lacks is not loaded. Goods losses take the most
    valuable first, then batteries (automatic: the rules fix them).
R17. Double engines/cannons: the player only says how many to power (``pow.k``); for
    cannons the best ones are powered (facing the front first).
R18. Abandoned ship: a seat may accept with at least as many crew as the card asks (it may
    then have to retire for lack of humans). Abandoned station: crew at least as asked,
    none lost. Only the first to accept takes it.
R19. Planets: seats choose in flight order among free planets and load at once; the days
    are lost afterwards, the rearmost first.
R20. Enemies meet seats in flight order until one beats them (who may take the reward,
    paying the days); a tie passes them on; pirates' shots are rolled once for all losers.
R21. Combat zone: lines top to bottom, order recomputed for each line; the lowest value
    takes the penalty, ties against the seat furthest ahead; skipped with one ship flying.
    Sabotage: fewest crew (ties: furthest ahead), up to 3 tries at a random cell.
R22. End table: finish reward by arrival order and best-looking ship (fewest exposed
    connectors) for ships still flying, plus credits won on cards, goods sold (half price,
    rounded up once, for retired ships), minus 1 per lost tile, never below 0 in all.
    Equal credits share a place: no tie-break applies, so ``Result.tiebreak`` stays empty.
R23. The Intergalactic Trek (lobby ``level`` = ``trek``): three flights in a row at levels I,
    II and III, each a whole flight of its level (board, start spaces, hourglass runs,
    cards, rewards). Between flights everything is put back: each seat starts the next
    flight with a new ship (its starting cabin only), every tile face down and reshuffled,
    new card piles, the hourglass on its first run; only the credits are kept.
R24. Trek credits: each flight's end table (R22) is added to the seat's running total; lost
    tiles are paid out of credits held from earlier flights, so only the running total never
    goes below 0. The final result is the totals, broken down by flight; equal totals share
    a place. The Trek's titles are not in any of our sources (DESIGNED): every flight keeps
    the best-looking ship bonus of its level instead.
R25. Each flight of the Trek is a new round of questions: decision keys and hourglass timer
    keys carry the flight number (``t2.hourglass.1``), so the host runs every flight's sand
    afresh and a button from an earlier flight is stale.
R26. Voluntary retirement: the rules allow it after any adventure, before the next card is
    revealed. Rather than a "next card" step that would cost every player a click on every
    card (R26b, the ruling of new games):

    * ``retire`` is offered beside each of the seat's own single-choice flight questions
      (how much to power, take or pass a reward, which planet, defend against a hazard),
      from the first card on. It does not answer the question: the seat answers it as usual
      and leaves the flight as soon as the card is resolved, before the next card is
      revealed (with the retirements the rules force). The host's undo takes it back until
      the seat's next move.
    * After a card that hurt a ship still flying (it lost tiles, crew or goods), and before
      the next card is revealed, that ship is asked, publicly and in flight order (kind
      ``next``): ``go`` (fly on) or ``retire`` (leave now). That is when a player wants to
      give up; a ship the card did not touch is asked nothing, so the flight does not wait
      on anyone without a reason. Bots and absent players fly on (``go``, R28, R34).

    Games stored before R26b keep the first ruling: ``retire`` beside the power, reward and
    planet questions from the second card on, no question between cards.
R26c. Giving up unasked (rules 2, single flights and the Trek): the rules let a ship leave
    after any adventure, and R26b only reaches the ship being asked and ships a card hurt.
    Asking every ship after every card would cost each player a click per card and hold
    the flight on anyone away, so the choice is a standing one instead (the host's
    ``standing`` hook): every flying ship that is not the one being asked, and is not
    already leaving, may press ``retire`` ("give up after this card") at any time; nobody
    is waiting on it (no ping, no deadline), bots and absent players never press it (R28).
    During a card the ship leaves once the card is resolved, with the retirements the
    rules force, before the next card is revealed (the trail says so at once, and again
    when it leaves); between two cards (while ships the last card hurt are asked, R26b) it
    leaves at once. The question open for another ship is not disturbed. The ship being
    asked gives up beside its own question (R26b), where ``retire`` is offered. The host's
    undo takes it back while it is the last move. Games stored under rules 1 offer nothing
    of the kind; games stored under rules 2 before R26c replay unchanged (it adds a
    possible move and changes none).
R27. A retired ship (forced or voluntary) keeps its credits won on cards, sells its goods at
    half price (rounded up, R22), still pays its lost tiles, and gets no arrival reward and
    no best-looking ship bonus. Retiring during the last card counts as retiring.
R28. The heuristic (the easy level, the absent players' stand-in and the search's play-out
    policy) never retires voluntarily (it answers ``go`` between cards) and leaves a flight
    only when the rules force it (lapped, no humans, no engine power in open space). The
    normal and hard levels search the flight's questions (see
    :mod:`rules.galaxy_trucker.search`), giving up included in the learning flight and at
    level I; at levels II and III only when that locks the win.
R29. The table and the trail say which flight of the Trek is being played and the running
    credits: the phase reads "Trek flight k/3 (level …)", the scores are the running totals,
    each flight ends with a line per seat (credits of the flight and in all), and the final
    table lists each flight's credits.
R30. Hazards: when a meteor or shot would destroy a tile and one battery could stop it (a
    shield covering that side against a small meteor on a connector or a light shot; a
    double cannon aimed at a large meteor, with no single cannon able to), the owner is
    asked, publicly, one ship at a time in flight order (the roll is shared): ``def`` pays
    from the tile R14 would pick, ``def.<row>.<col>`` from another charged battery tile
    (offered when there are several), ``hit`` lets it destroy the tile (the label names it
    and says when the ship would break apart). Nothing is asked on a miss, a bounce off a
    smooth side, a free single cannon, without a battery or a shield on that side, or for a
    heavy shot.
R31. Goods: when loading (planets, abandoned station, smugglers) not everything fits and a
    good left out could take the place of a kept one of another colour, the player picks
    what to carry in one multi-pick question: goods aboard and new ones, up to the room, or
    ``auto`` (R16) on its own. A pick that does not fit (too many, or red goods beyond the
    red holds) is refused and changes nothing. Identical goods, swaps that cannot fit, and
    loads with 24 or more goods to choose among (a select menu holds 25) load by R16.
R32. Stowing what the player picked: red goods in red holds, goods kept stay in their hold
    when there is room, the others fill normal holds first (then red ones), dearest first.
    The player does not place goods hold by hold: the hold only matters if it is hit
    later, and a hold-by-hold sequence would be long on a phone.
R33. Loads keep their order: a load that needs a question waits until no other question is
    open, and the loads after it wait behind it (planets: the landings are chosen in
    flight order and the goods loaded in that order, as the rules say).
R34. The heuristic always defends (``def``) and loads with ``auto``; the searching levels
    (normal, hard) weigh each answer. An absent player is skipped with the heuristic's
    answers (``skip_options``): letting a hazard hit would punish the absence.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.contract import Decision, IllegalMove, OptionSpec
from rules.kit import EngineGame

from . import engine
from . import search as _search
from .bot import choose as _bot_choose

__all__ = ["GAME", "GalaxyTruckerGame"]


class GalaxyTruckerGame(EngineGame, game="galaxy_trucker", players=(2, 4), search=_search):
    """The Galaxy Trucker game object registered with the host (see :mod:`core.contract`)."""

    engine = engine
    options = (
        OptionSpec("level", "galaxy_trucker.opt.level", engine.MODES, "I"),
        OptionSpec("hourglass", "galaxy_trucker.opt.hourglass", tuple(engine.HOURGLASS), "3m"),
        # Hidden (``unused_options``): the rulings a new lobby is opened under. A lobby
        # stored before it has none, and its game replays under rules 1.
        OptionSpec("rules", "galaxy_trucker.opt.rules", (str(engine.RULES),), str(engine.RULES)),
    )
    #: An absent builder is skipped by finishing; at pre-launch "fix it for me"; in flight
    #: passing and powering nothing, but defending against a hazard when a battery can
    #: (``def``) and loading goods the automatic way (``auto``) — R34.
    skip_options = ("done", "unpeek", "fix", "noalien", "pass", "pow.0", "def", "auto", "go")
    #: The pictographs its labels use, with their meaning (the table's legend).
    symbols: Mapping[str, str] = {
        "↻": "galaxy_trucker.legend.turn",
        "✔": "galaxy_trucker.legend.keep",
        "✖": "galaxy_trucker.legend.remove",
        "🟥": "galaxy_trucker.legend.red",
        "🟨": "galaxy_trucker.legend.yellow",
        "🟩": "galaxy_trucker.legend.green",
        "🟦": "galaxy_trucker.legend.blue",
        "🔋": "galaxy_trucker.legend.battery",
        "🏳": "galaxy_trucker.legend.give_up",
    }

    def unused_options(self, options: Mapping[str, str]) -> list[str]:
        """The lobby options that do not apply: the learning flight has no hourglass; the
        rulings version is never a choice."""
        return ["rules", *(["hourglass"] if options.get("level", "I") == "learning" else [])]

    def gone_reason(
        self, state: dict[str, Any], seat: int, option_id: str
    ) -> tuple[str, dict[str, Any]] | None:
        return engine.gone_reason(state, seat, option_id)

    def panel(self, state: dict[str, Any], decision: Decision) -> list[list[str | None]] | None:
        """Squeezed grids for phones (see :func:`rules.galaxy_trucker.engine.panel_of`)."""
        return engine.panel_of(state, decision)

    def standing(self, state: dict[str, Any]) -> list[Decision]:
        """R26c: giving up the flight, unasked (see :func:`engine.standing_of`)."""
        return engine.standing_of(state)

    def bot_choice(self, state: dict[str, Any], seat: int, rng: random.Random) -> str:
        """A sensible pick for a bot seat (see :mod:`rules.galaxy_trucker.bot`)."""
        if not engine.waits_for(state, seat):
            raise IllegalMove("galaxy_trucker.error.not_your_turn")
        if engine.asked(state, seat) == "next":
            return "go"  # bots fly on (R28): the window between cards (R26b)
        return _bot_choose(state, seat, rng)


GAME = GalaxyTruckerGame()
