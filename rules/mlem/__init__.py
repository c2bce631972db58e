"""MLEM: Space Agency (Reiner Knizia, Rebel 2023) — the pure rules engine, 2 to 5 players.

``GAME`` is the object the host registers. The state is a plain JSON-compatible dict; every
random act draws from ``random.Random(f"mlem:{seed}:{counter}")`` with the counter kept in
the state, so the same seed and the same choices give the same ``dump()``, bit for bit.
Board data (track, moons, planets, tiles) comes from ``data/mlem/board.json``.

Decisions and option ids
------------------------
* missions (variant, simultaneous, private): ``drop.<mission>`` (``/`` written ``-``,
  e.g. ``drop.7-8``) — the tile to give back; the other three are kept.
* launch (one seat at a time, from the voyage's starting player): ``board.<ability>``.
* exploration (commander): ``go.<parts>`` (or, with many movements, the parts picked in
  steps, see R32) where parts are the dice groups used (``A``, ``1`` …
  ``4``), ``b<seats>`` for the booster astronauts used (by owner seat), ``x`` for the
  expedition tile's extra dice and ``k`` for its keep-dice power, joined by ``+``
  (``go.A+1+b02``); also ``reroll`` (expedition tile) and ``crash`` (give up when only
  rescues remain).
* landing (rocket order): ``land``, ``land.up`` / ``land.down`` (shifter), ``stay``.
* parachute after a crash: ``chute.land`` / ``chute.back``.

Events and views
----------------
``Event.code`` is the full i18n key (``mlem.event.roll``); texts live in
``data/mlem/strings.json``. Rolls, tile reveals and draws carry ``reveals=True``; the value of
a drawn UFO tile or a taken reconnaissance points tile goes in a ``private_to`` event. The
view follows the schema agreed with the renderer and adds: ``step`` (the engine's own phase:
``missions`` shows as ``mlem.phase.launch``, ``chute`` as ``mlem.phase.land``), ``end``,
``space_info`` (faces and afterburner value of the rocket's space), ``moon_astronauts`` /
``planet_astronauts`` / ``deep_astronauts`` (who and which ability), ``disaster_limit``,
``last_voyage``, ``waiting`` (seats with an open decision), ``used`` on rocket crew entries
(flipped booster), and once the game is over ``result`` and ``missions.revealed``.
``boards[i].boosters_used`` counts seat i's booster tiles flipped in the current voyage.

Rulings (where the rulebook is silent or ambiguous; each one is tested in
``tests/rules/test_mlem_rulings.py``)
--------------------------------------------------------------------------------------------
R1. The satellite starts the rocket on space 3 (``satellite_space`` in board.json), however
    many satellites are aboard; the choice is made once everybody has boarded.
R2. The commander cannot pass: if anything can move the rocket, one of the movements must be
    chosen (any non-empty mix of usable groups, boosters and the extra-dice tile).
R3. Rescues are optional. When no rolled die fits the space but a booster, the extra-dice
    tile or a reroll is available, the commander may use one or choose ``crash``; with no
    rescue at all the crash happens by itself. The reroll may be spent on any roll.
R4. Boosters are separate from the rolled "1" group: they can be used alone, with or
    without the 1s, several at once, each once per voyage, only on a space that shows a 1.
    As the rulebook says, the commander picks which boosters: the option names their owners
    (``b02`` = the boosters of seats 0 and 2); the label names them when it is a choice.
R5. The comet (7 points) goes to whoever is commander when the rocket reaches deep space,
    possibly a successor of the voyage's starting player; everyone else goes to the galaxy.
R6. The shifter lands as if the rocket stood one space farther or nearer: on that space's
    planet, or its highest free moon for that moon's value. It only works in a landing phase
    (never after a crash, never from spaces 0-5, and 6 - 1 = 5 has nothing to land on).
    Missions and objectives count the body actually landed on. An option that would land on
    the same body as plain landing (a planet linked to both spaces) is not offered twice.
R7. Shifter +1 from space 25 reaches deep space: galaxy, 5 points, counts as deep space.
R8. Parachute: after a crash on a space with a planet or a free moon, each parachutist in
    rocket order may land there (highest free moon, points at once) or go back to the
    board; the landing counts for objectives, missions and the 8-astronaut end. Parachutists
    with nowhere to land go back without a decision.
R9. Saboteur: when it disembarks during a landing phase and astronauts remain aboard, the
    commander's pool loses one die (to the discards), but never the last die, so with a
    single die it has no effect. Its own commander's saboteur discards before command
    passes (the pool passes on anyway). Leaving to deep space or by parachute ends the
    voyage, so nothing is discarded then.
R10. Objectives are checked after every single placement; the first astronaut in rocket
    order to complete one claims it. One placement may claim several objectives.
R11. The planet doubler doubles its owner's whole award on that planet, once.
R12. (UFO) When the expedition pile is empty, voyages start with 6 dice, no tile power and no
    UFO move. An unused tile power is lost at the end of its voyage and passes to a new
    commander within the voyage.
R13. (UFO) The expedition tile is revealed at the start of a voyage, before anyone boards.
R14. (UFO) The UFO never moves below space 1; with no UFO tiles left an encounter gives
    nothing.
R15. (UFO) The UFO starts in deep space; a rocket reaching deep space meets it there first,
    then everybody lands in deep space.
R16. End of an exploration: move, discard used number dice (keep at least one), then the
    reconnaissance tile of the final space (wormholes chain), then the UFO check on the
    final space, then the landing phase (none on spaces 0-5).
R17. (UFO) Dice the expedition tile sets aside count as discarded: a recover tile can bring
    one back.
R18. (UFO) The keep-dice power is declared with the move (``+k``) and is only offered when
    the move uses rolled number dice (afterburners are never discarded anyway).
R19. (UFO) The extra-dice power adds every pictured die the current space accepts (never
    only some of them) and may be combined with rolled groups and boosters; pictured dice
    are never discarded; if no pictured die fits the space it cannot be used there.
R20. (Recon) Tiles trigger wherever an exploration ends, including space 4 (no landing
    there). A tile revealed to refill a slot does not trigger for the rocket already on it.
R21. The end trigger counts astronauts on moons, planets, comet and galaxy; reaching 8 ends
    the game when the current voyage ends (after any parachute landings).
R22. The eleventh crash ends the game at once: nobody parachutes from it.
R23. The first voyage's starting player is drawn from the seed; afterwards it passes to the
    next seat every voyage, whoever held the command when it ended (the crash paragraph
    says "the commander" hands the rocket on, but the rocket stays with the voyage's
    starting player precisely to keep the turn order, so we follow that).
R24. (Recon) Points tiles lie face up on the track, so their values are public there; once
    taken they are kept face down: only the taker sees the value (private event and view).
    The public log says a points tile was taken, not its value.
R25. (UFO) UFO tiles are drawn face down: the value is private to the taker until the end.
R26. (Recon) Recover with no discarded die does nothing; the tile leaves the track anyway and
    is replaced. A wormhole moves 4 spaces and can reach deep space.
R27. (Missions) Players choose simultaneously, before the first voyage, which of the four
    dealt tiles to return. A mission is complete when one of the owner's astronauts is on a
    moon or planet linked to one of the tile's spaces; deep space never completes one.
R28. Moving past space 25 reaches deep space.
R29. In a landing phase each astronaut decides once; astronauts that cannot land anywhere
    (all moons of the space taken and no shifter option) stay without being asked.
R30. Ties on the final score share the place (ranks 1, 1, 3): the rulebook has no tie-break.
R31. Crashing sends every non-parachutist home with its booster unflipped; nothing is lost.
R32. (Interface, not a rule) With more than 12 possible movements the commander picks the
    dice in steps: a multi-pick of the parts (dice groups ``A``, ``1`` … ``4``, boosters
    ``b<seat>``, the tile's extra dice ``x``; any non-empty mix is a movement; ``reroll``
    only on its own), then, when the keep-dice power applies to that mix, a second
    question with the two movement ids (``go.…+k`` keep, ``go.…`` discard). The state
    holds the first step in ``pick``. A movement id (``go.…``) is accepted at any time,
    so both forms replay.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.contract import OptionSpec
from rules.kit import EngineGame

from . import engine
from . import search as _search
from .bot import choose as _bot_choose

__all__ = ["GAME", "MlemGame"]


class MlemGame(EngineGame, game="mlem", players=(2, 5), search=_search, bot=_bot_choose):
    """The MLEM game object registered with the host (see :mod:`core.contract`)."""

    engine = engine
    options: tuple[OptionSpec, ...] = (
        OptionSpec("ufo", "mlem.opt.ufo", ("off", "on"), "off"),
        OptionSpec("recon", "mlem.opt.recon", ("off", "on"), "off"),
        OptionSpec("missions", "mlem.opt.missions", ("off", "on"), "off"),
    )
    #: Symbols in prompts and option labels, and what they mean (the table's legend).
    symbols: Mapping[str, str] = {
        "→": "mlem.legend.to",
        "🔥": "mlem.legend.afterburner",
        "🐱": "mlem.legend.booster",
        "🛸": "mlem.legend.extra",
        "🔒": "mlem.legend.keep",
    }
    #: An absent player's move, when skipped: stay aboard, or fly the parachutist home.
    skip_options = ("stay", "chute.back")


GAME = MlemGame()
