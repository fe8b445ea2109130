"""The leak scan for replays and exports (issue 18): what a replay showed at step k holds
no card still hidden at step k from whoever looked (the channel: `secret_labels(state,
None)`; a player's own view: `secret_labels(state, seat)`), and neither does that step of
an exported file. Used by tests/e2e/test_replays.py."""

from __future__ import annotations

import json
import re

from bot.replay.record import Replay
from bot.replay.show import frame_embeds
from fakediscord import FakeDiscord, User

STEP = re.compile(r"Move (\d+) of (\d+) · as (.+?) saw it")


def _embed_text(embeds) -> str:
    parts = []
    for e in embeds:
        data = e if isinstance(e, dict) else e.to_dict()
        parts += [data.get("title") or "", data.get("description") or ""]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
        parts.append((data.get("footer") or {}).get("text") or "")
    return "\n".join(parts)


def leaked(replay: Replay, step: int, seat: int | None, text: str) -> list[str]:
    hidden = replay.engine.secret_labels(replay.state_at(step), seat)
    return sorted(label for label in hidden if label in text)


def assert_every_step_hides_secrets(ui, replay: Replay, match_id: int) -> int:
    """Render every step as the channel and as each seat (the bot's own rendering) and scan
    it; returns the number of screens checked."""
    checked = 0
    for step in range(replay.last + 1):
        for seat in [None, *range(replay.record.n_players)]:
            text = _embed_text(frame_embeds(ui, replay, step, match_id=match_id, seat=seat))
            assert not leaked(replay, step, seat, text), (step, seat, leaked(replay, step,
                                                                             seat, text))
            checked += 1
    return checked


def assert_shown_replays_hide_secrets(fake: FakeDiscord, user: User, replay: Replay,
                                      seat: int | None) -> int:
    """Every version of every replay message `user` was shown; returns how many."""
    checked = 0
    for message in fake.ephemerals(user):
        for version in message.versions():
            text = version.text
            found = STEP.search(text)
            if found is None or "replay" not in text:
                continue
            step = int(found[1])
            mine = found[3] != "the channel"
            assert not mine or seat is not None, "a non-player was shown a player's view"
            bad = leaked(replay, step, seat if mine else None, text)
            assert not bad, (user.name, step, mine, bad)
            checked += 1
    return checked


def assert_export_hides_secrets(data: bytes, replay: Replay, seat: int | None) -> dict:
    """Each step of an exported file against the secrets of that step: its public part
    (events, view) against the channel's, its `you` part against that seat's; the file
    holds no seed and no raw moves."""
    doc = json.loads(data)
    assert len(doc["steps"]) == replay.last + 1
    for step in doc["steps"]:
        k = step["step"]
        public = json.dumps({key: step.get(key) for key in ("events", "view", "notes")},
                            ensure_ascii=False)
        assert not leaked(replay, k, None, public), (k, leaked(replay, k, None, public))
        if "you" in step:
            assert seat is not None, "a player's view in a public export"
            mine = json.dumps(step["you"], ensure_ascii=False)
            assert not leaked(replay, k, seat, mine), (k, leaked(replay, k, seat, mine))
    text = data.decode()
    assert '"act"' not in text and '"seed"' not in text
    return doc
