"""Settings and the `python -m bot` entry point without a token."""

from __future__ import annotations

import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings
from bot.tables.settings import OptionsError, parse_option_text, resolve_options

ROOT = Path(__file__).resolve().parents[2]


def _run_bot(env_extra: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "TURN_SECONDS"}}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {
        "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)


def test_no_token_explains_and_exits_2(tmp_path):
    result = _run_bot({}, tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_malformed_setting_is_one_sentence_and_exit_2(tmp_path):
    result = _run_bot({"DISCORD_TOKEN": "x", "TURN_SECONDS": "soon"}, tmp_path)
    assert result.returncode == 2
    assert "TURN_SECONDS" in result.stderr and "Traceback" not in result.stderr


def test_settings_defaults_and_overrides(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = load_settings(_env_file=None)
    assert settings.discord_token is None
    assert settings.database_path.name.endswith(".db")
    monkeypatch.setenv("DEV_GUILD_ID", "123")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = load_settings(_env_file=None)
    assert settings.dev_guild_id == 123 and settings.log_level == "DEBUG"
    monkeypatch.setenv("LOG_LEVEL", "loud")
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        load_settings(_env_file=None)


def test_option_text_parsing():
    assert parse_option_text("points_target=8 turn_seconds=0 wire=yes name='a b'") == {
        "points_target": "8", "turn_seconds": "0", "wire": "yes", "name": "a b"}
    with pytest.raises(OptionsError):
        parse_option_text("points_target")
    assert parse_option_text("points_target = 8, turn_seconds =0 wire= yes") == {
        "points_target": "8", "turn_seconds": "0", "wire": "yes"}
    with pytest.raises(OptionsError):
        parse_option_text("= 8")


def test_an_option_typed_twice_is_refused_naming_it():
    """`points_target=3 points_target=4` is refused (it used to keep the last value), in any
    case and spacing; the refusal names the option and both values."""
    for text in ("points_target=3 points_target=4", "POINTS_TARGET = 3, points_target=4"):
        with pytest.raises(OptionsError, match=r"`points_target` is given twice \(`3` and `4`\)"):
            parse_option_text(text)


@pytest.mark.parametrize("raw", ["on", "true", "1.0", "².0", "²", "٣", "1e3", "NaN", "inf",
                                 "-inf", "0x10", "1_000", "", "5" * 5000, "x" * 6000, "--1"])
def test_a_number_option_takes_only_ascii_digits(raw):
    """Issue 15: `turn_seconds=on` was read as 1; a boolean is not a number, and unicode
    digits, floats, NaN and huge numbers are refused with a short, friendly reason."""
    from engines import ENGINES

    with pytest.raises(OptionsError) as caught:
        resolve_options(ENGINES["suspense"], {"turn_seconds": raw})
    assert "turn_seconds" in str(caught.value) and len(str(caught.value)) < 300


@pytest.mark.parametrize("raw", ["1", "0", "2", "-0", "enabled", "1.0"])
def test_a_boolean_option_is_on_or_off_never_a_number(raw):
    from engines import ENGINES

    with pytest.raises(OptionsError, match="on or off"):
        resolve_options(ENGINES["suit_taboo"], {"wire": raw})


def test_typed_values_are_read_as_their_option_says():
    from engines import ENGINES

    options, table = resolve_options(ENGINES["suit_taboo"], {
        "wire": "ON", "max_reshuffles": "off", "turn_seconds": "-0", "afk_turns": "+3"})
    assert options.wire is True and options.max_reshuffles is None
    assert table.turn_seconds == 0 and table.afk_turns == 3
    options, _ = resolve_options(ENGINES["suit_taboo"], {"max_reshuffles": "4"})
    assert options.max_reshuffles == 4
    # stored values keep their type and are checked strictly too
    with pytest.raises(OptionsError):
        resolve_options(ENGINES["suit_taboo"], {"wire": 1})
    with pytest.raises(OptionsError):
        resolve_options(ENGINES["suspense"], {"points_target": True})


def test_a_choice_option_takes_one_of_its_values_typed():
    """`ai_level` (easy / normal / hard) could not be typed at all: every text was refused."""
    from engines import ENGINES

    for name, engine in ENGINES.items():
        options, _ = resolve_options(engine, {"ai_level": "Hard"})
        assert options.ai_level == "hard", name
    with pytest.raises(OptionsError, match="`easy`, `normal`, `hard`"):
        resolve_options(ENGINES["taboo"], {"ai_level": "expert"})


def test_option_text_too_long_or_with_odd_keys_is_refused_briefly():
    for text in ("a=1 " * 2000, "x" * 6000 + "=1", "tür=1", "a=\"open"):
        with pytest.raises(OptionsError) as caught:
            parse_option_text(text)
        assert len(str(caught.value)) < 300


def test_resolve_options_validates_with_the_games_model():
    from pydantic import Field

    from engines.core import Engine, GameOptions

    class Opts(GameOptions):
        points_target: int = Field(6, ge=2, le=20, description="Points to win.")

    class Fake(Engine):
        name, title, min_players, max_players, Options = "fake", "Fake", 2, 3, Opts

    options, table = resolve_options(Fake(), {"points_target": 8}, {"turn_seconds": 30})
    assert options.points_target == 8 and table.turn_seconds == 30
    with pytest.raises(OptionsError, match="points_target"):
        resolve_options(Fake(), {"points_target": 99})
    with pytest.raises(OptionsError, match="`colour` isn't an option of Fake"):
        resolve_options(Fake(), {"colour": "red"})


_PYDANTIC_WORDS = ("Input should", "Value error", "greater than", "less than", "valid integer",
                   "valid boolean", "literal_error", "Invalid option", "option(s)")


def _wrong_values(field) -> list[tuple[object, str]]:
    """For one option: values a host could type or a stale store could hold, each with the
    words the refusal must contain."""
    from bot.tables.settings import _bounds, _kinds

    kinds, _nullable = _kinds(field.annotation)
    if typing.get_origin(field.annotation) is typing.Literal:
        return [("expert", "one of `easy`, `normal`, `hard`"), (3, "one of")]
    if bool in kinds:
        return [("maybe", "on` or `off"), (2, "on` or `off")]
    low, high = _bounds(field)
    out: list[tuple[object, str]] = [("lots", f"from {low} to {high}")]
    out.append((str(low - 1), f"and {low - 1} is too low".replace("-", "−")))
    out.append((str(high + 1), f"from {low} to {high}"))
    out.append((high + 1, "too high"))  # a stored value
    return out


@pytest.mark.parametrize("game", ["suspense", "suit_taboo", "hidden_rules", "taboo",
                                  "six_suit"])
def test_every_option_error_is_a_plain_sentence_naming_the_option_and_its_range(game):
    """Option errors read as pydantic wrote them ("Input should be greater than or equal to
    20"). Every option of every game (and every table setting), typed or stored wrong, is
    refused with a sentence naming the option and what it takes: "`max_rounds` takes a
    whole number from 3 to 500, and 2 is too low." """
    from bot.tables.settings import option_fields
    from engines import ENGINES

    engine = ENGINES[game]
    for key, field in option_fields(engine).items():
        for value, words in _wrong_values(field):
            with pytest.raises(OptionsError) as caught:
                resolve_options(engine, {key: value})
            text = str(caught.value)
            assert text.startswith(f"`{key}` ") and words in text, (key, value, text)
            assert not any(w in text for w in _PYDANTIC_WORDS), text
            assert len(text) < 300


def test_empty_and_huge_numbers_are_refused_for_what_they_are():
    """`max_turns=` read "*(nothing)* isn't a whole number" and a 12-digit number "isn't a
    whole number"; they are missing and far too high."""
    from engines import ENGINES

    for raw, words in (("", "but no value was given"),
                       ("999999999999", "`999999999999` is far too high"),
                       ("-99999999999", "is far too low")):
        with pytest.raises(OptionsError, match=words):
            resolve_options(ENGINES["taboo"], {"turn_seconds": raw})


def test_server_setting_errors_are_plain_sentences_too():
    from bot.tables.settings import resolve_server

    with pytest.raises(OptionsError) as caught:
        resolve_server({}, lobby_idle_minutes="0")
    assert str(caught.value) == ("`lobby_idle_minutes` takes a whole number from 1 to 10080, "
                                 "and 0 is too low.")
    with pytest.raises(OptionsError) as caught:
        resolve_server({}, pictures="2")
    assert "`pictures` is either on or off" in str(caught.value)


def test_arrange_teams_seats_teams_alternately_and_honours_choices():
    from bot.tables.service import TableError, arrange_teams

    seats = [{"name": "a", "team": 1}, {"name": "b", "team": 1}, {"name": "c"}, {"name": "d"},
             {"name": "e", "team": 0}, {"name": "f"}]
    ordered = arrange_teams(seats, 2)
    assert [s["team"] for s in ordered] == [0, 1, 0, 1, 0, 1]
    assert {s["name"] for s in ordered[1::2]} >= {"a", "b"}
    assert ordered[0]["name"] == "e"
    with pytest.raises(TableError, match="equal"):
        arrange_teams([{"team": 0}, {"team": 0}, {"team": 0}, {}], 2)
    with pytest.raises(TableError, match="equal teams"):
        arrange_teams([{}, {}, {}], 2)


def test_database_url_must_be_postgresql():
    assert load_settings(database_url="postgresql://bot@db:5432/cards").database_url
    assert load_settings().database_url is None or load_settings().database_url.startswith(
        "postgres")
    with pytest.raises(SettingsError, match="malformed"):
        load_settings(database_url="mysql://x@y/z")
