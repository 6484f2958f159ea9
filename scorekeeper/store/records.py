"""Stored records, declared once: a frozen dataclass whose fields name its table's columns,
read and written by name, so a new column is a new field and a migration, never a position
to count (docs/storage.md, "Adding a column").

A field is stored as it is, except where its type or its metadata says otherwise:

- an ``Enum`` keeps its value and is read back through its type (``Mode("random")``);
- a ``bool`` keeps 0 or 1;
- ``field(metadata=records.column("seating", load=..., dump=...))``: a field kept in a
  column of another name, or as text of its own (JSON), read back with ``load``.

``None`` is NULL, and passes both ways unconverted.
"""

from __future__ import annotations

import dataclasses
import enum
import sqlite3
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from sqlite_utils import Database

R = TypeVar("R")
Convert = Callable[[Any], Any]
_METADATA = "scorekeeper.store.records"


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a record, as its table keeps it."""

    name: str  # the dataclass's field
    column: str  # the table's column
    kind: Any  # its type, without "| None" (a generic's origin: tuple for tuple[int, ...])
    optional: bool  # it may be None (NULL)
    default: Any  # dataclasses.MISSING when it has none
    load: Convert | None  # the stored value -> the field's (None: as stored)
    dump: Convert | None  # the field's value -> the stored one (None: as it is)


def column(
    name: str | None = None, *, load: Convert | None = None, dump: Convert | None = None
) -> dict[str, Any]:
    """A field's metadata when its column has another ``name``, or when it is stored as
    ``dump`` makes it and read back with ``load``."""
    return {_METADATA: (name, load, dump)}


def fields(record: type) -> tuple[Field, ...]:
    """The record's fields (a dataclass's, its bases' first), each with its column."""
    found = _fields.get(record)
    if found is None:
        found = _fields[record] = _fields_of(record)
    return found


_fields: dict[type, tuple[Field, ...]] = {}  # worked out once per record


def _fields_of(record: type) -> tuple[Field, ...]:
    hints = typing.get_type_hints(record)
    found = []
    for field in dataclasses.fields(record):
        kind, optional = _without_none(hints[field.name])
        name, load, dump = field.metadata.get(_METADATA, (None, None, None))
        if _is_subclass(kind, enum.Enum):
            load, dump = load or kind, dump or _value
        elif kind is bool:
            load, dump = load or bool, dump or int
        found.append(
            Field(field.name, name or field.name, kind, optional, field.default, load, dump)
        )
    return tuple(found)


def _is_subclass(kind: Any, base: type) -> bool:
    return isinstance(kind, type) and issubclass(kind, base)


def _without_none(hint: Any) -> tuple[Any, bool]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(args) == 1:
            return _without_none(args[0])[0], True
    return typing.get_origin(hint) or hint, False


def _value(member: enum.Enum) -> Any:
    return member.value


def columns(record: type) -> str:
    """Its columns, for a SELECT: ``f"SELECT {columns(Night)} FROM nights ..."``."""
    return ", ".join(field.column for field in fields(record))


def read(record: type[R], stored: Mapping[str, Any]) -> R:
    """The record from a row read by name (a column it lacks: the field's default)."""
    found = {}
    for field in fields(record):
        if field.column in stored:
            value = stored[field.column]
            found[field.name] = value if value is None or field.load is None else field.load(value)
    return record(**found)


def row(record: object, part: type | None = None) -> dict[str, Any]:
    """Column -> stored value, for the record's fields (only ``part``'s: a class it extends)."""
    found = {}
    for field in fields(part or type(record)):
        value = getattr(record, field.name)
        found[field.column] = value if value is None or field.dump is None else field.dump(value)
    return found


def values(record: object, part: type | None = None) -> dict[str, Any]:
    """Field -> value, as they are (only ``part``'s: a class it extends): one record's
    fields to make another of a related class."""
    return {field.name: getattr(record, field.name) for field in fields(part or type(record))}


def plain(record: object, part: type | None = None) -> dict[str, Any]:
    """Field -> value as JSON takes it (an Enum as its value), only ``part``'s if given."""
    return {
        name: value.value if isinstance(value, enum.Enum) else value
        for name, value in values(record, part).items()
    }


def rows(db: Database, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Every row of the query, each by its columns' names (``db.query`` would wrap a read
    in a savepoint)."""
    cursor = db.execute(sql, list(params))
    names = [described[0] for described in cursor.description]
    return [dict(zip(names, found, strict=True)) for found in cursor.fetchall()]


def one(db: Database, record: type[R], sql: str, params: Sequence[Any] = ()) -> R | None:
    """The query's first row as a record, or None."""
    found = rows(db, sql, params)
    return read(record, found[0]) if found else None


def many(db: Database, record: type[R], sql: str, params: Sequence[Any] = ()) -> list[R]:
    return [read(record, found) for found in rows(db, sql, params)]


def insert(
    db: Database, table: str, stored: Mapping[str, Any], *, on_conflict: str = ""
) -> sqlite3.Cursor:
    """One row of ``table`` from column -> value (``row(record)`` and what the record's
    table adds, such as the id of the night it belongs to). ``on_conflict``: what follows
    ``ON CONFLICT`` (``"DO NOTHING"``, an upsert's target and update)."""
    names = ", ".join(stored)
    marks = ", ".join("?" * len(stored))
    then = f" ON CONFLICT {on_conflict}" if on_conflict else ""
    return db.execute(
        f"INSERT INTO {table} ({names}) VALUES ({marks}){then}", list(stored.values())
    )
