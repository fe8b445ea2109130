"""Sum up the requests the bot made in e2e runs, for an audit against Discord's docs.

Run e2e tests with ``E2E_TRAFFIC_LOG=/tmp/traffic.jsonl`` (tests/e2e/conftest.py writes every
request of each test there; ``E2E_THREADS=1`` plays them the default way, a thread per game, and
pictures are on unless ``E2E_PICTURES=0``), then
``python -m scripts.traffic_audit /tmp/traffic.jsonl``. Prints each distinct request shape
(method, route, where it went, the body's keys and value kinds, the headers) with how often it
was seen and its statuses, the values of the fields the docs restrict (flags,
allowed_mentions, auto_archive_duration, thread names' lengths, attachments kept on edits),
and which callback types answered which interaction types.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

#: Headers every request carries (not worth a line per shape).
COMMON = {"Host", "Accept", "Accept-Encoding", "Content-Length", "User-Agent", "Authorization"}
CHANNEL_KINDS = {0: "text", 1: "dm", 5: "announcement", 10: "ann-thread", 11: "thread",
                 12: "private-thread"}
INTERACTIONS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal-submit"}


def shape(value: Any, depth: int = 0) -> str:
    """The keys and kinds of a JSON value, arrays merged into one element shape."""
    if isinstance(value, dict):
        if depth > 3:
            return "{…}"
        return "{" + ",".join(f"{k}:{shape(v, depth + 1)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, list):
        inner = sorted({shape(v, depth + 1) for v in value})
        return "[" + "|".join(inner) + "]"
    return {bool: "b", int: "i", float: "f", str: "s", type(None): "null"}.get(type(value), "?")


def where(row: dict) -> str:
    kind = CHANNEL_KINDS.get(row.get("channel_type"), str(row.get("channel_type")))
    if row.get("interaction_type"):
        return f"{INTERACTIONS.get(row['interaction_type'])} in {kind}"
    return kind


def headers_of(row: dict) -> str:
    hdrs = row.get("headers") or {}
    kept = sorted(f"{k}={v.split(';')[0]}" if k == "Content-Type" else k
                  for k in hdrs if k not in COMMON for v in [hdrs[k]])
    return " ".join(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="+")
    args = parser.parse_args()
    rows = [json.loads(line) for path in args.log
            for line in Path(path).read_text().splitlines()]
    shapes: dict[tuple, Counter] = defaultdict(Counter)
    callbacks: dict[str, Counter] = defaultdict(Counter)
    facts: dict[str, Counter] = defaultdict(Counter)
    agents = Counter()
    for row in rows:
        body = row.get("json")
        body = body if isinstance(body, dict) else {}
        route = re.sub(r"/interactions/\{.*?\}/\{.*?\}", "/interactions/{id}/{token}",
                       row["route"])
        data = body.get("data") if "callback" in route else body
        key = (route, where(row), shape(body), headers_of(row),
               f"files={len(row.get('files') or [])}", json.dumps(row.get("query") or {}))
        shapes[key][row["status"]] += 1
        agents[(row.get("headers") or {}).get("User-Agent", "")] += 1
        if "callback" in route:
            label = INTERACTIONS.get(row["interaction_type"], str(row["interaction_type"]))
            if row["interaction_type"] == 5 and row.get("interaction_message"):
                label += " (from a message)"
            callbacks[label][body.get("type")] += 1
        data = data if isinstance(data, dict) else {}
        tag = f"{row['method']} {route} [{where(row)}]"
        if "flags" in data:
            facts[f"flags: {tag}"][data["flags"]] += 1
        if "allowed_mentions" in data:
            facts[f"allowed_mentions: {tag}"][json.dumps(data["allowed_mentions"],
                                                         sort_keys=True)[:80]] += 1
        for field in ("auto_archive_duration", "archived", "locked", "type", "nonce",
                      "enforce_nonce", "message_reference", "tts", "sticker_ids", "poll"):
            if field in data and "callback" not in route:
                facts[f"{field}: {tag}"][json.dumps(data[field])[:60]] += 1
        if "name" in data and "threads" in route:
            facts[f"thread name length: {tag}"][len(data["name"])] += 1
        if "attachments" in data:
            kept = ["id" in a and "filename" not in a for a in data["attachments"] or []]
            facts[f"attachments (kept by id / new): {tag}"][
                f"{sum(kept)}/{len(kept) - sum(kept)}"] += 1
        for embed in data.get("embeds") or []:
            for part in ("image", "thumbnail"):
                url = (embed.get(part) or {}).get("url", "")
                facts[f"embed {part} url scheme: {tag}"][url.split(":")[0]] += 1
    print(f"{len(rows)} requests, {len(shapes)} distinct shapes\n")
    for key in sorted(shapes):
        route, place, body, hdrs, files, query = key
        statuses = ", ".join(f"{s}×{n}" for s, n in sorted(shapes[key].items(), key=str))
        print(f"{route}  [{place}]  {files}  query={query}  headers: {hdrs or '-'}  ({statuses})")
        print(f"    body {body}")
    print("\nCallback types by interaction type:")
    for label, counts in sorted(callbacks.items()):
        print(f"  {label}: {dict(counts)}")
    print("\nRestricted fields:")
    for fact, counts in sorted(facts.items()):
        print(f"  {fact}: {dict(counts.most_common(8))}")
    print(f"\nUser-Agents: {dict(agents)}")


if __name__ == "__main__":
    main()
