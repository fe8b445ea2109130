"""Settings from the environment and an optional `.env` file (pydantic-settings).

Every setting is documented in `.env.example`; the names here are the environment names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ROOT = Path(__file__).resolve().parents[1]

TOKEN_HELP = (
    "No Discord bot token is set: create an application and bot at "
    "https://discord.com/developers/applications, copy its token, and put it in the "
    "DISCORD_TOKEN environment variable or in a .env file (see .env.example)."
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore", case_sensitive=False,
                                      env_ignore_empty=True)

    discord_token: SecretStr | None = Field(
        default=None, description="The bot token from the Discord developer portal.")
    database_path: Path = Field(
        default=ROOT / "data" / "cardtable.db",
        description="SQLite file holding tables, results, stats and server settings.")
    database_url: str | None = Field(
        default=None, description="postgresql://user:password@host:5432/db: keep everything "
        "in this PostgreSQL database instead of the SQLite file DATABASE_PATH (needed to run "
        "the bot as several shard processes); empty = SQLite.")
    shard_wait_seconds: float = Field(
        default=60.0, ge=0, le=3600,
        description="On PostgreSQL: how long a starting process waits for its shards while "
        "another process still holds them (a replacement starting while the old one is "
        "stopping), before it gives up with exit status 2.")
    dev_guild_id: int | None = Field(
        default=None, description="If set, slash commands are synced to this server only "
        "(instant); otherwise globally (can take up to an hour to appear).")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    sync_commands: bool = Field(default=True,
                                description="Sync the slash commands with Discord at start-up.")
    turn_seconds: int = Field(default=300, ge=0, le=86_400,
                              description="Default turn timer in seconds (0 = no timer); "
                              "servers can override it per game with /config.")
    afk_turns: int = Field(default=2, ge=1, le=20,
                           description="Consecutive timed-out turns before an AI takes the seat.")
    ai_delay: float = Field(default=1.5, ge=0, le=30,
                            description="Pause in seconds before an AI seat moves, so humans "
                            "can follow the game.")
    ai_hold_seconds: float = Field(
        default=6.0, ge=0, le=120,
        description="While a human may still act on the last move without being waited for "
        "(Hidden Rules: enforce a rule against the card just played), an AI seat whose move "
        "would end that chance holds it this long from the move (0 = off).")
    ai_workers: int = Field(default=1, ge=0, le=16,
                            description="Processes that run hard AI decisions (started on the "
                            "first one), so a search never stalls the bot; 0 = in a thread.")
    ai_worker_timeout: float = Field(default=10.0, gt=0, le=300,
                                     description="Seconds a hard AI decision may take in the "
                                     "worker before the seat plays the normal AI's move "
                                     "instead (and the worker is restarted).")
    timer_tick: float = Field(default=1.0, gt=0, le=60,
                              description="How often turn timers are checked, in seconds.")

    rest_requests_per_second: int = Field(
        default=45, ge=0, le=10_000,
        description="Discord allows a bot about 50 REST requests per second in total; the bot "
        "spaces its own requests to stay under this many (0 = no budget). Interaction replies "
        "never wait.")
    webhook_deliveries: Literal["auto", "always", "never"] = Field(
        default="auto", description="How boards are posted. auto: through the channel (a "
        "clean message) unless the bot's own requests queue up behind Discord's global "
        "limit, then as a followup of the move's interaction (outside that limit, but shown "
        "as a reply); always: as followups whenever a fresh interaction is at hand; never: "
        "through the channel only. true/false are read as always/never.")
    command_cooldown: float = Field(
        default=10.0, ge=0, le=3600,
        description="Seconds a member waits between two uses of a command that posts to the "
        "channel (/<game> new, /<game> board, Play again, /<game> leave in a lobby); 0 = no "
        "cooldown.")

    rest_timeout: float = Field(
        default=10.0, gt=0, le=300,
        description="Seconds before a REST call to Discord is given up (it then frees its "
        "place in the request budget and the delivery is retried).")
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL", description="SQLite's synchronous setting: FULL makes every "
        "confirmed move survive a power loss; NORMAL is faster but an OS crash or power loss "
        "can undo the last moves.")
    pictures: bool = Field(
        default=True, description="Cards also as pictures where servers and members want them "
        "(false = text only everywhere, whatever /config server pictures says).")
    threads: bool = Field(
        default=True, description="A game in its own thread where servers want it (/config "
        "server table_place); false = every game in its lobby's channel.")

    replay_retention_days: int = Field(
        default=90, ge=0, le=36_500,
        description="Days a finished game's replay record is kept (/replay); its result, "
        "stats and ratings stay for good; 0 = keep records for good too.")

    shard_count: int | None = Field(
        default=None, ge=1, le=10_000,
        description="Discord shards in all (every process of the bot uses the same number); "
        "empty = one process, unsharded (up to 2,500 servers).")
    shard_ids: Annotated[list[int] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, a comma list such as 0,1 "
        "(needs SHARD_COUNT; empty = all of them). Each process owns the tables of the "
        "servers on its shards; python -m bot.launcher sets it per process.")

    game_seed: int | None = Field(
        default=None, description="Advanced, for tests and demos: derive every game's shuffle "
        "from this number (and the table id) instead of the system's randomness.")
    discord_api_base: str | None = Field(
        default=None, description="Advanced: REST base URL (e.g. a local fake Discord for "
        "testing); empty = the real Discord.")
    discord_gateway_url: str | None = Field(
        default=None, description="Advanced: gateway URL to use with DISCORD_API_BASE.")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part] or None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            if len(set(self.shard_ids)) != len(self.shard_ids) or not all(
                    0 <= i < self.shard_count for i in self.shard_ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to "
                                 f"{self.shard_count - 1} (SHARD_COUNT - 1)")
        return self

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of `guild_id` (Discord's rule: `(guild_id
        >> 22) % shard_count`; DMs and tables without a server are shard 0's)."""
        if self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return self.shard_ids is None or shard in self.shard_ids

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must start with postgresql:// (or be empty for SQLite)")
        return value

    @field_validator("sqlite_synchronous", mode="before")
    @classmethod
    def _synchronous(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("webhook_deliveries", mode="before")
    @classmethod
    def _webhook_mode(cls, value: object) -> object:
        """Earlier versions took a boolean: true meant always, false never."""
        if isinstance(value, bool):
            return "always" if value else "never"
        text = str(value).strip().lower()
        return {"true": "always", "1": "always", "yes": "always", "on": "always",
                "false": "never", "0": "never", "no": "never", "off": "never"}.get(text, text)

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence for the operator."""


def load_settings(**overrides) -> Settings:
    """Read settings, turning pydantic's report into one readable sentence."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']).upper() or 'setting'}: {err['msg']}"
            for err in exc.errors())
        raise SettingsError(f"A setting is malformed ({problems}); fix it in the environment "
                            "or .env (see .env.example).") from None
