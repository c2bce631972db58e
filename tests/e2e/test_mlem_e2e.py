"""MLEM through the offline Discord harness: whole games from /game new to final scores,
clicking only what the bot shows; restart, races, refusals and secrets."""

from __future__ import annotations

import random
import re

from core.i18n import t
from rules.mlem import GAME
from tests.e2e.driver import (
    is_final,
    latest_table,
    move_buttons,
    play_to_end,
    play_turn,
    private_texts,
    tables_ever,
)
from tests.e2e.kit import (
    assert_replays,
    assert_tables_have_pictures,
    forged_click,
    host_of,
    open_and_play,
    open_game,
    refusal_text,
    snapshot,
)
from tests.harness import Harness


def check_final_explains_the_score(text: str, snap, names: list[str]) -> None:
    """The final message (in the game's language, Spanish here) gives each player's points
    by category, every hidden tile and secret mission (met ✓ or not ✗) with its points, and
    no tie-break: MLEM's ties share the place (R30)."""
    result = snap.result()
    assert result is not None and result.tiebreak == ""
    lines = text.splitlines()
    for seat, parts in enumerate(result.breakdown):
        line = next(x for x in lines if names[seat] in x and "**" in x)
        for key, pts in parts.items():
            if pts:
                assert f"{t(f'mlem.score.{key}', 'es')} {pts}" in line, line
        for item in GAME.view(snap.state, None)["reveal"]:
            if item[1]["seat"] == seat:
                assert t(item[0], "es", names, **item[1]) in lines
    missions = [x for x in lines if x.split(": ", 1)[-1].startswith("misiones secretas ")]
    assert len(missions) == 3 and all("✓" in x or "✗" in x for x in missions)
    assert "Empate deshecho" not in text


async def test_one_person_against_two_bots(harness: Harness) -> None:
    h = harness
    ana = h.user("Ana", "es-ES")
    await open_game(h, "mlem", ana, bots=2)
    final = await play_to_end(h, {ana: 0}, random.Random(2))
    assert "🏆" in final.text()
    snap = await snapshot(h)
    actions = await host_of(h).store.actions(snap.id)
    assert {a.seat for a in actions if a.by_bot} == {1, 2}
    assert all(not a.by_bot for a in actions if a.seat == 0)
    assert_tables_have_pictures(h, ever=False)
    await assert_replays(h)


async def test_all_variants_with_closed_dms_and_no_leaks(harness: Harness) -> None:
    h = harness
    ana, ben, cal = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Cal", "es-ES")
    h.fail_dms(cal)
    await open_game(h, "mlem", ana, [ben, cal], clicks={"ufo": 1, "recon": 1, "missions": 1})
    snap = await snapshot(h)
    assert snap.row.options == {"ufo": "on", "recon": "on", "missions": "on"}
    # The channel told Cal, without saying anything secret, to use "My hand".
    assert any("Mi mano" in m.content and str(cal.id) in m.content for m in h.messages())
    final = await play_to_end(h, {ana: 0, ben: 1, cal: 2}, random.Random(3), closed={cal})
    assert "🏆" in final.text()
    check_final_explains_the_score(final.text(), (await snapshot(h)), ["Ana", "Ben", "Cal"])

    # Cal chose the secret missions through "My hand", ephemerally.
    actions = await host_of(h).store.actions(snap.id)
    assert any(a.seat == 2 and a.choice.startswith("drop.") for a in actions)
    assert any(
        m.ephemeral and "private.png" in [a.name for a in m.attachments]
        for m in h.ephemeral_to(cal)
    )
    assert not h.dm_messages(cal)

    # Nothing private reached a channel: no line about the missions that a player saw
    # privately, no mission button, no private picture.
    public = h.all_public_text()
    secret_lines = [
        line for line in private_texts(h, (ana, ben, cal)) if re.search(r"isi[oó]n|ission", line)
    ]
    assert secret_lines
    for line in secret_lines:
        assert line not in public, line
    assert "Devolver" not in public and "Give back" not in public
    private_pngs = {
        a.data
        for u in (ana, ben, cal)
        for m in [*h.dm_messages(u), *h.ephemeral_to(u)]
        for a in m.attachments
    }
    assert private_pngs and not private_pngs & set(h.all_public_images())
    assert_tables_have_pictures(h, ever=False)
    await assert_replays(h)


async def test_restart_mid_game_continues_from_old_buttons(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    seats, rng = await open_and_play(h, "mlem", [ana, ben], turns=8, seed=4)
    before = await snapshot(h)
    old_table = latest_table(h)
    await h.restart()
    # A click on a button of the message the old instance posted plays on.
    reply = await play_turn(h, seats, rng)
    assert reply is not None
    after = await snapshot(h)
    assert after.row.version > before.row.version
    assert old_table.id in {m.id for m in h.messages()}
    final = await play_to_end(h, seats, rng)
    assert "🏆" in final.text()
    await assert_replays(h)


async def test_two_clicks_at_once_apply_one_move(harness: Harness) -> None:
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben")
    await open_game(h, "mlem", ana, [ben])
    seats = {ana: 0, ben: 1}
    rng = random.Random(5)
    for _ in range(200):
        table = latest_table(h)
        snap = await snapshot(h)
        movers = [u for u in seats if move_buttons(table, seats[u])]
        if movers:
            break
        await play_turn(h, seats, rng)
    user = movers[0]
    button = move_buttons(table, seats[user])[0]
    count = await host_of(h).store.count_actions(snap.id)
    first, second = await h.click_many([(user, table, button), (user, table, button)])
    after = await snapshot(h)
    actions = await host_of(h).store.actions(snap.id)
    # Exactly one move of that seat was added (bots do not play here: two people).
    assert len(actions) == count + 1
    refusals = [r for r in (first, second) if any(f.ephemeral for f in r.followups)]
    assert len(refusals) == 1
    assert "tarde" in refusals[0].text() or "late" in refusals[0].text()
    assert after.row.version == snap.row.version + 1


async def test_refusals_change_nothing(harness: Harness) -> None:
    h = harness
    ana, ben, eve = h.user("Ana", "es-ES"), h.user("Ben", "en-US"), h.user("Eve", "en-US")
    await open_game(h, "mlem", ana, [ben])
    seats = {ana: 0, ben: 1}
    rng = random.Random(6)
    table = latest_table(h)
    snap = await snapshot(h)
    mover = next(u for u in seats if move_buttons(table, seats[u]))
    other = ben if mover is ana else ana
    button = move_buttons(table, seats[mover])[0]

    async def unchanged() -> None:
        now = await snapshot(h)
        assert now.row.version == snap.row.version and now.row.state == snap.row.state

    # Wrong user: another player, then someone not in the game.
    text = refusal_text(await h.click(other, table, button))
    assert "otro jugador" in text or "another player" in text
    await unchanged()
    text = refusal_text(await h.click(eve, table, button))
    assert "not playing" in text
    await unchanged()

    # Illegal choice: an option that is not offered.
    forged = re.sub(r":[^:]+$", ":go.9+9+9", button)
    text = refusal_text(await forged_click(h, mover, table, button, forged))
    assert text
    await unchanged()

    # Stale button: a decision token that is no longer open.
    stale = re.sub(r":[0-9a-f]{8}:", ":deadbeef:", button)
    text = refusal_text(await forged_click(h, mover, table, button, stale))
    assert "out of date" in text or "desfasado" in text
    await unchanged()

    # A command in a channel with no game.
    empty = h.new_channel("empty")
    reply = await h.slash(eve, "game status", channel=empty)
    assert reply.ephemeral and "no game" in reply.content.lower()
    reply = await h.slash(eve, "game hand", channel=empty)
    assert reply.ephemeral

    # A game that is over.
    final = await play_to_end(h, seats, rng)
    assert is_final(final)
    over = await snapshot(h)
    text = refusal_text(
        await forged_click(h, mover, final, final.buttons[0].custom_id or "", button)
    )
    assert "over" in text or "terminó" in text
    assert (await snapshot(h)).row.version == over.row.version
    reply = await h.slash(ana, "game status")
    assert reply.ephemeral and "/partida nueva" in reply.content


async def test_a_move_committed_but_not_shown_is_shown_by_the_tick(harness: Harness) -> None:
    """A crash between a commit and its publication: the next pacing tick shows it."""
    h = harness
    ana, ben = h.user("Ana", "es-ES"), h.user("Ben", "en-US")
    await open_game(h, "mlem", ana, [ben])
    snap = await snapshot(h)
    d = snap.decisions[0]
    # Commit a move behind the Discord layer's back, as if the process died right after.
    await host_of(h).play(
        snap.id, (ana if d.seat == 0 else ben).id, d.seat, snap.token(d), d.options[0].id
    )
    lagging = await host_of(h).store.lagging_games()
    assert snap.id in lagging
    shown = [m.id for m in tables_ever(h)]
    await h.restart()
    await h.bot.get_cog("GameCog").tick()  # type: ignore[union-attr]
    assert snap.id not in await host_of(h).store.lagging_games()
    after = await snapshot(h)
    assert after.row.published_version == after.row.version
    assert [m.id for m in tables_ever(h)] != shown  # the channel now shows the move
    assert latest_table(h).id == after.row.table_message_id
