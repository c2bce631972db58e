"""Ad Astra (Faidutti & Laget, Nexus 2009) — the pure rules engine, 3–5 players.

``GAME`` is the object the host registers. The state is a plain JSON-compatible dict; every
random act draws from ``rules.kit.rng`` (seeded, counter in the state). Component data comes
from ``data/ad_astra/game.json``, where every value the fact sheet marks DERIVED, INFERRED or
DESIGNED carries its ``status`` (factory cost, the second terraformable type, faction card
pairs, artifact effects). Seat ``i`` plays faction ``fac[i]`` (red, yellow, green, blue,
grey); clockwise is seat order.

Decisions and option ids
------------------------
* planning (the planner, private): ``c.<card>`` then ``s.<slot>`` (or ``back``); or
  ``arm.<artifact>`` then ``a.<slot>`` (or ``back``). Cards:
  ``p0``–``p2`` production, ``m0``–``m2`` movement, ``b`` build, ``t`` trade, ``s1``–``s3``
  scoring.
* production (owner): ``r.<res>``; ``art.cornu``.
* movement (owner, each other player, then the owner again): ``mv.<ship>.<system|deep>``,
  ``pass`` / ``done``, artifacts ``art.<id>``; then, private, ``l.<planet>`` (land on a face-up
  planet or reveal a face-down one); Speculum: two ``sp.<system>`` picks.
* build: ``col.<planet>``, ``fac.<planet>``, ``ter.<planet>``, ``ship``, ``art.<id>``;
  ``done`` (owner) / ``pass``; then, private, ``ore.<res>`` / ``back`` when the "any ore" of a
  colony or ship has a real choice.
* Commercium Alienum (movement or build, the holder): ``sw.<res>`` (give) or ``stop``, then
  ``sg.<res>`` (take) or ``back``.
* trade window (see rulings 15–20): owner ``offer.<seat>``, ``bank.<res>`` then
  ``get.<res>``/``back``, ``done``; a multi-pick compose ``g.<res>.<n>`` / ``w.<res>.<n>`` / ``x``;
  answers ``acc.<id>``, ``ref.<id>``, ``lapse.<id>``; other players ``prop`` / ``pass``.
* scoring (owner): ``sc.<element>``; discards ``t.<res>`` then ``k.<count>`` (identical),
  ``diff`` then a multi-pick of 2+ ``d.<res>`` (different), ``none``.
* end of round (simultaneous, private): ``x.<res>.<n>`` (multi-pick) or ``x.<res>``.

Option ids carry a planet's index (0-based, stable for the action log); every label, event
and picture shows the planet's number, index + 1, as drawn on the table. The answer to an
offer is public (it was made on the table, where every hand is open).

View
----
``round``, ``phase``, ``step``, ``scores``, ``over``, ``players``, ``factions``, ``first``,
``planner``, ``slots`` (owner; card once revealed), ``current_slot``, ``planets`` (``sys``,
``type`` once face up, ``building``, ``terraformed_by``), ``ships`` (planet id or -1 for deep
space), ``pieces``, ``bank``, ``hand_count``, ``open_hands`` (only during a Trade action),
``action_cards``, ``scoring_played``, ``artifact_count``, ``artifact_deck``, ``face_down``,
``ending``, ``task``, ``discarding``; once over ``result`` and ``artifacts``. ``private``:
``faction``, ``action_hand``, ``planned``, ``picked``, ``resources``, ``artifacts``,
``armed`` (slot -> artifact armed there) and
``known_planets`` (face-down planets this seat has looked at: id -> type).

Rulings (where the rules are silent or ambiguous; each is tested in
``tests/rules/test_ad_astra_rulings.py``)
---------------------------------------------------------------------------------
R1. 3–5 players; 12 slots for 3–4 players, 15 for 5; 4 cards each with 3 players, 3 with
    4–5. Planning goes clockwise from the first player, one card at a time, any free slot.
R2. Set-up: each seat's home is one of the n SOL planets, face up, with its factory; an alien
    drawn for SOL goes back into the pool before the stars are dealt; the other planets are
    dealt face down as evenly as possible (random systems take the extra ones). Everyone
    starts with one card of each type and a ship in deep space; the first player is random.
R3. Production: every player gets 1 card per own colony and per own ship on a planet of the
    chosen type and 2 per factory; a short bank pays clockwise from the owner, each player
    in full before the next. Alien planets never produce.
R4. Movement: the owner moves one ship, then each other player one ship, then the owner
    each of his other ships; each ship moves at most once per card. Energy: from deep space
    free, to deep space 1, within a card system 1, from another system 2; SOL is never a
    destination.
R5. A move into (or within) a system is offered only when a landing exists there; the mover
    then privately looks at every face-down planet of the system and must land: on a
    face-up planet (not the one it left) or by revealing a face-down one. No landing on a
    planet with another player's pawn. The public log says how many planets were looked at.
R6. Looked-at planets stay in the seat's private ``known_planets`` until revealed.
R7. The first player to reveal an alien planet by landing draws an artifact (kept secret);
    landing later on a face-up alien planet draws nothing.
R8. Build: the owner builds any number of items, then each other player at most one, in
    clockwise order; at most 4 of each piece in play (the home factory counts).
R9. Colony: where you have a ship or your terraformer, on a planet with no colony or
    factory. Factory: replaces your colony (the colony returns). Terraformer: on a food or
    water planet with your colony, factory or ship, one per planet. Alien colony +3, alien
    factory +6, terraformer +4. A ship stays on the planet it colonised.
R10. Scoring: the owner picks the element and takes the first-player token at once; +3 to a
    sole leader only (ties and all-zero give no bonus). Starships in deep space count; SOL
    counts as a system, deep space does not.
R11. Identical / different resources: from the owner's left, the owner last; each discards
    2+ cards of one type / 2–6 cards of different types (or none) for 1 point each; the
    bonus goes to the sole top discarder.
R12. Played scoring cards stay face up beside the board and go back to hand at the end of a
    round in which the third one was played; other cards go back every round.
R13. End of round: every player over 10 resource cards discards down to 10, choosing the
    cards, all at once. Artifacts never count.
R14. The "any ore" of a colony or a ship: when two or more ores could pay it, the builder
    picks one in a small private question (``ore.<res>`` or ``back``); with one possible ore
    it is paid at once. Bots pay with the ore held most (X, Y, Z order on a tie).
R15. Trade: while a Trade action resolves, every hand is open (counts and types) in the
    public view; otherwise only counts are public.
R16. Only the owner trades: offers "give X, want Y" (one multi-pick) to one named player at a
    time, at most 10 offers per window; the recipient accepts or refuses; an offer not
    answered lapses on its own timer, a third of the window's (the lobby's ``trade_time``:
    live 40 s of 120 s, days 4 h of 12 h), so an offer can lapse while the window is open.
R17. Other players may each send the owner up to 3 proposals per window (one open at a
    time); only the owner can accept them.
R18. Bank trades (owner only) are 2 identical cards for 1 of any other type, at once.
R19. An accepted offer moves the cards at once; it can only be accepted while both sides
    still hold the cards. Offers settle in cards only — no promises.
R20. The window closes when the owner presses Done or the trade time runs out; open offers
    and proposals then lapse.
R21. The game ends at the end of the round in which a player reaches 50 points or the last
    face-down planet is revealed. Most points wins; equal totals share the place (the
    rules give no tie-break).
R22. Artifacts (effects DESIGNED, see the data file): Repositorium Alienum is applied at once
    (one card of each type as far as the bank allows, in W F E X Y Z order); the others are
    used during the holder's own decision: Stellarum Ianua (one move to any star system,
    free), Propulsor Gravitationis (free moves, and all your ships as if you owned the
    card), Speculum Astrorum (look at two systems), Machina Fabrilis (one free build; for a
    non-owner an extra item), Cornu Copiae (the owner of a Production doubles his share),
    Tropaeum Antiquum (+5), Commercium Alienum (during a Movement or Build step of yours:
    up to 3 cards swapped with the bank one for one, each a give then a take, stop at any
    time; spent once opened). Two are armed secretly on any slot during planning (``arm.<id>``
    then ``a.<slot>``, at most once a round each, not a turn): Omnibus Rebus Responsum
    (optional) makes its holder the owner of that card while it resolves (chooses, acts
    first, owner's privileges, first player on a Scoring; the card still goes back to its
    owner); Sigillum Arbitri lets its holder make the owner's choice of another player's
    Production or Scoring (the owner keeps first player; Cornu Copiae is not offered then).
    On a slot both apply Responsum first; an armed artifact that cannot act there (the
    holder's own card, or Sigillum on another kind) goes back to its holder unused. Magnum
    et Antiquum Arcanum (optional) scores +7 at the end and never triggers the end. Every
    artifact is in the deck; the lobby's ``artifacts`` option leaves the two optional ones
    out (``base``) or in (``all``).
R23. A trade exchanges cards of different types (the rulebook's trades swap one resource
    for another; the bank's never gives back the type it takes): an offer or proposal that
    gives and asks for the same type is not sent (the compose closes as if cancelled, no
    offer is used up, and the table says why). A game whose lobby was stored before R23
    (no hidden ``rules`` option: rules 1) still sends such offers, so it replays as played.
R24. Ships are named by where they are (planets carry their number, 1-based, on the table):
    ships of one seat at the same place are alike, so a movement offers one button per place
    and destination; a move of another ship at that place is still accepted (stored games
    replay).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.contract import OptionSpec
from rules.kit import EngineGame

from . import engine, view
from . import search as _search
from .bot import choose as _bot_choose

__all__ = ["GAME", "AdAstraGame"]


class AdAstraGame(EngineGame, game="ad_astra", players=(3, 5), search=_search, bot=_bot_choose):
    """The Ad Astra game object registered with the host (see core.contract)."""

    engine = engine
    views = view
    options: tuple[OptionSpec, ...] = (
        OptionSpec("trade_time", "ad_astra.opt.trade_time", ("live", "days"), "days"),
        OptionSpec("artifacts", "ad_astra.opt.artifacts", ("base", "all"), "base"),
        # Hidden (``unused_options``): the rulings a new lobby is opened under (R23).
        OptionSpec("rules", "ad_astra.opt.rules", (str(engine.RULES),), str(engine.RULES)),
    )
    #: An absent player's move, when skipped.
    skip_options = ("pass", "done", "none", "stop")
    #: The pictographs its labels use, with their meaning (the table's legend).
    symbols: Mapping[str, str] = {"→": "ad_astra.legend.to"}

    def unused_options(self, options: Mapping[str, str]) -> list[str]:
        """The rulings version is never a choice: the lobby neither lists nor switches it."""
        return ["rules"]

    def gone_reason(
        self, state: dict[str, Any], seat: int, option_id: str
    ) -> tuple[str, dict[str, Any]] | None:
        """Why a trade answer is no longer offered: the deal was settled or ran out."""
        verb = option_id.split(".")[0]
        if verb in ("acc", "ref", "lapse"):
            return "ad_astra.gone.deal", {}
        if verb in ("get", "offer", "bank", "prop") or option_id == "done":
            return "ad_astra.gone.trade", {}
        return None


GAME = AdAstraGame()
