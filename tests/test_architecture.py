"""The house keeps its shape: layers as folders, imports that point one way, every change
through actions, blueprints as leaves, and modules of a readable size.

Read from the code itself (``ast``), so a new module, a new write function or a new import
is judged without anyone updating a list here; only the layer table below is written by
hand, and docs/architecture.md shows the same table.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"

# Which layer may import which (besides itself). A layer is a folder of the package; the
# package root holds the app factory ("factory") and the two small modules every layer may
# use ("shared": clock.py, codes.py). From the top down:
LAYERS: dict[str, set[str]] = {
    "cli": {"serve", "factory", "web", "printing", "actions", "reports", "backup", "store"},
    "serve": {"factory", "web", "actions", "backup", "store"},
    "factory": {"web", "actions", "store"},
    "web": {"printing", "actions", "reports", "backup", "store"},
    "printing": set(),
    "actions": {"reports", "backup", "store"},
    "reports": {"backup", "store"},
    "backup": {"store"},
    "store": set(),
    "rules": set(),
    "shared": set(),
    "live": set(),
    "i18n": set(),
}
# ...and what every layer may use, whatever its place: the engine, the words, the live
# word of a change, the shared clock and codes (each of those imports only what is below it).
BELOW_ALL = {
    "rules": {"i18n"},
    "shared": {"i18n"},
    "live": set(),
    "i18n": set(),
}
SHARED = {"clock", "codes"}
ROOT_MODULES = {"__init__", *SHARED}
LONGEST = 700  # lines: a module longer than this is named in docs/architecture.md with why


def allowed(layer: str) -> set[str]:
    if layer in BELOW_ALL:
        return BELOW_ALL[layer]
    return LAYERS[layer] | set(BELOW_ALL)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in SHARED:
        return "shared"
    if len(parts) > 1 and (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return "factory"  # the package itself, or a name of its __init__ (create_app)


def imported(path: Path) -> set[str]:
    """Every module of the package a file imports, at any depth of its code."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            if source == "scorekeeper" or (source.startswith("scorekeeper.") and not node.module):
                found.update(f"{source}.{alias.name}" for alias in node.names)
            elif source.startswith("scorekeeper"):
                found.add(source)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("scorekeeper"))
    return found


def against(module: str, targets: set[str]) -> list[str]:
    here = layer_of(module)
    return [
        f"{module} imports {target} ({here} -> {layer_of(target)})"
        for target in sorted(targets)
        if layer_of(target) not in (here, *allowed(here))
    ]


def against_the_table(path: Path) -> list[str]:
    return against(module_name(path), imported(path))


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_import_follows_the_layer_table(path):
    assert against_the_table(path) == []


def test_an_import_against_the_table_is_caught():
    assert layer_of(module_name(PACKAGE / "store" / "games.py")) == "store"
    assert "scorekeeper.actions" in imported(PACKAGE / "web" / "blueprints" / "hands.py")
    assert against("scorekeeper.store.nights", {"scorekeeper.backup.table_archive"})
    assert against("scorekeeper.actions.hands", {"scorekeeper.web.access"})
    assert against("scorekeeper.rules.replay", {"scorekeeper.printing.layout"})
    assert against("scorekeeper.clock", {"scorekeeper.reports.statistics"})
    assert not against("scorekeeper.web.blueprints.hands", {"scorekeeper.actions.hands"})
    assert not against("scorekeeper.printing.sheets", {"scorekeeper.rules.game"})


def test_the_package_root_holds_the_factory_and_two_shared_modules():
    assert {path.stem for path in PACKAGE.glob("*.py")} <= ROOT_MODULES


def test_every_folder_is_a_layer_of_the_table():
    folders = {
        path.name for path in PACKAGE.iterdir() if path.is_dir() and (path / "__init__.py").exists()
    }
    assert folders == set(LAYERS) - {"factory", "shared"}


@pytest.mark.parametrize(
    "layer", sorted(set(LAYERS) - {"factory", "shared"}), ids=lambda layer: layer
)
def test_every_folder_says_its_layer_and_what_it_may_import(layer):
    doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text())) or ""
    assert "Layer:" in doc
    said = doc.split("Layer:", 1)[1]
    for other in LAYERS[layer] - {"factory"}:
        assert f"``{other}``" in said, f"{layer}/__init__.py does not name {other}"


def test_docs_show_the_same_layer_table():
    """docs/architecture.md's table of layers lists, for each folder, what it may import."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for layer, targets in LAYERS.items():
        if layer in ("factory", "shared"):
            continue
        row = next((line for line in text.splitlines() if line.startswith(f"| `{layer}/` |")), None)
        assert row is not None, f"no row for {layer}/ in docs/architecture.md"
        for target in targets - {"factory"}:
            assert f"`{target}`" in row, f"the row of {layer}/ does not name {target}"


def test_docs_list_every_module():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for path in MODULES:
        if path.name in ("__init__.py", "__main__.py"):
            continue
        name = path.relative_to(PACKAGE).as_posix()
        assert f"`{name}`" in text or f"`{path.name}`" in text, f"{name} is not in the doc"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_is_short_or_the_doc_says_why(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if lines > LONGEST:
        text = ARCHITECTURE.read_text(encoding="utf-8")
        named = path.relative_to(PACKAGE).as_posix()
        why = re.search(rf"`{re.escape(named)}` \(\d[\d,]* lines\): \S", text)
        assert why, f"{named} has {lines} lines; docs/architecture.md does not say why"


# --- the engine: each module imports only those before it in docs/architecture.md -------

ENGINE = sorted(path for path in (PACKAGE / "rules").glob("*.py") if path.stem != "__init__")


def engine_order(text: str) -> list[str]:
    """The engine's modules in the order of the doc's table: row by row, each row's in its
    order (``check.py``, ``hit.py``, ``solve.py``: hit may import check)."""
    section = text.split("\n## The engine\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return [name for row in rows for name in re.findall(r"`(\w+)\.py`", row)]


def engine_imports_out_of_order(module: str, targets: set[str], order: list[str]) -> list[str]:
    """The engine modules ``module`` imports that the table does not put before it."""
    before = order[: order.index(module)]
    engine = {t.split(".")[2] for t in targets if t.startswith("scorekeeper.rules.")}
    return sorted(engine - set(before))


def test_the_engine_table_lists_every_engine_module_once():
    order = engine_order(ARCHITECTURE.read_text(encoding="utf-8"))
    assert sorted(order) == [path.stem for path in ENGINE]


@pytest.mark.parametrize("path", ENGINE, ids=lambda path: path.name)
def test_an_engine_module_imports_only_those_above_it_in_the_table(path):
    order = engine_order(ARCHITECTURE.read_text(encoding="utf-8"))
    assert engine_imports_out_of_order(path.stem, imported(path), order) == []


def test_an_engine_import_out_of_the_tables_order_is_caught():
    order = engine_order(ARCHITECTURE.read_text(encoding="utf-8"))
    assert order.index("reasons") == 0 and order.index("check") < order.index("hit")
    assert engine_imports_out_of_order("cards", {"scorekeeper.rules.replay"}, order)
    assert engine_imports_out_of_order("check", {"scorekeeper.rules.hit"}, order)
    assert not engine_imports_out_of_order("hit", {"scorekeeper.rules.check"}, order)
    assert "scorekeeper.rules.words" in imported(PACKAGE / "rules" / "phases.py")


# --- every change goes through actions ---------------------------------------------------

STORE = sorted((PACKAGE / "store").glob("*.py"))
WEB = sorted((PACKAGE / "web").rglob("*.py"))
SQL_WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\s")  # as the code writes SQL
SQL_BEGIN = re.compile(r"\s*BEGIN\b")  # store.connection.transaction: a write lock
# Opening the file brings its schema up to date (as start-up does): no one's data changes.
OPENING = {"connect", "migrate"}
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
        if _is_records_insert(node):  # store/records.py: a record's row, written by name
            return True
        if (
            isinstance(node, ast.Attribute)
            and node.attr in SQLITE_UTILS_WRITES
            and isinstance(node.value, ast.Call)
            and _called_name(node.value) == "table"
        ):
            return True
    return False


def _is_records_insert(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "insert"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "records"
    )


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


# store module -> its write functions; ``transaction`` writes by definition
WRITES = {path.stem: write_functions(_tree(path)) for path in STORE if path.stem != "__init__"}
WRITES["connection"] |= {"transaction", "writing"}


def writes_outside_actions(source: ast.Module) -> list[str]:
    """Every use in a web module of a store module's write function, and any SQL write."""
    store_package: set[str] = set()  # local names of scorekeeper.store itself
    modules: dict[str, str] = {}  # local name -> store module
    functions: dict[str, str] = {}  # local name -> "module.function"
    for node in ast.walk(source):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            origin = (node.module or "").split(".")
            for alias in node.names:
                local = alias.asname or alias.name
                if origin == [""] and alias.name == "store":
                    store_package.add(local)
                elif origin == ["store"] and alias.name in WRITES:
                    modules[local] = alias.name
                elif len(origin) == 2 and origin[0] == "store" and origin[1] in WRITES:
                    if alias.name in WRITES[origin[1]]:
                        functions[local] = f"{origin[1]}.{alias.name}"
    found = []
    for node in ast.walk(source):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in modules and node.attr in WRITES[modules[node.value.id]]:
                found.append(f"line {node.lineno}: {modules[node.value.id]}.{node.attr}")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id in store_package
            and node.value.attr in WRITES
            and node.attr in WRITES[node.value.attr]
        ):
            found.append(f"line {node.lineno}: {node.value.attr}.{node.attr}")
        if isinstance(node, ast.Name) and node.id in functions:
            found.append(f"line {node.lineno}: {functions[node.id]}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if SQL_WRITE.match(node.value):
                found.append(f"line {node.lineno}: SQL {node.value[:30]!r}")
    return found


def test_the_write_functions_are_found_in_the_code():
    """The lists the next test uses are read from the code, and hold what is known to write."""
    every = set().union(*WRITES.values())
    assert {"save_change", "create_game", "renew_edit_key", "transaction"} <= every
    assert {"create_table", "rename", "merge", "file_game", "renew_link"} <= WRITES["tables"]
    assert {"submit"} <= WRITES["sent_points"]
    assert {"insert"} <= WRITES["records"] and {"charge", "charging"} <= WRITES["budget"]
    assert not {"get_game", "game_link", "changes"} & every  # reads stay reads
    assert not {"roster", "aliases", "game_ids"} & WRITES["tables"]


@pytest.mark.parametrize("path", WEB, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_the_web_layer_changes_nothing_but_through_actions(path):
    assert writes_outside_actions(_tree(path)) == []


@pytest.mark.parametrize(
    "code",
    [
        "from ...store import tables\ntables.file_game(db, 't', 'g', [])",
        "from ... import store as kept\nkept.games.renew_edit_key(db, 'g', 'k')",
        "from ...store.sent_points import submit\nsubmit(db, 'g', 1, entry)",
        "from ... import store\nwith store.connection.transaction(db):\n    pass",
        "db.execute('UPDATE games SET edit_key = ?', [key])",
    ],
)
def test_a_write_from_the_web_layer_is_caught(code):
    assert writes_outside_actions(ast.parse(code))


# --- blueprints are leaves ------------------------------------------------------------

BLUEPRINTS = sorted((PACKAGE / "web" / "blueprints").glob("*.py"))


def _is_blueprint(source: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _called_name(node.value) == "Blueprint"
        for node in source.body
    )


def blueprints_imported(path: Path) -> set[str]:
    """The blueprint modules a module imports."""
    return {
        target.rpartition(".")[2]
        for target in imported(path)
        if target.startswith("scorekeeper.web.blueprints.")
    }


def test_the_blueprints_are_found_in_the_code():
    names = {path.stem for path in BLUEPRINTS if _is_blueprint(_tree(path))}
    assert {"games", "hands", "watch", "tables", "players", "api", "language"} <= names
    assert {path.stem for path in BLUEPRINTS} - {"__init__"} == names
    support = {path.stem for path in (PACKAGE / "web").glob("*.py")}
    assert not any(_is_blueprint(_tree(PACKAGE / "web" / f"{name}.py")) for name in support)


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda p: p.name)
def test_no_blueprint_imports_another(path):
    """Pages shared by several blueprints are built in a module of their own."""
    assert blueprints_imported(path) - {path.stem} == set()


@pytest.mark.parametrize("path", sorted((PACKAGE / "web").glob("*.py")), ids=lambda p: p.name)
def test_the_web_layers_support_imports_no_blueprint(path):
    if path.name == "__init__.py":
        return  # register() hooks the blueprints up
    assert blueprints_imported(path) == set()


# --- stored records are read and written by name ---------------------------------------

RECORD_MODULES = sorted((PACKAGE / "store").glob("*.py")) + sorted(
    (PACKAGE / "backup").glob("*.py")
)


def by_position(path: Path) -> list[str]:
    """Records (a class, named with a capital) made by unpacking a sequence, as
    ``Night(*row[:8], Mode(row[8]))`` was, and ``type: ignore`` comments, which hid a count
    gone wrong there."""
    found = [
        f"line {node.lineno}: {ast.unparse(node)[:60]}"
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Call)
        and (_called_name(node) or "")[:1].isupper()
        and any(isinstance(argument, ast.Starred) for argument in node.args)
    ]
    lines = path.read_text(encoding="utf-8").splitlines()
    found += [
        f"line {n}: type: ignore" for n, line in enumerate(lines, 1) if "type: ignore" in line
    ]
    return found


@pytest.mark.parametrize("path", RECORD_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_stored_record_is_made_by_position(path):
    """Each record is a dataclass whose fields name its columns (store/records.py), read
    with ``records.read`` and written with ``records.row``: never a position to count."""
    assert by_position(path) == []


def test_a_record_made_by_position_is_caught(tmp_path):
    made = tmp_path / "made.py"
    made.write_text("night = Night(*row[:8], Mode(row[8]))  # type: ignore[call-arg]\n")
    assert len(by_position(made)) == 2
