"""Kosmonavts — pure rules engine (2–4 players, basic and advanced rules).

``GAME`` implements :class:`core.contract.Game` (id ``"kosmonavts"``) plus
``bot_choice(state, seat, rng) -> option id``. Component data are read once from
``data/kosmonavts/`` (``board.json``, ``events.json``, ``missions.json``; texts in
``strings.json``). The state is plain JSON data; ``dump``/``load`` copy and check it.
Engine helpers come from the kit (:mod:`rules.kit`). Randomness: ``kit.rng`` with the stream
``random.Random(f"{seed}:{counter}")``, the counter ``rng`` stored in the state.

Lobby options
-------------
``rules``: ``basic`` | ``advanced``;  ``planets``: ``random`` | ``players`` (placed in turn).

Decisions (option ids)
----------------------
* set-up (public, one seat at a time): ``body.<body>`` then ``space.<i>`` (0-based orbit index).
* advanced missions (PRIVATE, all seats at once): ``keep.<0-3>`` twice, ``undo``, ``confirm``.
* event phase: the instructor picks ``event.<card id>``; then every concerned seat answers at
  once (public): ``accept`` | ``shield`` | ``pay`` | ``skip`` | ``pull.<body>``.
* orders (PRIVATE, all seats at once): ``add.<dir>`` (yellow), ``addh.<dir>`` (red hyperfuel),
  ``undo``, ``convert`` (shield -> 2 fuel), then one closing option: ``confirm`` (fly / take off),
  ``stay`` (stay landed and refuel; advanced: quick refuel), ``stayfull`` (advanced full refuel,
  one shield) or ``evac`` (ask for evacuation). ``<dir>`` is ``e ne nw w sw se``.
* landing (public, seats whose ship is on a body's hex): ``land`` | ``noland``.
* marker choice (public, one lander at a time in landing order, when ships land on the same
  body in the same phase and more than one marker value is left): ``marker.<value>``.

View schema (``view(state, None)``; every key always present)
-------------------------------------------------------------
::

    game "kosmonavts", rules "basic"|"advanced", players n,
    round int|None (None during set-up), round_limit int,
    phase "kosmonavts.phase.setup|missions|event|orders|flight|planets|over",
    step  "kosmonavts.step.place_body|place_space|choose_event|respond|landing|marker" | None,
    over bool, end None|"return"|"limit",
    scores [int]            running: landing + Earth markers; when over: final totals
    instructor seat, waiting [seats with an open decision],
    board {radius 17, sun [0,0]},
    bodies {body id: {kind "planet"|"comet", pos [q,r]|None (not yet placed), index int|None,
            spaces int, next [q,r]|None (where it stops after phase 4),
            markers [values left, top first] (Earth: its 2-VP markers), removed bool
            (advanced 2/3 players: no markers/missions), landed_by [seats, arrival order]}},
    ships [{seat, pos [q,r]|None (set-up), landed body|None, last_visited body,
            rose {e,ne,nw,w,sw,se: thrust units (yellow 1, red 2)}, velocity [dq,dr],
            tank (fuel+hyper), fuel, hyper, shields, markers {body: value},
            earth_marker 0|2, returned 0|1|3|4 (phase of the game-ending Earth landing),
            evacuated bool (this round), cube_limit int (this round)}],
    events {face_up [card ids], active card id|None, active_kind str|None, deck n, discard n},
    confirmed [bool per seat] during orders, else None   (nothing else about orders!)
    setup {turn seat, picked body|None, hands [[bodies]]|None} during set-up, else None
    missions_chosen [bool per seat] during the advanced mission choice, else None
    responses {asked [bool], answered [bool]} while an event waits for answers, else None
    landing {phase 3|4, bodies [body|None per seat], answered [bool]} or None
    marker_pick {seat, body, phase 1|3|4, values [int, highest first],
                 next [seats still to land in this phase]} or None

``view(state, seat)`` adds ``private``::

    {seat, missions [{id "m1.mars", kind "m1"|"m2", body, name (i18n key), points,
                      done_now bool (would score if the game ended now)}],
     dealt [4 missions]|None (advanced, before the choice), kept [indices]|None,
     order [{dir, hyper bool}]|None, converted bool|None, final closing id|None,
     picks_left int|None,
     preview {action "fly"|"stay"|"evac", end_hex [q,r], path [[q,r],...],
              danger "none"|"danger_sector"|"danger_no_shield"|"sun"|"off_board",
              lands_on body|None (phase 3), phase4_body body|None (will stop on the end hex),
              velocity [dq,dr], fuel_after, fuel, hyper, shields_after}|None}

Until the last seat confirms, ships' tanks, shields and roses in any view are those of the
start of the phase; the composed order lives only in its owner's ``private``. Missions never
appear in the public view; at the end they are revealed by ``mission_done.*`` /
``mission_failed.*`` events and counted in ``result().breakdown`` (``markers``, ``earth``,
``mission1``, ``mission2``). Event codes are fully qualified keys
(``kosmonavts.event.<code>``).

Rulings (rulebook = /work/shared/rules/kosmonavts_es.txt; R1–R23 follow the proposals in
/work/shared/games/kosmonavts.md §8, except R12, R13 and R15, which now read the rulebook
literally; each is tested in tests/rules/test_kosmonavts_rules.py)
---------------------------------------------------------------------------------------------
R1  "espacios marcados": any space of a body's orbit is a legal start. Basic placement by
    players: the nine tokens are dealt from the instructor clockwise (the instructor stands
    in for "el jugador más joven"); in turn each places one of their own tokens; a seat with
    no token left is skipped. Advanced: from the instructor clockwise, Earth first, then any
    body. Option ``random`` draws every space from the seed.
R2  "la coloca en la Tierra": ships start landed on Earth, last visited = Earth, empty rose.
R3  "Cada cubo de hipercombustible cuenta como dos": the rose holds thrust units; new units
    first remove units in the opposite direction. The 3/4/0 limit counts cubes, not units.
R4  Solar wind "si permanece en un planeta": a flying ship gets the cubes unless it pays a
    shield. A landed ship may pay a shield too; otherwise the cubes wait on its rose and are
    thrown away if it stays landed in phase 2 (they count only if it takes off).
R5  "Cada jugador solo puede convertir un cubo": once per round, any time while composing
    the order (also under Solar flares); 2 yellow into the tank, what does not fit is lost.
R6  "solo importa el hexágono donde terminan": landing and danger look at the end hex only.
R7  "fuera de los límites": off-board means the end hex is off the board (on the hex disc
    some step order always stays on the board when the end does).
R8  "El Sol ... imposible desplazarse a través": emergency if the end hex is the Sun or the
    move uses one single direction whose straight line crosses the Sun; with two or more
    directions the ship goes round it (find_path shows one order).
R9  Danger: at the end of phase 3 every flying ship on a belt or Sun-ring hex (moved or not)
    loses a shield, or is evacuated without one. Gravity and carried ships never end there.
R10 Evacuation empties the rose, puts the ship landed on its last-visited body (not a
    landing: no marker, no "last visited" change), and it may not fly or refuel this round;
    next round it is a normal landed ship. "pedir la evacuación durante la fase 3": asked for
    with the order option ``evac`` (flying ships with no cubes placed), carried out at the
    start of phase 3 instead of flying.
R11 Landing is optional (a public decision), for a ship whose flight ends on a body's hex in
    phase 3 (also one that did not move) or on whose hex a body stops in phase 4. Every
    landing (refuel stops, Earth, removed bodies) sets "last visited".
R12 "cogen un marcador de aterrizaje entre los disponibles, comenzando por el jugador que posee
    la ficha de instructor": ships landing on the same body in the same phase land one by one
    from the instructor clockwise, and each CHOOSES any marker left (a public decision
    ``marker.<value>``; Mission 2 rewards the second marker). No choice when one value is
    left. A lone lander takes the top (highest) one. A player who already holds a marker of
    that body takes none. Phase 1 < phase 3 < phase 4.
R13 Gravity: flying ships at distance 0–2 of any body (Earth and comet included) land on the
    nearest, choosing among equidistant ones; a shield avoids it (DESIGNED). It is a landing
    (markers as in R12, phase 1) but not one "antes de la ronda actual": the ship may stay
    landed in this round's phase 2 without refuelling (``stay``; see R15). A qualifying Earth
    landing by Gravity counts as a phase-3 return.
R14 Refuelling card: applied to everyone automatically (a red cube never hurts). Energy
    conversion: each seat decides; +5 yellow, capped at the tank. Asteroids: only yellow tank
    cubes are lost; a shield avoids it (DESIGNED). Thrust and Solar flares (shield avoids,
    DESIGNED) act on this round's orders only.
R15 Refuel = stay landed with no cubes, for a ship landed before the current round ("ya había
    aterrizado ... antes de la ronda actual"; not one pulled down by Gravity this round: its
    ``stay`` keeps it landed without refuelling, and ``stayfull`` is refused). Basic: one red
    into a free slot (or in place of a yellow when full; never past 4 red), then fill with
    yellow. Advanced: ``stay`` = quick (up to 5 yellow, free), ``stayfull`` = pay a shield,
    then as basic. A stay that may refuel always does: it can never hurt.
R16 The supply is unlimited; only tank 10, red 4, shields 3 are limits.
R17 Basic end: landing on Earth (phase 1, 3 or 4) with markers of at least 7 of the 8 other
    bodies ends the game after phase 4. Earth markers (2 VP) go to phase 1/3 returners; to
    phase-4 returners only if there is none. Being parked on Earth does not count.
R18 Advanced end: 4 markers, or "no puede obtener más": every body still missing is removed
    or has no marker left. Every qualifying returner that round takes an Earth marker.
R19 Missions: M1 = holding the body's top marker; M2 = holding its second marker, or being the
    only player who ever landed there (marker-less landings count).
R20 Ties, basic: VP, then return phase (1/3 before 4 before none), then value-4 markers, then
    shared. Advanced: VP, then shields left, then the basic tie-breaks, then shared. When a
    tie-break split players equal on VP, ``result().tiebreak`` names the ones used, down to
    the deepest needed (the final message says "Tie broken by …").
R21 The basic game uses four markers per body for any player count; no bodies are removed.
R22 Secret: orders (until all are confirmed) and missions. Public: marker values, event
    answers, landing choices.
R23 Typos ignored: repeated set-up steps; "returned to the box" removes only markers/missions.
R24 DESIGNED safety net: the game ends after round 40 (``ROUND_LIMIT``) even without a return,
    and is scored normally; pilots need about 20 rounds, so only stalled games meet it.
R25 Mission 1 redraw ("robar otra del mazo hasta"): if the Mission 1 deck runs out, the
    discarded Mission 1 cards are shuffled into a new deck.
R26 Advanced missions are dealt before the planets are placed (advanced steps 3–5), so the
    placers know them; the choice of 2 is made after placement, secretly and at once.
R27 Orders are final once confirmed ("no pueden efectuar cambios": the ``order_confirmed`` event
    is marked ``reveals``, so the host never offers to take it back); a seat may make at most
    16 picks (``STEP_CAP``) while composing, then only closing options remain. Likewise the
    advanced mission choice allows 8 picks; then the first unkept cards fill the two places.
R28 A landed ship that places cubes takes off even if they cancel its waiting wind cubes.
R29 Seats sit clockwise in index order; "a su izquierda" = next seat index.
R30 After an event the card is discarded, then a new one is drawn; the discard pile
    (including that card) is reshuffled when the deck is empty.
"""

from __future__ import annotations

from .game import GAME

__all__ = ["GAME"]
