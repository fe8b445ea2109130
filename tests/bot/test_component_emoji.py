"""Every emoji the bot's code can put on a button or a select option is one Discord accepts
there: a fully-qualified Unicode emoji (issue 14: the board's 🂠 made Discord refuse every
board). The fake checks what the tests happen to send; this reads the code itself, so a
screen no test opens is covered too.

It follows every `emoji=` argument in bot/ and cogs/ back to the string literals that can
reach it: a literal; a parameter of a helper or a component class (then every call of it,
by keyword or by position); a local name bound from literals. Anything else fails the test
with its place, so a new way of choosing an emoji cannot slip by unchecked.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from fakediscord.limits import is_unicode_emoji

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py"))]


@dataclass
class Found:
    emoji: dict[str, list[str]] = field(default_factory=dict)  # literal -> places
    unresolved: list[str] = field(default_factory=list)
    forwarding: dict[str, int | None] = field(default_factory=dict)  # callable -> position

    def add(self, value: str, where: str) -> None:
        self.emoji.setdefault(value, []).append(where)


def _emoji_position(func: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """The position of a parameter named `emoji` among the positional ones a caller passes
    (`self` not counted), or None if it can only be given by keyword."""
    names = [a.arg for a in func.args.posonlyargs + func.args.args]
    if names and names[0] == "self":
        names = names[1:]
    return names.index("emoji") if "emoji" in names else None


def _callable_name(func: ast.FunctionDef | ast.AsyncFunctionDef, parents: list[ast.AST]) -> str:
    """A helper's name, or its class's name for an `__init__` (the class is what is called)."""
    if func.name == "__init__":
        owner = next((p for p in reversed(parents) if isinstance(p, ast.ClassDef)), None)
        if owner is not None:
            return owner.name
    return func.name


def _called_name(call: ast.Call) -> str | None:
    target = call.func
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def _literals_bound(func: ast.AST, name: str) -> list[ast.expr] | None:
    """The expressions a local `name` is bound from in `func` (plain or tuple assignment,
    conditional expressions followed into both branches); None if not only those."""
    found: list[ast.expr] = []
    for node in ast.walk(func):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                found.append(node.value)
            elif isinstance(target, ast.Tuple):
                index = next((i for i, elt in enumerate(target.elts)
                              if isinstance(elt, ast.Name) and elt.id == name), None)
                if index is None:
                    continue
                branches = [node.value]
                while branches:
                    value = branches.pop()
                    if isinstance(value, ast.IfExp):
                        branches += [value.body, value.orelse]
                    elif isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                        found.append(value.elts[index])
                    else:
                        return None
    return found or None


def _resolve(value: ast.expr, where: str, func: ast.AST | None, params: set[str],
             owner: str | None, found: Found) -> None:
    if isinstance(value, ast.Constant):
        if isinstance(value.value, str):
            found.add(value.value, where)
        elif value.value is not None:
            found.unresolved.append(f"{where}: {ast.unparse(value)}")
        return
    if isinstance(value, ast.IfExp):
        for branch in (value.body, value.orelse):
            _resolve(branch, where, func, params, owner, found)
        return
    if isinstance(value, ast.Name) and value.id in params and owner is not None:
        return  # a parameter: its callers are followed (Found.forwarding)
    if isinstance(value, ast.Name) and func is not None:
        bound = _literals_bound(func, value.id)
        if bound is not None:
            for expr in bound:
                _resolve(expr, where, func, params, owner, found)
            return
    found.unresolved.append(f"{where}: {ast.unparse(value)}")


def scan() -> Found:
    found = Found()
    calls: list[tuple[ast.Call, str, ast.AST | None, set[str], str | None]] = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        rel = path.relative_to(ROOT)

        def visit(node: ast.AST, parents: list[ast.AST], func: ast.AST | None,
                  params: set[str], owner: str | None, rel: Path = rel) -> None:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = {a.arg for a in node.args.posonlyargs + node.args.args
                         + node.args.kwonlyargs}
                owner = None
                if "emoji" in names:
                    owner = _callable_name(node, parents)
                    found.forwarding[owner] = _emoji_position(node)
                func, params = node, names
            if isinstance(node, ast.Call):
                calls.append((node, f"{rel}:{node.lineno}", func, params, owner))
            for child in ast.iter_child_nodes(node):
                visit(child, [*parents, node], func, params, owner)

        visit(tree, [], None, set(), None)
    for call, where, func, params, owner in calls:
        for keyword in call.keywords:
            if keyword.arg == "emoji":
                _resolve(keyword.value, where, func, params, owner, found)
        name = _called_name(call)
        position = found.forwarding.get(name) if name else None
        if position is not None and len(call.args) > position:
            _resolve(call.args[position], where, func, params, owner, found)
    return found


def test_every_component_emoji_in_the_code_is_one_discord_accepts():
    found = scan()
    assert not found.unresolved, (
        "emoji whose value this scan cannot follow to literals (make them literals, or "
        f"teach the scan): {found.unresolved}")
    refused = {value: places for value, places in found.emoji.items()
               if not is_unicode_emoji(value)}
    assert not refused, f"not fully-qualified Unicode emoji (Discord refuses them): {refused}"
    # the scan really reads the code: the board, the panel, replays and the DM retry button
    for expected in ("▶️", "↩️", "➡️", "⏮️", "🃏", "📺", "📬"):
        assert expected in found.emoji, f"{expected} not found: {sorted(found.emoji)}"
    assert len(found.emoji) >= 15, sorted(found.emoji)


def test_the_scan_refuses_what_discord_refuses():
    """The check itself: the card back 🂠 (not an emoji), a heart without its variation
    selector (unqualified) and a word are refused; the qualified heart is accepted."""
    assert not is_unicode_emoji("🂠")
    assert not is_unicode_emoji("♥")
    assert not is_unicode_emoji("hand")
    assert is_unicode_emoji("♥️")
