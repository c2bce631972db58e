"""The game contract: what every game in ``rules/`` provides and what the host relies on.

A game is a module-level ``GAME`` object (any object with the attributes of :class:`Game`)
registered in :mod:`host.registry`. The host never looks inside a game's state; it only
calls these functions and stores what :meth:`Game.dump` returns.

Conventions every game follows
------------------------------
* **Pure.** ``apply`` never mutates its input; it returns a new state. No I/O, no discord,
  no SQL, no PIL, no module-level ``random``: randomness comes from a seeded generator whose
  state is stored *inside* the game state, so ``new(n, options, seed)`` followed by the same
  choices gives the same states, bit for bit (compared through ``dump``).
* **Picks.** A :class:`Decision` is answered by one option id, or, when it allows several
  picks (``min_picks``/``max_picks``), by several distinct offered ids joined with
  :data:`MULTI_SEP` in the order the options are listed (see :func:`join_picks` and
  :func:`split_picks`), applied as one action. Moves that are really several steps are a
  sequence of decisions, each a separate ``apply``.
* **Identity.** A decision is the same question as long as its seat, its ``key`` (the
  prompt and its arguments when the game gives no key) and the seat's own number of moves
  stay the same: options may come and go meanwhile (a shared pool) without making the
  question stale. A click on an option that is no longer offered is refused on its own.
* **Timers.** A decision may carry a :class:`Timer`: when it has been open for
  ``seconds``, the host applies ``option`` for that seat as an ordinary logged action.
  Durations come from the state (e.g. a lobby option read in ``new``), never from a clock.
* **Layout.** ``grid`` (rows, columns) asks the UI for a grid of buttons in which each
  option sits at its ``cell``; options without a cell go below the grid. A grid larger than
  a message holds is shown a block at a time, with arrows to the other blocks. A
  multi-pick decision is shown as a select menu taking ``min_picks``..``max_picks`` values
  (at most 25 options). Where the generic layout is clumsy a game may give its own rows of
  buttons through the optional ``panel`` hook (see :class:`Game`).
* **Option ids** are short stable strings matching ``[A-Za-z0-9_.+-]{1,40}``; they travel in
  Discord custom_ids and in the action log.
* **Text is keys, not sentences.** Prompts, option labels, event codes and view labels are
  i18n keys plus arguments; the strings live in ``data/<game>/strings.json`` (``en`` and
  ``es``). An argument whose name is ``seat`` or ends with ``_seat`` holds a seat index and is
  shown as that player's name; one whose name ends with ``_key`` holds an i18n key and is
  shown as that key's text ("Land your {astronaut_key} astronaut…").
* **Prompts say what is decided.** The table shows each open public decision's prompt
  with whose it is, so a prompt names what it is about ("land your Moon ×2 astronaut…"),
  not only "choose". A private decision's prompt is shown to its seat alone; the table
  says only that the seat is choosing in secret.
* **Standing decisions.** What a seat may do at any time without being asked (give up a
  flight) is not in ``pending`` but in the optional ``standing`` hook (see :class:`Game`
  and :func:`standing_of`): nobody is waited for, pinged or timed on it, and bots never
  take it. Its identity and tokens work as for any decision.
* **Secrets stay in views.** ``view(state, None)`` is the public view: nothing private to any
  seat. ``view(state, seat)`` adds what that seat may see. Channel messages and public images
  are built from public views only.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

JSON = Any
State = Any


class IllegalMove(Exception):
    """A choice the rules refuse. ``code`` is an i18n key, ``args`` its parameters.

    The Discord edge turns it into a sentence; the state is unchanged.
    """

    def __init__(self, code: str, **args: Any) -> None:
        super().__init__(code, args)
        self.code = code
        self.args_ = args

    def __str__(self) -> str:
        return f"{self.code} {self.args_}" if self.args_ else self.code


#: Joins the ids of a multi-pick answer (never part of an option id).
MULTI_SEP = ","


@dataclass(frozen=True)
class Option:
    """One thing a seat may pick. ``label`` is an i18n key formatted with ``args``."""

    id: str
    label: str
    args: Mapping[str, Any] = field(default_factory=dict)
    #: "primary" | "secondary" | "success" | "danger" — a hint for buttons.
    style: str = "secondary"
    #: (row, column) in the decision's ``grid``, if it has one.
    cell: tuple[int, int] | None = None
    #: In a multi-pick decision: this option can only be picked on its own.
    alone: bool = False


@dataclass(frozen=True)
class Timer:
    """A decision that runs out: after ``seconds`` open, ``option`` is applied for the seat.

    ``key`` names this run of the timer (e.g. ``"turn.12"``): the host starts counting the
    first time it sees the key open (on any seat's decision) and fires it once, even across
    restarts; the key keeps its start while it closes and opens again (a move taken back),
    and a rollback starts it afresh. ``option`` need not be among the decision's options
    (then no player can pick it: only the clock can — e.g. the sand running out); the host
    applies it through ``apply`` as an ordinary action of that seat, logged with its time
    and marked as the timer's, so replay from the seed stays exact. ``seconds`` comes
    from the state (e.g. a lobby option such as "live: 2 minutes, days: 12 hours").

    * **A seat's timer**: one key per seat (``"guess.3.1"``); when several run out together,
      each fires, in seat order.
    * **A phase timer**: the same key on every seat's decision of the phase
      (``"guess.3"``). It fires once, for the first pending seat (in seat order) that
      carries it; its ``option`` should therefore end the phase for everyone (e.g.
      "close"), or the other seats keep waiting without a timer."""

    key: str
    seconds: float
    option: str


@dataclass(frozen=True)
class Decision:
    """Who must decide what now. ``private`` decisions are sent to the seat alone (DM)."""

    seat: int
    prompt: str
    options: tuple[Option, ...]
    args: Mapping[str, Any] = field(default_factory=dict)
    private: bool = False
    #: Which question this is, for staleness (defaults to the prompt and its arguments).
    key: str | None = None
    #: How many options to pick (1 and 1 = a single choice).
    min_picks: int = 1
    max_picks: int = 1
    #: (rows, columns) of a grid layout hint, with each option's ``cell`` in it.
    grid: tuple[int, int] | None = None
    timer: Timer | None = None

    @property
    def multi(self) -> bool:
        return self.max_picks > 1

    def option(self, option_id: str) -> Option | None:
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    def token(self, salt: int = 0) -> str:
        """A short fingerprint of which question this is, used to detect stale buttons.

        It hashes the seat, ``salt`` (the number of choices the seat has made so far) and
        the ``key`` (the prompt and its arguments when there is no key) — never the options:
        a button stays valid while the same question is open for the seat, even when other
        seats' moves add or remove options (a shared pool), and dies as soon as the seat has
        answered it. Whether the clicked option is still offered is checked on its own.
        """
        ident: Any = self.key if self.key is not None else [self.prompt, dict(self.args)]
        payload = json.dumps([self.seat, salt, ident], sort_keys=True, default=str)
        return hashlib.blake2s(payload.encode(), digest_size=4).hexdigest()

    def options_mark(self) -> str:
        """A fingerprint of the options as offered now (to tell when a panel needs an edit)."""
        payload = json.dumps(
            [[o.id, o.label, dict(o.args), o.style, o.cell] for o in self.options],
            sort_keys=True,
            default=str,
        )
        return hashlib.blake2s(payload.encode(), digest_size=4).hexdigest()


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log and the channel.

    ``code`` is an i18n key (``<game>.event.<code>`` is looked up), ``args`` its parameters.
    ``private_to`` set means only that seat may read it (it is never posted in a channel).
    ``reveals`` is True when the event disclosed something random or hidden (a die roll, a
    card draw, a secret revealed): the move that produced it cannot be undone.
    """

    code: str
    args: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None
    private_to: int | None = None
    reveals: bool = False


@dataclass(frozen=True)
class Result:
    """Final outcome. ``scores[i]`` is seat i's total; ``ranks[i]`` its place (1 = won; equal
    places are shared victories/ties). ``breakdown[i]`` maps score parts (i18n keys without
    the game prefix, e.g. ``"moons"``) to points and must add up to ``scores[i]``.
    ``tiebreak`` names the rule that split players equal on points, when one decided the
    ranking: an i18n key (a phrase such as "the most tokens left"), shown as "Tie broken by
    …" in the final message; empty when no tie-break was needed."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    tiebreak: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)


@dataclass(frozen=True)
class OptionSpec:
    """A lobby option (a variant or a set-up choice)."""

    id: str
    label: str  # i18n key
    choices: tuple[str, ...]  # values; each has an i18n key f"{label}.{value}"
    default: str


@runtime_checkable
class Game(Protocol):
    """What a rules module exposes as ``GAME``."""

    id: str  # "mlem"
    name: str  # i18n key of the game's display name
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]

    # Optional extras a game may define (the host checks with getattr):
    #   bot_choice(state, seat, rng) -> option id   a bot's pick (default: uniform random;
    #                                               for a multi-pick decision: the answer
    #                                               string, see join_picks)
    #   skip_options: tuple[str, ...]               option ids that mean "do nothing"
    #                                               (used to skip an absent player's move)
    #   gone_reason(state, seat, option_id) -> (i18n key, args) | None
    #                                               why an option the seat clicked is no
    #                                               longer offered ("that tile was just
    #                                               taken by {taker_seat}"); None, or no
    #                                               hook: a generic sentence
    #   panel(state, decision) -> rows | None       the game's own button layout for a
    #                                               decision where the generic one is
    #                                               clumsy: a sequence of rows, each a
    #                                               sequence of option ids (None = an empty
    #                                               cell), at most 5 rows of 5. Options left
    #                                               out are not shown. UI-neutral (no
    #                                               discord); None = the generic layout.
    #   symbols: Mapping[str, str]                  symbol -> i18n key of its meaning, for
    #                                               every pictograph (emoji, ★, ✓ …) the
    #                                               game's prompts and option labels use
    #                                               ("🐱" -> "mlem.legend.booster"). The
    #                                               table shows a legend line for the ones
    #                                               the open decisions use; a test checks
    #                                               that no prompt or label uses another.
    #   standing(state) -> list[Decision]           standing decisions: options a seat may
    #                                               take at any time without being asked
    #                                               (e.g. give up a flight). Never part of
    #                                               ``pending``: they make no seat "to
    #                                               move" (no ping, deadline, timer, bot or
    #                                               autopilot move). ``apply_checked``
    #                                               accepts an answer to one; the table shows
    #                                               a human seat's public ones as buttons, a
    #                                               private one rides on a DM panel shown
    #                                               anyway. Bots never take them.
    #   unused_options(options) -> ids              the game's lobby options that do not
    #                                               apply with these option values (e.g.
    #                                               no hourglass in a learning flight): the
    #                                               lobby neither lists nor switches them
    # Search hooks (all optional; used by rules/search.py, the bots' engine):
    #   sample(state, seat, rng) -> state           a state that seat cannot tell from this
    #                                               one: everything its view hides (others'
    #                                               cards and secret choices, face-down
    #                                               tiles, deck order, the stored seed of
    #                                               future randomness) redrawn from rng.
    #                                               Without it the engine never searches
    #                                               (it cannot peek), unless:
    #   perfect_information: bool                   True = nothing hidden, no stored future
    #                                               randomness: the state is searched as is
    #   rollout(state, seat, rng) -> answer         play-out policy (default bot_choice)
    #   evaluate(state, seat) -> float in [0, 1]    the seat's chance to win, for play-outs
    #                                               cut short by the level's depth
    #   prune(state, decision) -> option ids        the options worth searching, best
    #                                               first (reads only what the seat sees)
    #   to_move(state) -> list[int]                 the seats of pending(state), cheaply
    #                                               (play-outs only need who moves next)
    #   reward_bonus(state, seat) -> float          added to a finished play-out's reward
    #   search_levels: {level: rules.search.Budget} the game's own budgets per level

    def new(self, players: int, options: Mapping[str, str], seed: int) -> State:
        """Set up a game for ``players`` seats (0..players-1)."""

    def pending(self, state: State) -> list[Decision]:
        """Every open decision. Empty exactly when the game is over."""

    def apply(self, state: State, seat: int, choice: str) -> tuple[State, list[Event]]:
        """Check ``choice`` (an option id) for ``seat``; return the new state and events.

        Raises :class:`IllegalMove` for anything not offered."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """JSON-serialisable view for ``seat`` (None = public). Must contain at least:
        ``round`` (int or None), ``phase`` (i18n key), ``scores`` (list of ints, public
        running totals), ``over`` (bool). Private views add ``private`` (a dict).

        Optional: ``reveal``, in the public view once the game is over — every piece of
        hidden information the game kept (secret missions held and whether they were met,
        face-down tiles…), as a list of ``[i18n key, args]`` lines (args as for any string,
        e.g. ``seat``). The host shows them in the final table message and the log file."""

    def result(self, state: State) -> Result | None:
        """Final scores and ranks once the game is over, else None."""

    def dump(self, state: State) -> dict[str, Any]:
        """JSON-serialisable form of the state, with a ``schema`` version key."""

    def load(self, data: Mapping[str, Any]) -> State:
        """Inverse of ``dump``; rejects impossible data with ``ValueError``."""


def join_picks(decision: Decision, picks: Sequence[str]) -> str:
    """The answer string for several picks: ids in the order the decision lists them."""
    order = {o.id: i for i, o in enumerate(decision.options)}
    return MULTI_SEP.join(sorted(set(picks), key=lambda p: order.get(p, len(order))))


def random_answer(decision: Decision, rng: random.Random) -> str:
    """A uniformly random legal answer (random play-outs, the default bot): one option, or
    for a multi-pick decision an option that stands alone, or between ``min_picks`` and
    ``max_picks`` distinct others."""
    first = rng.choice(decision.options)
    if not decision.multi or first.alone:
        return first.id
    rest = [o for o in decision.options if not o.alone]
    k = rng.randint(max(1, decision.min_picks), max(1, min(decision.max_picks, len(rest))))
    return join_picks(decision, [o.id for o in rng.sample(rest, k)])


def split_picks(choice: str) -> list[str]:
    return choice.split(MULTI_SEP) if choice else []


def check_option_id(option_id: str) -> bool:
    import re

    return re.fullmatch(r"[A-Za-z0-9_.+-]{1,40}", option_id) is not None


def check_picks(decision: Decision, choice: str) -> None:
    """Raise :class:`IllegalMove` unless ``choice`` answers ``decision``: one offered id for
    a single choice; for a multi-pick decision, distinct offered ids joined by
    :data:`MULTI_SEP`, between ``min_picks`` and ``max_picks`` of them."""
    if not decision.multi:
        if decision.option(choice) is None:
            raise IllegalMove("host.error.not_offered")
        return
    picks = split_picks(choice)
    for pick in picks:
        if decision.option(pick) is None:
            raise IllegalMove("host.error.not_offered")
    if len(set(picks)) != len(picks):
        raise IllegalMove("host.error.repeated_pick")
    if len(picks) > 1 and any(o.alone for p in picks if (o := decision.option(p))):
        raise IllegalMove("host.error.pick_alone")
    if len(picks) < decision.min_picks:
        raise IllegalMove("host.error.too_few_picks", min=decision.min_picks)
    if len(picks) > decision.max_picks:
        raise IllegalMove("host.error.too_many_picks", max=decision.max_picks)


def answers(decision: Decision, choice: str) -> bool:
    try:
        check_picks(decision, choice)
    except IllegalMove:
        return False
    return True


def apply_checked(
    game: Game, state: State, seat: int, choice: str, *, timer: bool = False
) -> tuple[State, list[Event]]:
    """Apply ``choice`` after checking it answers one of ``seat``'s decisions in ``pending``
    or one of its standing decisions (the optional ``standing`` hook, see :class:`Game`;
    see :func:`check_picks`: offered ids, distinct, as many as allowed). With ``timer``
    (the host applying a timer's expiry) the expiry option of one of the seat's decisions
    is accepted too, offered or not.

    Games check their own input too; this guard makes the host's promise independent of
    each game's diligence: nothing that was not offered is ever applied.
    """
    offered = [d for d in game.pending(state) if d.seat == seat]
    if timer and any(d.timer is not None and d.timer.option == choice for d in offered):
        return game.apply(state, seat, choice)
    if any(answers(d, choice) for d in offered):
        return game.apply(state, seat, choice)
    # not an answer to an open question: perhaps to one of the seat's standing decisions
    standing = [d for d in standing_of(game, state) if d.seat == seat]
    if any(answers(d, choice) for d in standing):
        return game.apply(state, seat, choice)
    if not offered and not standing:
        raise IllegalMove("host.error.not_your_turn")
    asked = offered or standing
    if len(asked) == 1:
        check_picks(asked[0], choice)  # raises the precise reason
    raise IllegalMove("host.error.not_offered")


def standing_of(game: Game, state: State) -> list[Decision]:
    """The game's standing decisions (its optional ``standing`` hook; none without it):
    what a seat may choose at any time, apart from ``pending``."""
    hook = getattr(game, "standing", None)
    return [] if hook is None else list(hook(state))


def seats_pending(decisions: Sequence[Decision]) -> list[int]:
    """Seats with an open decision, in seat order, without repeats."""
    return sorted({d.seat for d in decisions})
