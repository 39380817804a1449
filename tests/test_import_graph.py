"""The package's imports point one way (ARCHITECTURE: cli/bots → match → game → settlement →
hand/rules/tiles → _core): no module of ``python/xueliu`` imports, directly or through others, a
module that imports it back. Every import counts, wherever it stands — at the top, inside a
function (a "late" import is the same circle, only hidden) or under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import pathlib
from typing import Dict, List, Optional, Set

import xueliu

PACKAGE_DIR = pathlib.Path(xueliu.__file__).resolve().parent


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> Dict[str, pathlib.Path]:
    return {module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}


def imports_of(name: str, path: pathlib.Path, known: Set[str]) -> Set[str]:
    """The package modules ``name`` imports (``from . import x`` counts as importing ``x``; a
    submodule import also runs its package's ``__init__``, but that edge is the package's own
    business and is left out, as Python resolves it before the importer's body runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: Set[str] = set()
    for node in ast.walk(tree):
        targets: List[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # "from . import x" imports x; "from .m import x" imports m (and x, if a module).
            targets = ([base] if node.module else []) + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            if t in known and t != name:
                out.add(t)
    return out


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """One import circle, as the list of modules around it, or None."""
    state: Dict[str, int] = {}  # 1 on the current path, 2 done
    path: List[str] = []

    def visit(m: str) -> Optional[List[str]]:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def import_graph() -> Dict[str, Set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def test_the_checker_sees_a_circle_and_late_or_type_checking_imports(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    source = tmp_path / "fake.py"
    source.write_text("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from ..record import replay\n"
                      "def f():\n    from . import state\n    from .observation import x\n")
    known = set(modules())
    assert imports_of("xueliu.game.fake", source, known) == {
        "xueliu.record", "xueliu.game.state", "xueliu.game.observation"}


def test_the_package_has_no_import_circle():
    graph = import_graph()
    assert "xueliu.game.state" in graph and "xueliu.record" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_nothing_imports_the_cli():
    """The CLI (the package xueliu.cli) sits on top of everything (issue 7 §4: simulate once
    imported its error type); only its own modules and ``python -m xueliu`` import it."""
    graph = import_graph()

    def in_cli(m: str) -> bool:
        return m == "xueliu.cli" or m.startswith("xueliu.cli.")

    assert "xueliu.cli.parser" in graph
    assert [m for m, deps in graph.items()
            if any(map(in_cli, deps)) and not in_cli(m) and m != "xueliu.__main__"] == []


def test_the_game_state_does_not_import_its_readers():
    """record.py and the seat views read a state; the engine modules import none of them.
    (redeal.py copies a whole GameState: it sits above the state, as the views do.)"""
    graph = import_graph()
    engine = [m for m in graph if m.startswith("xueliu.game.") and m not in (
        "xueliu.game.state", "xueliu.game.observation", "xueliu.game.events",
        "xueliu.game.view", "xueliu.game.redeal")]
    readers = {"xueliu.record", "xueliu.game.observation", "xueliu.game.events",
               "xueliu.game.view", "xueliu.game.state"}
    for m in engine:
        assert not graph[m] & readers, f"{m} imports {sorted(graph[m] & readers)}"
