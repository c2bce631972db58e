"""When the pacing tick nudges a player (host.pacing.nudge_times): pure and clock-free."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from host import pacing
from host.pacing import DAY, HOUR, PING_AFTER

T0 = 1_000_000.0
CHOICES = {o.id: o.choices for o in pacing.HOST_OPTIONS}


def test_live_play_nudges_at_the_reminders_only() -> None:
    times = pacing.nudge_times(T0, {"reminders": "12h", "pings": "live", "deadline": "none"})
    assert times == [T0 + 12 * HOUR, T0 + 36 * HOUR, T0 + 60 * HOUR]


def test_when_away_is_the_default_and_catches_up_before_the_reminders() -> None:
    assert pacing.defaults()["pings"] == "away"
    away = pacing.nudge_times(T0, {"reminders": "12h", "pings": "away"})
    live = pacing.nudge_times(T0, {"reminders": "12h", "pings": "live"})
    # The catch-up ping AWAY_AFTER into the wait (marked as sent when the table pinged),
    # then the reminders at their own times.
    assert away == [T0 + pacing.AWAY_AFTER, *live]
    assert pacing.nudges_due(T0, T0 + pacing.AWAY_AFTER - 1, {"pings": "away"}) == 0
    assert pacing.nudges_due(T0, T0 + pacing.AWAY_AFTER, {"pings": "away"}) == 1
    # A wait whose catch-up is done (sent 1) wakes the game at the first reminder.
    opts = {"reminders": "12h", "pings": "away"}
    assert pacing.wake_at({0: (T0, 0, 0)}, opts) == T0 + pacing.AWAY_AFTER
    assert pacing.wake_at({0: (T0, 1, 0)}, opts) == T0 + 12 * HOUR
    # The reminders go where they went before: the first to the channel, later ones by DM.
    assert [pacing.in_channel(n, opts) for n in (1, 2, 3)] == [True, True, False]
    assert [pacing.in_channel(n, {"pings": "live"}) for n in (1, 2)] == [True, False]
    assert [pacing.in_channel(n, {"pings": "days"}) for n in (1, 2)] == [True, False]
    assert pacing.catches_up(opts) and not pacing.catches_up({"pings": "live"})
    assert not pacing.catches_up({})  # a game stored without the option plays live


def test_which_new_table_pings() -> None:
    now = T0 + 10 * HOUR
    window = pacing.AWAY_AFTER
    assert window == 300.0
    # When away: a player who has not acted for the window, or never, is pinged.
    assert pacing.table_pings("away", None, now)
    assert pacing.table_pings("away", now - window, now)
    assert not pacing.table_pings("away", now - window + 1, now)
    # Always: every time; over days: never (the tick pings later).
    assert pacing.table_pings("live", now, now)
    assert not pacing.table_pings("days", None, now)
    # A game stored before the option existed plays as it did then: always.
    assert pacing.table_pings(None, now, now)


def test_play_over_days_pings_first_after_a_wait() -> None:
    times = pacing.nudge_times(T0, {"reminders": "12h", "pings": "days"})
    assert times[0] == T0 + PING_AFTER and times[1] == T0 + 12 * HOUR
    assert pacing.nudges_due(T0, T0 + PING_AFTER - 1, {"pings": "days"}) == 0


def test_a_deadline_warns_at_half_and_never_at_the_deadline() -> None:
    # The old clash: 12 h per move and the first reminder at 12 h.
    opts = {"reminders": "12h", "deadline": "12h", "pings": "live"}
    assert pacing.nudge_times(T0, opts) == [T0 + 6 * HOUR]
    # Reminders off: the deadline still warns.
    assert pacing.nudge_times(T0, {"reminders": "off", "deadline": "1d"}) == [T0 + 12 * HOUR]
    # A long deadline keeps the reminders that come before it.
    times = pacing.nudge_times(T0, {"reminders": "4h", "deadline": "2d"})
    assert times == [T0 + 4 * HOUR, T0 + DAY, T0 + 28 * HOUR]


def test_old_games_without_the_new_options_still_work() -> None:
    assert pacing.nudge_times(T0, {}) == []
    assert pacing.next_nudge(T0, 0, {"reminders": "4h"}) == T0 + 4 * HOUR
    assert pacing.next_nudge(T0, 3, {"reminders": "4h"}) is None


@given(
    reminders=st.sampled_from(CHOICES["reminders"]),
    deadline=st.sampled_from(CHOICES["deadline"]),
    pings=st.sampled_from(CHOICES["pings"]),
)
def test_the_first_warning_comes_by_half_the_deadline(
    reminders: str, deadline: str, pings: str
) -> None:
    opts = {"reminders": reminders, "deadline": deadline, "pings": pings}
    times = pacing.nudge_times(T0, opts)
    assert times == sorted(set(times))
    span = pacing.seconds(deadline)
    if span is not None:
        assert times and times[0] <= T0 + span / 2
        assert all(w < T0 + span for w in times)
