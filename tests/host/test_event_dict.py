"""An event as the action log stores it (``host.records.event_dict``): what
``dataclasses.asdict`` gives with the arguments as a plain dict, every field of
:class:`core.contract.Event` in order, made without asdict's deep copy."""

from __future__ import annotations

import dataclasses
import json

from core.contract import Event
from host.records import event_dict, event_from


def as_before(e: Event) -> dict[str, object]:
    d = dataclasses.asdict(e)
    d["args"] = dict(e.args)
    return d


def test_an_event_is_stored_as_asdict_stored_it() -> None:
    events = [
        Event("mlem.event.launch"),
        Event("mlem.event.crash", {"seat": 2, "moon": "m1"}, seat=2),
        Event("x.event.secret", {"cards": [1, [2, 3]], "to": {"a": None}}, private_to=1),
        Event("x.event.roll", {"die": 6}, seat=0, reveals=True),
    ]
    for e in events:
        d = event_dict(e)
        assert d == as_before(e)
        assert list(d) == [f.name for f in dataclasses.fields(Event)]
        assert json.dumps(d, sort_keys=True) == json.dumps(as_before(e), sort_keys=True)
        assert event_from(d) == Event(e.code, dict(e.args), e.seat, e.private_to, e.reveals)
