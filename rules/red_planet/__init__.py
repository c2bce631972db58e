"""Mission: Red Planet (Bauza & Faidutti, FFG 2nd edition 2015) — the pure rules engine, 2–6.

``GAME`` is the object the host registers. The state is a plain JSON-compatible dict; every
random act draws from ``random.Random(f"red_planet:{seed}:{counter}")`` with the counter kept
in the state (``rules.kit.rng``). Component data (map, ships, events, characters) comes from
``data/red_planet/*.json``; the values the fact sheet marks DESIGNED carry a ``status`` there.
Colours are numbered like seats; with two players a neutral colour (index 2) joins, which is
never a seat.

Decisions and option ids
------------------------
* set-up (simultaneous, private): ``keep.<mission>`` — the mission kept of the two dealt.
* each round (simultaneous, private): ``c9`` … ``c1`` — the character chosen from the hand;
  then, for each action card held (Reinforcements, Emergency Launch, Course Correction, in
  that order), ``play`` / ``keep``: whether to play it this round (R22).
* countdown (the resolving player, one decision at a time): ``d<i>`` a docked ship (place an
  astronaut, place 3, launch, destroy); a zone id (``VM`` … ``PH``) for a destination token,
  a discovery's zone or a Phobos drop (``drop.<zone>``); ``mv.<from>.<to>`` an Explorer move;
  ``draw`` / ``peek.<zone>`` (Scientist); ``ff.<where>.<colour>`` and ``kill.<zone>.<colour>``
  (``where`` = ``d<i>`` docked ship, ``l<j>`` launched ship or a zone); ``d<i>``/``l<j>`` then a
  zone (Pilot, Course Correction); ``done`` stops moving or dropping, or leaves a played
  Emergency Launch or Course Correction without effect.

View
----
``round``, ``phase``, ``scores`` (value of the point tokens held; the final total once over),
``over``, ``step``, ``players``, ``colours``, ``neutral``, ``first``, ``docks`` / ``launched``
(``id``, ``cap``, ``printed``, ``token``, ``dest``, ``crew`` as colours), ``zones`` (per zone:
``astronauts`` per colour, ``resource`` once face up else None, ``pile`` of point tokens,
``discovery`` None / ``"hidden"`` / card id once revealed), ``supply``, ``memorial``,
``dest_tokens``, ``tokens`` per colour, ``played``, ``hand_size``, ``chosen`` (who has a
hidden choice waiting, never what), ``revealed`` ([colour, character] this round),
``resolving``, ``card_count`` (missions and action cards held, face down alike: never how
many of each), ``choosing_mission``, ``event_deck``,
``event_discard``, ``waiting``; once over ``result``, ``missions`` and ``reveal`` (lines for the
final message: each mission held, met ✓ or not ✗ with its points; action cards never played).
Every production says, zone by zone, who took which tokens (or why they wait); the final
scoring names each player's missions, Ice Monopoly, discoveries and sum. ``private``
holds ``hand``, ``chosen``, ``missions`` (with points if scored now), ``actions``,
``committed`` (the action cards this seat plays this round), ``dealt`` and ``discoveries``
(face-down ones this seat knows, by zone). Zone names in event and option arguments are
``{"en": ..., "es": ...}`` mappings taken from ``red_planet.render.zone.<id>`` (the names the
picture draws), shown by core.i18n in the reader's language.

Rulings (where the rules are silent or ambiguous; each is tested in
``tests/rules/test_red_planet_rulings.py``)
----------------------------------------------------------------------------------------
R1. The launchpad has one dock per colour and at least 3; two players play with one neutral
    colour, so 3 docks.
R2. Set-up ships: a "?" ship drawn for a dock goes back into the deck at a random place below
    the top and drawing goes on until every dock has a destination; only then, with no Phobos
    ship on the pad, one of the two Phobos tokens goes on the rightmost ship.
R3. One astronaut per colour is placed at random, one per docked ship; the owner of the
    leftmost one is first player (the leftmost human one, if the neutral's is leftmost).
R4. Each player is dealt 2 missions and keeps 1 in secret, all at once; when everyone has
    chosen, the returned missions, the undealt ones, the discoveries and the actions are
    shuffled into the event deck.
R5. Characters are chosen at once and in secret; the public view says who has chosen, never
    what, and a choice stays hidden until its number is called. A seat counts as having
    chosen only once it has also answered for its action cards (R22).
R6. Countdown 9→1; players sharing a number go clockwise from the first player; the neutral
    goes after the humans.
R7. Astronauts are placed one decision at a time, on docked ships with room. The Scientist's
    two may share a ship; the Secret Agent's second must go on another ship. With no
    astronaut left in supply, or no ship with room, a placement is skipped.
R8. Whoever puts the first astronaut on a "?" ship at once chooses its destination among the
    zones with a destination token left.
R9. A ship that fills launches only after the whole effect of the current character (its
    special part included), in dock order; meanwhile it is full and takes nobody. The
    Saboteur may destroy it (the rulebook's case); the Secret Agent launches only a ship that
    is not full, possibly an empty one.
R10. Travel Agent: all or nothing: with no docked ship with 3 free seats (or fewer than 3
    astronauts in supply) the whole effect is skipped.
R11. Explorer: up to 3 moves between adjacent zones, the same astronaut as often as wished,
    ``done`` stops early; Phobos has no neighbours. Entering a zone reveals its resource.
R12. Scientist: draw or peek. Drawn missions and actions stay secret (the table sees one
    more face-down card, not which kind); a drawn discovery is
    hidden on an outer zone without one (known to the drawer); with none free it is discarded
    face up and the Scientist peeks instead. An empty deck leaves only the peek.
R13. Saboteur: destroys any docked ship; everyone aboard goes to the Memorial, the ship to the
    discard, its destination token to the supply.
R14. Femme Fatale: replaces an opposing astronaut (neutral included) on a docked ship, a
    launched ship or in a zone where the player already has one, with one from supply; the
    victim goes to the Memorial. With an empty supply the effect does nothing.
R15. Soldier: kills an opposing astronaut in a zone (Mars or Phobos) where the player has
    one, then drops up to 3 of its astronauts from Phobos to any Mars zones, one decision
    each (``done`` stops).
R16. Pilot: any docked or launched ship gets a token for any zone with one left, other than
    its current destination; a token it had goes back to supply.
R17. Ships land after all characters, in launch order; the first astronaut to reach a zone
    reveals its resource (landing, Explorer or Soldier). An empty "?" ship is just scrapped.
R18. Empty docks are refilled (reshuffling the discard into a new deck when needed); "?"
    ships are not replaced during play.
R19. The last human player to resolve becomes first player.
R20. Production: face-up zones add 1/2/3 tokens of their type; a sole majority takes the
    whole pile; tied leaders each take ⌊pile ÷ leaders⌋ of each type and the rest stays; an
    empty zone keeps everything. Tokens left after Production III score for nobody.
R21. After round 10: discoveries are revealed (their immediate effects applied in zone
    order), then Production III (with the P3 discoveries), then final scoring.
R22. Whether to play an action card is decided in secret with the character: right after
    picking it, a holder answers "play this round?" for each card held (Reinforcements,
    Emergency Launch, Course Correction), still counted as choosing, so the table cannot
    tell a holder who declines from a player holding no action card. A committed card is
    revealed (and discarded face up) at its moment, and only then is the holder asked in
    public how to use it: Reinforcements when the character is revealed (2 placements
    before its effect), Emergency Launch once the character has resolved (a docked ship
    with room, or none), Course Correction after all characters, holders clockwise from the
    first player (a launched ship to reroute, or none). A committed card with no legal
    effect at its moment is still revealed and discarded. A card drawn during a round can
    be played from the next round on. Blocks of Ice plays itself at the next production.
R23. Missions and discoveries that say "most" need a strict sole maximum over every colour
    (the neutral's astronauts count).
R24. Ice Monopoly: among the players only; 9 points split equally (rounded down) between the
    tied holders of the most ice tokens; nobody scores it with no ice at all.
R25. Final ranking by score, then by the number of point tokens; still tied, shared place.
    The result names the tie-break ("the most point tokens held") only when it split
    players equal on points.
R26. Two players: the neutral flips the top card of its shuffled 9-card deck each round, and
    its Recruiter reshuffles all nine into a new deck. It places on the docked ship closest
    to full (leftmost on a tie), sends "?" ships to the first zone with a token, targets the
    player with the most token value (lowest seat on a tie), launches the fullest ship that
    is not, draws events into a pile it never uses, never moves or drops astronauts, and
    reroutes the first ship it may to the first zone it may. It wins point tokens but no
    missions or Ice Monopoly, never becomes first player and is not ranked.
R27. 22 astronauts per colour: killed ones stay in the Memorial for good.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.contract import OptionSpec
from rules.kit import EngineGame

from . import engine, view
from . import search as _search
from .bot import choose as _bot_choose

__all__ = ["GAME", "RedPlanetGame"]


class RedPlanetGame(
    EngineGame, game="red_planet", players=(2, 6), search=_search, bot=_bot_choose
):
    """The Mission: Red Planet game object registered with the host (see core.contract)."""

    engine = engine
    views = view
    options: tuple[OptionSpec, ...] = ()
    #: An absent player's move, when skipped: keep the action card, stop moving.
    skip_options = ("keep", "done")
    #: The pictographs its labels use, with their meaning (the table's legend).
    symbols: Mapping[str, str] = {
        "🚀": "red_planet.legend.docked",
        "🛸": "red_planet.legend.launched",
        "→": "red_planet.legend.to",
    }


GAME = RedPlanetGame()
