"""Ratings in storage (issue 18): a finished game is rated once, in the transaction that
records it, from the ratings its players had; the leaderboard ranks by the conservative
rating among players with enough games; a member's recent games give the trend."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.ratings import MODEL, RatingJob, Z, ordinal
from bot.storage import Storage

LIB = PlackettLuce()


@pytest.fixture
async def store(database):  # SQLite, then PostgreSQL
    storage = await Storage.open(database.target)
    yield storage
    await storage.close()


SEATS = [{"user_id": 1, "name": "Ann"}, {"user_id": 2, "name": "Bo"},
         {"user_id": None, "name": "🤖 Ada", "ai": True}]


async def _finish(store, seats, scores, winners, *, at, channel=20, guild=7, level="normal"):
    table = await store.create_table(guild_id=guild, channel_id=channel, game="suspense",
                                     host_id=1, seats=seats, options={})
    job = RatingJob.of(seats, scores, winners, level)
    return await store.finish_table(table, scores=scores, winners=winners, reason="r",
                                    finished_at=at, rating=job)


async def test_each_game_is_rated_from_the_ratings_before_it(store):
    await _finish(store, SEATS, {0: 6, 1: 2, 2: 1}, {0}, at=100.0)
    second = await _finish(store, SEATS, {0: 1, 1: 6, 2: 3}, {1}, at=200.0)
    # the library, game by game
    ann, bo, ai = LIB.rating(), LIB.rating(), LIB.rating()
    [[ann], [bo], [ai]] = LIB.rate([[ann], [bo], [ai]], ranks=[1.0, 2.0, 3.0])
    [[bo], [ai], [ann]] = LIB.rate([[bo], [ai], [ann]], ranks=[1.0, 2.0, 3.0])
    [mine] = [r for r in await store.player_stats(7, 1)]
    assert (mine.mu, mine.sigma) == pytest.approx((ann.mu, ann.sigma))
    levels = await store.ai_ratings(7, "suspense")
    assert [(lv, games) for lv, _, _, games in levels] == [("normal", 2)]
    assert levels[0][1:3] == pytest.approx((ai.mu, ai.sigma))
    changes = await store.match_rating_changes(second)
    assert [c["player"] for c in changes] == ["u:2", "ai:normal", "u:1"]
    assert changes[0]["won"] and changes[0]["placement"] == 1
    recent = await store.recent_ratings(7, "suspense", 2)
    assert [r["finished_at"] for r in recent] == [200.0, 100.0]
    assert recent[0]["after"] == pytest.approx((bo.mu, bo.sigma))
    assert recent[1]["before"] == pytest.approx((MODEL.mu, MODEL.sigma))


async def test_the_leaderboard_ranks_by_conservative_rating_with_enough_games(store):
    trio = [{"user_id": 1, "name": "Ann"}, {"user_id": 2, "name": "Bo"},
            {"user_id": 3, "name": "Cy"}]
    for i in range(3):  # Bo wins three times
        await _finish(store, trio, {0: 2 - (i == 2), 1: 5, 2: 1 + (i == 2) * 2}, {1},
                      at=100.0 + i, channel=30 + i)
    await _finish(store, [{"user_id": 4, "name": "Di"}, {"user_id": 1, "name": "Ann"}],
                  {0: 9, 1: 0}, {0}, at=200.0, channel=40)
    rows = await store.rated_leaderboard(7, "suspense", limit=10, min_games=3,
                                         default=(MODEL.mu, MODEL.sigma), z=Z)
    assert rows[0].name == "Bo" and {r.name for r in rows} == {"Bo", "Cy", "Ann"}  # not Di
    ordinals = [ordinal(r.mu, r.sigma) for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    rows = await store.rated_leaderboard(7, "suspense", limit=10, min_games=1,
                                         default=(MODEL.mu, MODEL.sigma), z=Z)
    assert "Di" in [r.name for r in rows]


async def test_who_played_which_game_is_kept_for_history(store):
    match = await _finish(store, SEATS, {0: 6, 1: 2, 2: 1}, {0}, at=100.0)
    rows = await store._db.fetch("SELECT user_id, seat FROM match_players WHERE match_id=? "
                                 "ORDER BY seat", match)
    assert [tuple(r) for r in rows] == [(1, 0), (2, 1)]


async def test_a_game_outside_a_server_is_not_rated(store):
    await _finish(store, SEATS, {0: 6, 1: 2, 2: 1}, {0}, at=100.0, guild=None)
    assert await store._db.fetchval("SELECT COUNT(*) FROM ratings") == 0


async def test_a_finish_that_fails_rates_nothing_and_its_retry_rates_once(store):
    table = await store.create_table(guild_id=7, channel_id=50, game="suspense", host_id=1,
                                     seats=SEATS, options={})

    class Failing(RatingJob):
        def compute(self, current):
            raise store._db.errors[0]("disk I/O error")  # as the database would

    job = RatingJob.of(SEATS, {0: 6, 1: 2, 2: 1}, {0}, "normal")
    failing = Failing(job.players, job.scores, job.winners, job.ai_level)
    with pytest.raises(Exception, match="disk I/O"):
        await store.finish_table(table, scores=job.scores, winners=job.winners, reason="r",
                                 finished_at=1.0, rating=failing)
    assert await store.recent_matches(7) == [] and await store.player_stats(7, 1) == []
    assert await store._db.fetchval("SELECT COUNT(*) FROM ratings") == 0
    await store.finish_table(table, scores=job.scores, winners=job.winners, reason="r",
                             finished_at=2.0, rating=job)
    rows = await store._db.fetch("SELECT player, games FROM ratings ORDER BY player")
    assert [tuple(r) for r in rows] == [("ai:normal", 1), ("u:1", 1), ("u:2", 1)]
