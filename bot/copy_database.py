"""Move a bot from its SQLite file to PostgreSQL: copy every row, once, with the bot stopped.

    python -m bot.copy_database                       # DATABASE_PATH -> DATABASE_URL
    python -m bot.copy_database --from data/cardtable.db --to postgresql://…

Both databases are opened the way the bot opens them — migrated to the same version, and
claimed: the SQLite file's lock and every shard of the PostgreSQL database — so the copy
refuses to run while a bot uses either. The PostgreSQL database must hold no data yet (a
second copy would double every result). Every table of the SQLite file is copied in one
transaction (all or nothing), with the ids it has: buttons on old boards name their table
by id, so games in progress carry on when the bot restarts on PostgreSQL. Identity
sequences then continue after the highest id copied. Prints one line per table and exits
0; a database it can't use, or a PostgreSQL database that already has data, is one
sentence and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.storage import Storage, StorageUnavailable


class CopyRefused(Exception):
    """The copy can't be made; the message is one sentence for the operator."""


async def _tables_in_order(src: Storage) -> list[str]:
    """The SQLite file's tables (not its bookkeeping), each after the tables it references,
    so foreign keys hold at every row."""
    names = [r[0] for r in await src._db.fetch(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name <> 'schema_migrations' ORDER BY name")]
    refs = {name: {r[2] for r in await src._db.fetch(f"PRAGMA foreign_key_list({name})")}
            for name in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and refs[n] <= {*ordered, n}]
        if not ready:  # a reference cycle: none in our schema
            raise CopyRefused("The SQLite tables reference each other in a cycle.")
        ordered += ready
    return ordered


async def copy(source: Path, url: str, out=print) -> dict[str, int]:
    """Copy every row of the SQLite file `source` into the PostgreSQL database at `url`;
    rows copied per table."""
    src = await Storage.open(source)
    try:
        dst = await Storage.open(url)
    except BaseException:
        await src.close()
        raise
    try:
        if src.dialect != "sqlite" or dst.dialect != "postgresql":
            raise CopyRefused("Copy from a SQLite file to a postgresql:// database.")
        if await src.schema_versions() != await dst.schema_versions():
            raise CopyRefused("The two databases are at different migration versions.")
        tables = await _tables_in_order(src)
        columns = await dst._db.columns()
        busy = [t for t in tables if await dst._db.fetchval(
            f"SELECT EXISTS (SELECT 1 FROM {t})")]
        if busy:
            raise CopyRefused(
                f"The PostgreSQL database already holds data (in {', '.join(busy)}); copy "
                "into an empty one, or empty it first.")
        declared = await src._db.columns()
        copied: dict[str, int] = {}
        async with dst._write, dst._db.transaction():
            writer = dst._db._writer
            for table in tables:
                kinds = {name: kind for name, kind, _ in columns.get(table, [])}
                rows = await src._db.fetch(f"SELECT * FROM {table}")
                names = [name for name, _, _ in declared[table]]
                records = [tuple(_as(kinds.get(n), v) for n, v in zip(names, row, strict=True))
                           for row in rows]
                if records:
                    await writer.copy_records_to_table(table, records=records, columns=names,
                                                       schema_name=dst._db.schema)
                    if "id" in names:  # an identity column goes on after the highest id
                        await writer.execute(
                            "SELECT setval(seq::regclass, (SELECT max(id) FROM " + table + ")) FROM "
                            "pg_get_serial_sequence($1, 'id') AS seq WHERE seq IS NOT NULL",
                            f"{dst._db.schema}.{table}")
                copied[table] = len(records)
                out(f"{table}: {len(records)} row(s)")
        return copied
    finally:
        await dst.close()
        await src.close()


def _as(kind: str | None, value):
    """A SQLite value as the PostgreSQL column's type wants it (COPY is strict)."""
    if value is None or kind is None:
        return value
    if kind == "bigint":
        return int(value)
    if kind == "double precision":
        return float(value)
    return value if isinstance(value, str) else str(value)


def main(argv: list[str] | None = None) -> int:
    from bot.settings import SettingsError, load_settings

    parser = argparse.ArgumentParser(prog="python -m bot.copy_database", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="source", help="the SQLite file (default: "
                        "DATABASE_PATH)")
    parser.add_argument("--to", dest="target", help="the PostgreSQL URL (default: "
                        "DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    source = Path(args.source) if args.source else settings.database_path
    target = args.target or settings.database_url
    if not target:
        print("Say where to copy to: --to postgresql://… or DATABASE_URL.", file=sys.stderr)
        return 2
    if not source.is_file():
        print(f"There is no SQLite file at {source}.", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(copy(source, target))
    except (StorageUnavailable, CopyRefused) as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"Copied {sum(copied.values())} row(s) from {source}; start the bot with "
          "DATABASE_URL set.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
