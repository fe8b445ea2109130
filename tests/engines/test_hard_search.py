"""The hard AI level's search (engines.ai_levels) in Taboo, Six Suit and Hidden Rules (issue
19): it is reproducible from its rng, stays within its counted budget, and finds moves the
normal AI misses in constructed positions."""

from __future__ import annotations

import random

import pytest

from engines import ENGINES
from engines.ai_levels import with_level, worlds_for


def _positions(name: str, n: int, seed: int, count: int):
    """`count` states met in a normal-AI game, each with the seat to move."""
    engine = ENGINES[name]
    state = engine.new_game(n, seed)
    rng = random.Random(seed)
    out = []
    while engine.outcome(state) is None and len(out) < count:
        seat = sorted(engine.waiting_for(state) or engine.to_act(state))[0]
        out.append((state, seat))
        action = engine.ai_action(state, seat, random.Random(rng.random()))
        if action is None:
            action = engine.default_action(state, seat)
        state = engine.apply(state, seat, action).state
    return out


@pytest.mark.parametrize(("name", "n"), [("taboo", 2), ("six_suit", 2), ("taboo", 3),
                                         ("hidden_rules", 4), ("six_suit", 4)])
def test_hard_move_is_reproducible_from_its_rng(name, n):
    engine = ENGINES[name]
    for state, seat in _positions(name, n, 4, 60)[::6]:
        hard = with_level(state, "hard")
        first = engine.ai_action(hard, seat, random.Random(21))
        assert engine.ai_action(hard, seat, random.Random(21)) == first


def _most_applied(plan, state) -> int:
    """The most moves a hard decision may apply: worlds x candidates playouts of at most
    `depth` simulated actions each (plus the candidate move itself); with an action budget,
    more worlds only while the budget lasts (the last one may finish past it)."""
    least = worlds_for(plan, state) * plan.candidates * (plan.depth + 1)
    if not plan.budget:
        return least
    return max(least, plan.budget + plan.candidates * plan.depth
               + plan.max_worlds * plan.candidates)


@pytest.mark.parametrize(("name", "n"), [("taboo", 2), ("six_suit", 2), ("taboo", 4)])
def test_hard_search_stays_within_its_counted_budget(name, n, monkeypatch):
    """The search's size is a count of simulated actions (`_most_applied`), whatever the
    machine's speed."""
    engine = ENGINES[name]
    plan = engine.ai.plan
    applied = []
    real_apply = type(engine).apply

    def counting(self, state, seat, action):
        applied.append(1)
        return real_apply(self, state, seat, action)

    for state, seat in _positions(name, n, 6, 80)[::8]:
        hard = with_level(state, "hard")
        applied.clear()
        monkeypatch.setattr(type(engine), "apply", counting)
        engine.ai_action(hard, seat, random.Random(3))
        monkeypatch.setattr(type(engine), "apply", real_apply)
        assert len(applied) <= _most_applied(plan, state)


def _count_playouts(monkeypatch) -> list[int]:
    from engines import ai_levels

    calls = []
    real = ai_levels._playout

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ai_levels, "_playout", counting)
    return calls


def test_taboo_hard_searches_more_worlds_when_playouts_are_short(monkeypatch):
    """With an action budget, short playouts buy more worlds: over the decisions of a
    2-player game, those with short playouts (later in the race: playouts are played to its
    end) search more than the usual 12 worlds, up to `max_worlds` (48 in this game's last
    decisions), and none fewer than the usual number."""
    engine = ENGINES["taboo"]
    plan = engine.ai.plan
    counts = []
    for state, seat in _positions("taboo", 2, 6, 80):
        candidates = len(engine.ai.rank(engine, state, seat, random.Random(0)))
        if len(engine.legal_actions(state, seat)) < 2 or candidates < 2:
            continue
        calls = _count_playouts(monkeypatch)
        engine.ai_action(with_level(state, "hard"), seat, random.Random(1))
        if calls:
            counts.append(len(calls) / min(plan.candidates, candidates))
    assert counts and all(plan.worlds <= c <= plan.max_worlds for c in counts)
    assert max(counts) >= 2 * plan.worlds  # near the end of the race
    assert sum(c > plan.worlds for c in counts) >= 3


def test_taboo_hard_keeps_its_usual_worlds_when_playouts_are_long(monkeypatch):
    """At the start of a game a playout to the end of the race is long: the budget is spent
    within the usual worlds (worlds_for), so those decisions search exactly as before."""
    engine = ENGINES["taboo"]
    plan = engine.ai.plan
    state = engine.new_game(2, 11)
    seat = state.current
    calls = _count_playouts(monkeypatch)
    engine.ai_action(with_level(state, "hard"), seat, random.Random(1))
    assert len(calls) == worlds_for(plan, state) * plan.candidates


def _taboo_keep_the_king_position():
    """I hold A and the K I just drew; the row is K Q 8 and the opponent holds 3 cards.
    Capturing the K at once leaves me a lone ace that almost never captures (I go on drawing
    and placing, stuck at one card). Placing the ace instead keeps the K, which captures the
    row's K (with Q + A) on my next turn: my last card, so I go out and win."""
    from tests.engines.test_taboo import USE, deal

    stock = ("2h 3h 4h 5h 6h 7h 8h 9h 10h 2d 3d 4d 5d 6d 7d 8d 9d 10d Ad 2c 3c 4c 5c 6c")
    return deal(["As Kh", "9c 10c 7c"], row="Kc Qc 8s", stock=stock,
                discard="Js Jh Qs Qh Qd Kd Ks", current=0, phase=USE, drawn="Kh")


def test_taboo_hard_keeps_its_last_capture_instead_of_being_stuck_with_a_dead_card():
    from engines.taboo.rules import Capture, Place

    engine = ENGINES["taboo"]
    state = _taboo_keep_the_king_position()
    for seed in range(3):
        normal = engine.ai_action(state, 0, random.Random(seed))
        hard = engine.ai_action(with_level(state, "hard"), 0, random.Random(seed))
        assert isinstance(normal, Capture) and normal.card.rank == 13
        assert isinstance(hard, Place) and hard.card.rank == 1


def test_taboo_worlds_do_not_know_the_order_of_a_later_reshuffle():
    """A sampled world carries a fresh seed: the real seed fixes how the discard pile will be
    shuffled into the next stock, which no player can know."""
    engine = ENGINES["taboo"]
    state = _taboo_keep_the_king_position()
    worlds = [engine.determinize(state, 0, random.Random(k)) for k in range(3)]
    assert all(w.seed != state.seed for w in worlds)
    assert len({w.seed for w in worlds}) == 3


def test_six_suit_hard_chains_two_double_matches_into_an_elimination_instead_of_defending():
    """After free time, with 2 players. My tops are five green 1s (two attributes one card
    from a six suit), the opponent's four reds, a 1 yellow blob and a 2 blue circle. I hold
    1 red blob and 2 red circle: each double-matches one of the opponent's two odd piles, so
    the first earns an extra turn and the second completes their red six suit. The normal AI
    rates each play alone and spends the 1 red blob defending its own tops (a double match
    too, on itself); hard plays the chain through and attacks."""
    from engines.six_suit.rules import PLAY, Play
    from tests.engines.test_six_suit import C, build

    engine = ENGINES["six_suit"]
    state = build(2, tops={0: "1gc 1gh 1gt 1gs 1gb 3yt", 1: "1rc 2rh 3rt 4rs 1yb 2bc"},
                  hands={0: "1rb 2rc", 1: "3gc"})
    state.phase = PLAY  # the prediction is made and its card is in hand
    for seed in range(3):
        normal = engine.ai_action(state, 0, random.Random(seed))
        hard = engine.ai_action(with_level(state, "hard"), 0, random.Random(seed))
        assert isinstance(normal, Play) and normal.target == 0
        assert isinstance(hard, Play) and hard.target == 1
        assert hard.card in (C("1rb"), C("2rc"))
        after = engine.apply(state, 0, hard).state
        assert after.current == 0 and after.chain == 1  # the double match earned a turn


def test_six_suit_hard_plays_a_three_card_chain_that_surely_eliminates():
    """Three hand cards, each double-matching one of the opponent's three odd piles, turn
    their three red tops into six: the chain is certain (drawn cards are not counted on), so
    hard starts it without a search (`sure_elimination`); in free time there is none."""
    from engines.six_suit.ai import sure_elimination
    from engines.six_suit.rules import PLAY
    from tests.engines.test_six_suit import C, build

    engine = ENGINES["six_suit"]
    state = build(2, tops={0: "1gc 2yh 3bt 4gs 1yt 2gs", 1: "1rc 2rh 3rt 4yb 1bs 2gb"},
                  hands={0: "4rb 1rs 2rb", 1: "3gc"})
    state.phase = PLAY
    first = sure_elimination(engine, state, 0)
    assert first is not None and first.target == 1
    hard = engine.ai_action(with_level(state, "hard"), 0, random.Random(0))
    assert hard == first
    plays = 0
    while state.alive[1]:  # each play earns the next turn, the last eliminates
        assert state.current == 0 and plays < 3
        if state.phase == "predict":
            state = engine.apply(state, 0, engine.legal_actions(state, 0)[0]).state
        state = engine.apply(state, 0, sure_elimination(engine, state, 0)).state
        plays += 1
    assert plays == 3
    assert C("4rb") not in state.hands[0]
    early = build(2, tops={0: "1gc 2yh 3bt 4gs 1yt 2gs", 1: "1rc 2rh 3rt 4yb 1bs 2gb"},
                  hands={0: "4rb 1rs 2rb", 1: "3gc"}, round_=1)
    early.phase = PLAY
    assert sure_elimination(engine, early, 0) is None


def _six_suit_outs_position():
    """3 players after free time. Seats 1 and 2 both show four red tops and two others; my
    one hand card, 1 black heart, double-matches one non-red pile of each (a black card
    counts as red for a six suit), which leaves each of them one non-red pile and earns me an
    extra turn. Whether the extra turn's draw finishes them depends on the cards still
    unseen: most that would finish seat 1 (red or black 2s) lie in the discard pile, so
    seat 2 is the better target. The normal AI rates the two plays the same."""
    from engines.six_suit.rules import PLAY
    from tests.engines.test_six_suit import build, cards

    state = build(3, tops={0: "3yc 4gt 2bs 3bt 4yc 2gt", 1: "1rc 2rt 3rt 4rs 1yh 2gs",
                           2: "2rc 3rh 4rt ?rs 1gh 4ys"},
                  hands={0: "1kh", 1: "3gc", 2: "4bc"})
    state.discard = cards("2rh 2rb 2kc 2kh 2kt 2kb")
    state.draw = [c for c in state.draw if c not in state.discard]
    state.phase = PLAY
    return state


def test_six_suit_chain_planner_counts_a_drawn_card_only_as_its_chance():
    """The planner never knows the next draw: a double match that leaves one pile to finish
    is worth exactly the share of the unseen cards that would finish it (checked here card
    by card against the rules' own six-suit test)."""
    from engines.six_suit.ai import unknown_cards
    from engines.six_suit.cards import SHARED, is_six_suit
    from engines.six_suit.chains import chain_chances
    from tests.engines.test_six_suit import C

    state = _six_suit_outs_position()
    pool = unknown_cards(state, 0)
    chances = chain_chances(state, 0, pool, plays=2)
    for target, pile in ((1, 4), (2, 4)):
        after = state.tops[target * 6:target * 6 + 6]
        after[pile] = C("1kh")
        outs = [d for d in pool if any(
            SHARED[d][after[p]] and is_six_suit([*after[:p], d, *after[p + 1:]])
            for p in range(6))]
        assert chances[(C("1kh"), target, pile)] == pytest.approx(len(outs) / len(pool))
        assert 0 < len(outs) < len(pool)
    assert chances[(C("1kh"), 2, 4)] > chances[(C("1kh"), 1, 4)]


def test_six_suit_hard_attacks_the_player_its_next_draw_is_likelier_to_finish():
    from engines.six_suit.rules import Play
    from tests.engines.test_six_suit import C

    engine = ENGINES["six_suit"]
    state = _six_suit_outs_position()
    for seed in range(4):
        hard = engine.ai_action(with_level(state, "hard"), 0, random.Random(seed))
        assert hard == Play(C("1kh"), 2, 4)


def test_six_suit_chain_planner_is_deterministic_and_rng_free():
    """The same position gives the same chances and move (no rng, no clock), and the
    sampled world the hard level hands it does not change them: only what the seat sees."""
    from engines.six_suit.ai import unknown_cards
    from engines.six_suit.chains import chain_chances, chain_move

    engine = ENGINES["six_suit"]
    for state, seat in _positions("six_suit", 2, 9, 400)[200::10]:
        if state.phase != "play" or state.current != seat:
            continue
        worlds = [engine.determinize(state, seat, random.Random(k)) for k in range(2)]
        got = [chain_chances(w, seat, unknown_cards(w, seat)) for w in worlds]
        assert got[0] == got[1]
        assert chain_move(engine, worlds[0], seat, None) == chain_move(
            engine, worlds[1], seat, None)


def _hidden_rules_spade_position(n: int):
    """Seat 1 has enforced its own rule three times, each time against a spade said with
    nothing (and the three plays share no other trigger), so its trigger is the spade and its
    action unknown: it is really "a spade: say please". Seat 0 is to play on 3♥ (total 13)
    holding 8♠, which makes 21, and two cards that do not."""
    from engines.hidden_rules.decks import PlayContext
    from engines.hidden_rules.rules import Play, Record
    from tests.engines.test_hidden_rules import C, act, scripted

    rules = [(15, 15), (7, 8), (1, 12), (9, 3)][:n]
    hands = [*["8s 2d 4c", "5h 6h 7h", "5d 6d 7d", "5c 6c 9c"][:n - 1], "3h 9h 10h"]
    s = scripted(hands, rules, turned="10c", starter=n - 2)
    s, _ = act(s, n - 1, Play(C("3h")))
    records = [PlayContext(C("7s"), 7, C("5c"), 5, 12, 3),
               PlayContext(C("Qs"), -2, C("9d"), 9, 7, 3),
               PlayContext(C("9s"), 9, C("4h"), 4, 13, 2)]
    s.history = [Record(1, 1, 2 if n > 2 else 0, "hint", "accepted", ctx,
                        tuple(-1 if p == (2 if n > 2 else 0) else 0 for p in range(n)))
                 for ctx in records]
    assert s.to_play == 0 and s.total == 13
    return s


def test_hidden_rules_hard_at_four_players_keeps_off_a_rule_its_holder_keeps_enforcing():
    """The normal AI plays the 8♠ for the trick and says what its beliefs name first, which
    is not "please": the holder takes the card back and a point. Hard counts that risk
    (`safe_plays`) and plays another card."""
    from engines.hidden_rules.decks import PlayContext, broken

    engine = ENGINES["hidden_rules"]
    state = _hidden_rules_spade_position(4)
    for seed in range(3):
        normal = engine.ai_action(state, 0, random.Random(seed))
        hard = engine.ai_action(with_level(state, "hard"), 0, random.Random(seed))
        assert normal.card.code == "8s"
        ctx = PlayContext(normal.card, 8, state.trick[-1][1], 13, 21, 2, normal.say)
        assert broken(7, 8, ctx)  # the normal play is taken back
        assert hard.card.suit != "s"


def test_hidden_rules_hard_at_two_players_still_searches_from_the_normal_move():
    """At 2 players the search (measured better than normal there) is unchanged: the normal
    AI's move is its first candidate, and the plays by the look-ahead follow it."""
    from engines.ai_levels import _candidates

    engine = ENGINES["hidden_rules"]
    state = _hidden_rules_spade_position(2)
    normal = engine.ai_action(state, 0, random.Random(5))
    legal = list(engine.legal_actions(state, 0))
    cands = _candidates(engine, state, 0, random.Random(5), normal, legal, engine.ai.plan)
    assert cands[0] == normal and len(cands) == engine.ai.plan.candidates
    four = _hidden_rules_spade_position(4)
    normal4 = engine.ai_action(four, 0, random.Random(5))
    cands4 = _candidates(engine, four, 0, random.Random(5), normal4,
                         list(engine.legal_actions(four, 0)), engine.ai.plan)
    assert len(cands4) == 1 and cands4[0] != normal4  # at 4: the safe play, unsearched


def test_search_plan_can_differ_at_larger_tables():
    """`SearchPlan.at(players)`: a game may search differently from `larger_from` players on
    (its `larger` plan); below that, and without one, the plan is itself."""
    from engines.ai_levels import SearchPlan

    big = SearchPlan(z=2.0)
    plan = SearchPlan(larger_from=5, larger=big)
    assert [plan.at(n) is plan for n in (2, 3, 4)] == [True] * 3
    assert plan.at(5) is big and plan.at(6) is big
    assert SearchPlan().at(6) == SearchPlan()


def test_search_plan_larger_plan_can_have_a_larger_one_again():
    """A `larger` plan with its own `larger_from` hands a still larger table on (Taboo: one
    plan at 5 players, another at 6)."""
    from engines.ai_levels import SearchPlan

    six = SearchPlan(z=2.0)
    five = SearchPlan(my_turns=1, larger_from=6, larger=six)
    plan = SearchPlan(larger_from=5, larger=five)
    assert plan.at(4) is plan and plan.at(5) is five and plan.at(6) is six


def test_taboo_hard_searches_as_before_below_five_players():
    """Taboo's hard search at 2-4 players is unchanged by the large-table plan."""
    plan = ENGINES["taboo"].ai.plan
    assert all(plan.at(n) is plan for n in (2, 3, 4))
    assert plan.z == 1.0


# sha256 (first 16 hex digits) of Taboo's hard moves at `_taboo_hard_moves` positions, as
# main played them before the 5-player plan judged by `WIN_MODEL` (7732965)
TABOO_HARD_DIGESTS = {2: "ad90cd9f77b8cf19", 3: "d508dd40f5e57436", 4: "2802da0312e68cfd"}


def _taboo_hard_moves(n: int) -> str:
    import hashlib

    engine = ENGINES["taboo"]
    moves = [repr(engine.ai_action(with_level(state, "hard"), seat, random.Random(5)))
             for state, seat in _positions("taboo", n, 17, 40)[::8]]
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_taboo_hard_moves_below_five_players_hash_as_before_the_win_model(n):
    """The 5- and 6-player plans and `WIN_MODEL` change nothing at 2-4 players: the hard
    moves at fixed positions of a normal game hash as they did before."""
    assert _taboo_hard_moves(n) == TABOO_HARD_DIGESTS[n]


def test_taboo_hard_value_is_a_chance_to_win_at_five_and_six_players():
    """At 5 and 6 players the search judges the seat's next turn by its chance to win
    (`WIN_MODEL`, fitted to normal self-play there): in (0, 1), and higher for the same
    table with fewer cards in the seat's hand. Below 5 players there is no model."""
    from engines.taboo.ai import WIN_MODEL, win_features
    from tests.engines.test_taboo import deal

    engine = ENGINES["taboo"]
    assert set(WIN_MODEL) == {5, 6}
    for n in (5, 6):
        start = engine.new_game(n, 1)
        assert len(WIN_MODEL[n]) == len(win_features(engine, start, start.current))
        others = ["2c 3c 4c 5c"] * (n - 1)
        near = deal(["9h 4h", *others], row="Kc 6d 2s", stock="7h 8h 9d 10d Ad 2d 3d")
        far = deal(["9h 4h 10s 8s 3s", *others], row="Kc 6d 2s",
                   stock="7h 8h 9d 10d Ad 2d 3d")
        chances = [engine.ai.value(engine, s, 0) for s in (near, far)]
        assert all(0.0 < c < 1.0 for c in chances)
        assert chances[0] > chances[1]


@pytest.mark.parametrize("n", [5, 6])
def test_taboo_hard_at_five_and_six_players_searches_many_worlds_to_the_next_turn(
        n, monkeypatch):
    """At 5 and 6 players each candidate is played only to the seat's next turn, so the
    budget of simulated actions buys many more worlds than the 4-8 of playouts to the end
    of the race: over a game's searched decisions, at least 4 worlds (worlds_for), at most
    `max_worlds` (40 at 5 players, 32 at 6, whose budget is smaller), and 16 or more in most
    decisions."""
    engine = ENGINES["taboo"]
    plan = engine.ai.plan.at(n)
    assert plan.my_turns == 1 and plan.z == 1.0
    assert (plan.budget, plan.max_worlds) == ((1200, 40) if n == 5 else (960, 32))
    counts = []
    for state, seat in _positions("taboo", n, 8, 200)[::6]:
        cands = len(engine.ai.rank(engine, state, seat, random.Random(0)))
        if len(engine.legal_actions(state, seat)) < 2 or cands < 2:
            continue
        calls = _count_playouts(monkeypatch)
        engine.ai_action(with_level(state, "hard"), seat, random.Random(2))
        if calls:
            counts.append(len(calls) / min(plan.candidates, cands))
    assert counts and all(4 <= c <= plan.max_worlds for c in counts)
    assert sum(c >= 16 for c in counts) > len(counts) / 2


def _six_suit_after_eliminations(victims: list[int], scores: list[int]):
    """A 4-player deal after free time where `victims` are out (their piles gone) and the
    scores are as given; seat 0 (if alive) shows four 4s, a real danger."""
    from tests.engines.test_six_suit import build

    state = build(4, tops={0: "4rc 4yh 4gt 1bs 2rt 3yh"})
    alive = [seat not in victims for seat in range(4)]
    state.alive = alive
    for v in victims:
        state.tops[v * 6:v * 6 + 6] = [-1] * 6
    state.elims = [[v, 1, 5 - k, k] for k, v in enumerate(victims, start=1)]
    state.scores = scores
    return state


def test_six_suit_hard_value_never_prefers_being_eliminated_with_the_same_points():
    """Everyone for themselves at 4 players, an eliminated seat earns no more survival
    points and is rarely the winner (normal self-play: the first player out won 4 of 382
    games): the search's value of a deal where the seat is still alive is higher than that
    of the same deal, the same scores, with the seat eliminated. (The points-lead value
    before it preferred the latter: a seat out of the game no longer counts its own
    danger.)"""
    engine = ENGINES["six_suit"]
    alive = _six_suit_after_eliminations([3], [1, 5, 1, 0])
    out = _six_suit_after_eliminations([3, 0], [1, 5, 1, 0])
    assert engine.ai.value(engine, alive, 0) > engine.ai.value(engine, out, 0)


def test_six_suit_hard_value_is_a_chance_to_win_at_three_and_four_players():
    """At 3 and 4 players, everyone for themselves, the search judges an unfinished deal by
    the seat's chance to win (`WIN_MODEL`, fitted to normal self-play): in [0, 1], higher
    with a larger lead, and the chances of the players in a deal sum to about 1."""
    from engines.six_suit.ai import WIN_MODEL, win_features

    engine = ENGINES["six_suit"]
    for n in (3, 4):
        assert len(WIN_MODEL[n]) == len(win_features(engine.new_game(n, 1), 0))
    ahead = _six_suit_after_eliminations([3], [6, 1, 1, 0])
    behind = _six_suit_after_eliminations([3], [1, 6, 1, 0])
    assert engine.ai.value(engine, ahead, 0) > engine.ai.value(engine, behind, 0)
    chances = [engine.ai.value(engine, ahead, seat) for seat in range(4)]
    assert all(0.0 < c < 1.0 for c in chances)
    assert 0.7 < sum(chances) < 1.3


def test_six_suit_hard_searches_more_worlds_at_three_and_four_players(monkeypatch):
    """Six Suit's plan: 10 worlds at 2 players as before; at 3 and 4 players, where
    `worlds_for` gives 6 and 5, more worlds (up to 10) while the budget of simulated
    actions lasts. Over a 4-player game's searched decisions: never fewer than 5 worlds,
    never more than 10, and most decisions search more than 5."""
    engine = ENGINES["six_suit"]
    plan = engine.ai.plan
    assert plan.max_worlds == worlds_for(plan, engine.new_game(2, 1)) == 10
    counts = []
    for state, seat in _positions("six_suit", 4, 12, 400)[::3]:
        if len(engine.legal_actions(state, seat)) < 2:
            continue
        calls = _count_playouts(monkeypatch)
        engine.ai_action(with_level(state, "hard"), seat, random.Random(1))
        if calls:
            counts.append(len(calls) / plan.candidates)
    assert counts and all(5 <= c <= 10 for c in counts)
    assert sum(c > 5 for c in counts) > len(counts) / 2


def _six_suit_large(n: int, victims: list[int], scores: list[int]):
    """An n-player deal after free time where `victims` are out (their piles gone), with
    the scores given; seat 0 (if alive) shows four 4s."""
    from tests.engines.test_six_suit import cards

    state = ENGINES["six_suit"].new_game(n, 7)
    state.round = 2  # just after free time (only the facts the model reads matter here)
    state.tops[0:6] = cards("4rc 4yh 4gt 1bs 2rt 3yh")
    state.alive = [seat not in victims for seat in range(n)]
    for v in victims:
        state.tops[v * 6:v * 6 + 6] = [-1] * 6
    state.elims = [[v, 1, n + 1 - k, k] for k, v in enumerate(victims, start=1)]
    state.scores = scores
    return state


def _large_chance(state, seat: int) -> float:
    from engines.six_suit.ai import LARGE_MODEL, chance, large_features

    return chance(LARGE_MODEL, large_features(state, seat))


@pytest.mark.parametrize("n", [5, 6, 8, 12])
def test_six_suit_large_model_prefers_the_seat_alive_to_eliminated_with_the_same_points(n):
    """Everyone for themselves at 5 to 12 players, `LARGE_MODEL`'s chance to win of a seat
    still alive is higher than that of the same seat eliminated in the same deal with the
    same scores (a ghost earns no survival points and rarely wins)."""
    scores = [2, 4, 1] + [0] * (n - 3)
    alive = _six_suit_large(n, [n - 1], scores)
    out = _six_suit_large(n, [n - 1, 0], scores)
    assert _large_chance(alive, 0) > _large_chance(out, 0)


def test_six_suit_large_model_is_one_calibrated_chance_for_every_size():
    """One model serves every size from 5 to 12 (`large_features` has the same length at
    each): its chance is in (0, 1), higher with a larger lead, and calibrated where a search
    would read it (the seat's own turn start): over the turn starts after free time of
    normal self-play deals, the mean chance of the seat to move is within 0.05 of the share
    of those turns whose mover won the deal."""
    from engines.six_suit.ai import LARGE_MODEL, large_features
    from engines.six_suit.rules import PREDICT

    engine = ENGINES["six_suit"]
    for n in range(5, 13):
        assert len(large_features(engine.new_game(n, 1), 0)) == len(LARGE_MODEL)
    ahead = _six_suit_large(6, [5], [7, 1, 1, 1, 1, 0])
    behind = _six_suit_large(6, [5], [1, 7, 1, 1, 1, 0])
    assert _large_chance(ahead, 0) > _large_chance(behind, 0)
    for n in (5, 8, 12):
        chances, won = [], []
        for seed in range(3, 13):
            state, rng, movers = engine.new_game(n, seed), random.Random(seed), []
            while engine.outcome(state) is None:
                if state.phase == PREDICT and state.chain == 0 and not state.in_free_time():
                    chance = _large_chance(state, state.current)
                    assert 0.0 < chance < 1.0
                    chances.append(chance)
                    movers.append(state.current)
                seat = min(engine.to_act(state))
                state = engine.apply(state, seat, engine.ai.choose(engine, state, seat,
                                                                   rng)).state
            winners = engine.outcome(state).winners
            won += [1.0 / len(winners) if m in winners else 0.0 for m in movers]
        assert abs(sum(chances) / len(chances) - sum(won) / len(won)) < 0.05


def test_six_suit_hard_value_is_unchanged_by_the_large_model():
    """`LARGE_MODEL` is not the search's value yet: the values over normal self-play deals
    at 2 to 5 and 8 players, everyone for themselves and in teams (every state, every seat),
    hash as they did before it (so every hard move is the same)."""
    import hashlib

    engine = ENGINES["six_suit"]
    digest = hashlib.sha256()
    for n, teams in ((2, 0), (3, 0), (4, 0), (4, 2), (6, 3), (8, 2), (5, 0), (8, 0)):
        state = engine.new_game(n, 7, {"teams": teams})
        rng = random.Random(7)
        while engine.outcome(state) is None:
            seat = min(engine.to_act(state))
            digest.update(" ".join(f"{engine.ai.value(engine, state, p):.12f}"
                                   for p in range(n)).encode())
            state = engine.apply(state, seat, engine.ai.choose(engine, state, seat, rng)).state
    assert digest.hexdigest() == (
        "ec4b1008a84abe4e608422000e8001dbd93d6de6e2fb4f54fa2f3ffd81156cba")
