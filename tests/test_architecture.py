"""The house keeps its shape: every change goes through actions, and blueprints are leaves.

Read from the code itself (``ast``), so a new write function or a new import is judged
without anyone updating a list here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
WEB = sorted((PACKAGE / "web").glob("*.py"))
# The modules that write the file; the web layer reaches them only through actions.py.
WRITERS = ("store", "tables", "self_entry", "nights")
SQL_WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\s")  # as the code writes SQL
SQL_BEGIN = re.compile(r"\s*BEGIN\b")  # store.transaction: a write lock
# Opening the file brings its schema up to date (as start-up does): no one's data changes.
OPENING = {"connect"}
SQLITE_UTILS_WRITES = {"insert", "insert_all", "upsert", "upsert_all", "delete", "delete_where"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _writes_itself(function: ast.AST) -> bool:
    """SQL that writes, a write transaction, or a sqlite-utils write (``db.table(...).upsert``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SQL_WRITE.match(node.value) or SQL_BEGIN.match(node.value):
                return True
        if isinstance(node, ast.Call) and _called_name(node) == "transaction":
            return True
        if (
            isinstance(node, ast.Attribute)
            and node.attr in SQLITE_UTILS_WRITES
            and isinstance(node.value, ast.Call)
            and _called_name(node.value) == "table"
        ):
            return True
    return False


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def write_functions(source: ast.Module) -> set[str]:
    """The module's functions that write, directly or through another of its writers."""
    functions = {
        node.name: node
        for node in source.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    writers = {name for name, function in functions.items() if _writes_itself(function)}
    grew = True
    while grew:
        grew = False
        for name, function in functions.items():
            if name in writers:
                continue
            called = {
                _called_name(node) for node in ast.walk(function) if isinstance(node, ast.Call)
            }
            if called & writers:
                writers.add(name)
                grew = True
    return writers - OPENING


WRITES = {module: write_functions(_tree(PACKAGE / f"{module}.py")) for module in WRITERS}


def writes_outside_actions(source: ast.Module) -> list[str]:
    """Every use in a web module of a writer module's write function, and any SQL write."""
    modules: dict[str, str] = {}  # local name -> writer module
    functions: dict[str, str] = {}  # local name -> "module.function"
    for node in ast.walk(source):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            origin = (node.module or "").rsplit(".", 1)[-1]
            for alias in node.names:
                local = alias.asname or alias.name
                if node.module in (None, "") and alias.name in WRITERS and node.level == 2:
                    modules[local] = alias.name
                elif node.level == 2 and origin in WRITERS and alias.name in WRITES[origin]:
                    functions[local] = f"{origin}.{alias.name}"
    found = []
    for node in ast.walk(source):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr in WRITES[modules[node.value.id]]
        ):
            found.append(f"line {node.lineno}: {modules[node.value.id]}.{node.attr}")
        elif isinstance(node, ast.Name) and node.id in functions:
            found.append(f"line {node.lineno}: {functions[node.id]}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SQL_WRITE.match(node.value):
                found.append(f"line {node.lineno}: SQL {node.value[:30]!r}")
    return found


def test_the_write_functions_are_found_in_the_code():
    """The lists the next test uses are read from the code, and hold what is known to write."""
    assert {"save_change", "create_game", "renew_edit_key", "transaction"} <= WRITES["store"]
    assert {"create_table", "rename", "merge", "file_game", "renew_link"} <= WRITES["tables"]
    assert {"submit"} <= WRITES["self_entry"]
    assert not {"get_game", "game_link", "changes"} & WRITES["store"]  # reads stay reads
    assert not {"roster", "aliases", "game_ids"} & WRITES["tables"]


@pytest.mark.parametrize("path", WEB, ids=lambda path: path.name)
def test_the_web_layer_changes_nothing_but_through_actions(path):
    assert writes_outside_actions(_tree(path)) == []


@pytest.mark.parametrize(
    "code",
    [
        "from .. import tables\ntables.file_game(db, 't', 'g', [])",
        "from .. import store as kept\nkept.renew_edit_key(db, 'g', 'k')",
        "from ..self_entry import submit\nsubmit(db, 'g', 1, entry)",
        "from .. import store\nwith store.transaction(db):\n    pass",
        "db.execute('UPDATE games SET edit_key = ?', [key])",
    ],
)
def test_a_write_from_the_web_layer_is_caught(code):
    assert writes_outside_actions(ast.parse(code))


# --- blueprints are leaves ------------------------------------------------------------


def _is_blueprint(source: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _called_name(node.value) == "Blueprint"
        for node in source.body
    )


BLUEPRINTS = {path.stem for path in WEB if _is_blueprint(_tree(path))}


def web_modules_imported(source: ast.Module) -> set[str]:
    """The modules of scorekeeper/web/ a web module imports (``from .x``, ``from . import x``)."""
    found = set()
    for node in ast.walk(source):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_the_blueprints_are_found_in_the_code():
    assert {"games", "hands", "watch", "tables", "players", "api"} <= BLUEPRINTS
    assert not {"access", "live", "forms", "security"} & BLUEPRINTS


@pytest.mark.parametrize("path", [p for p in WEB if p.stem in BLUEPRINTS], ids=lambda p: p.name)
def test_no_blueprint_imports_another(path):
    """Pages shared by several blueprints are built in a module of their own."""
    assert web_modules_imported(_tree(path)) & BLUEPRINTS == set()


def test_an_import_of_another_blueprint_is_caught():
    assert web_modules_imported(ast.parse("from .games import render_game")) == {"games"}
    assert web_modules_imported(ast.parse("from . import device, live")) == {"device", "live"}
