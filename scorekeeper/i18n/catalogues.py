"""Keep the message catalogues in step with the code: ``scripts/i18n`` and the tests use this.

The texts are collected by area (the rules engine, the game's records, the
pages, the web layer, the printed sheets, the command line), each area into
its own ``<area>.po`` per language under ``scorekeeper/translations/<lang>/
LC_MESSAGES/``, so translators can take one area at a time. ``compile`` joins
a language's areas into the one ``messages.mo`` the app reads (committed, so a
wheel or a fresh clone works without a build step). ``problems`` lists
everything that keeps a catalogue from being complete: a text the code uses
that has no translation, a fuzzy or stale entry, a placeholder that differs,
a compiled file that is out of date.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from datetime import datetime
from fnmatch import fnmatch
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from . import DEFAULT, LANGUAGES, TRANSLATIONS

SOURCE = Path(__file__).resolve().parent.parent.parent
# Each area: the files whose texts it holds (paths relative to the repository; first match wins).
AREAS: dict[str, tuple[str, ...]] = {
    "cli": (
        "scorekeeper/cli/*.py",
        "scorekeeper/backup/replicate.py",
        "scorekeeper/serve/workers.py",
    ),
    "engine": ("scorekeeper/rules/*.py",),
    "printing": ("scorekeeper/printing/*.py",),
    "web": ("scorekeeper/web/*.py",),
    "pages": ("templates/*.html",),
    "game": ("scorekeeper/*.py",),  # the rest: actions, store, reports, backup, serve
}
KEYWORDS = {**DEFAULT_KEYWORDS, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "NP_": ((1, "c"), 2)}
DATE = datetime(2026, 11, 23)  # fixed, so updating a catalogue changes only its messages
HEADER = """\
# Phase 10 Scorekeeper, translated. Translate the msgstr lines; scripts/i18n adds and
# removes entries as the code changes (docs/translating.md). Use the table words of
# docs/i18n-glossary.md, and keep every %(name)s placeholder.
#"""
TARGETS = tuple(code for code in LANGUAGES if code != DEFAULT)


def area_of(path: str) -> str | None:
    for area, patterns in AREAS.items():
        if any(fnmatch(path, pattern) for pattern in patterns):
            return area
    return None


def _sources() -> Iterator[tuple[str, Path]]:
    for path in sorted([*SOURCE.glob("scorekeeper/**/*.py"), *SOURCE.glob("templates/*.html")]):
        relative = path.relative_to(SOURCE).as_posix()
        if (area := area_of(relative)) is not None and path.name != "catalogues.py":
            yield area, path


def extract() -> dict[str, Catalog]:
    """Every marked text in the code, by area."""
    templates = {area: _new_catalogue(None) for area in AREAS}
    for area, path in _sources():
        method = "jinja2.ext:babel_extract" if path.suffix == ".html" else "python"
        options = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}
        found = extract_from_file(
            method,
            path,
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            options=options if path.suffix == ".html" else None,
            strip_comment_tags=True,
        )
        for line, message, comments, context in found:
            templates[area].add(
                message,
                locations=[(path.relative_to(SOURCE).as_posix(), line)],
                auto_comments=comments,
                context=context,
            )
    return templates


def _new_catalogue(language: str | None) -> Catalog:
    return Catalog(
        locale=language,
        header_comment=HEADER,
        project="Phase 10 Scorekeeper",
        version="1",
        language_team=f"{language} (docs/translating.md)",
        last_translator="the Phase 10 Scorekeeper authors",
        copyright_holder="the Phase 10 Scorekeeper authors",
        creation_date=DATE,
        revision_date=DATE,
        fuzzy=False,
    )


def po_path(language: str, area: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{area}.po"


def mo_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"


def read(language: str, area: str) -> Catalog:
    path = po_path(language, area)
    if not path.exists():
        return _new_catalogue(language)
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _po_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, no_location=True, sort_output=True, ignore_obsolete=True)
    return out.getvalue()


def update() -> list[Path]:
    """Add new texts to every language's catalogues and drop the ones the code no longer uses."""
    changed = []
    for area, template in extract().items():
        for language in TARGETS:
            catalogue = read(language, area)
            catalogue.update(template, no_fuzzy_matching=True, update_creation_date=False)
            path = po_path(language, area)
            data = _po_bytes(catalogue)
            if len(template) == 0 and not path.exists():
                continue
            if not path.exists() or path.read_bytes() != data:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                changed.append(path)
    return changed


def merged(language: str) -> Catalog:
    """A language's areas as one catalogue, with the plural rule their headers give (a newer
    Babel's locale data may count more forms than the catalogues were translated with)."""
    whole = _new_catalogue(language)
    for area in AREAS:
        catalogue = read(language, area)
        if po_path(language, area).exists():
            whole.mime_headers = [("Plural-Forms", catalogue.plural_forms)]
        for message in catalogue:
            if message.id and message.string and not message.fuzzy:
                whole[message.id] = _copy(message)
    return whole


def _copy(message: Message) -> Message:
    return Message(message.id, message.string, context=message.context)


def compiled(language: str) -> bytes:
    out = io.BytesIO()
    write_mo(out, merged(language))
    return out.getvalue()


def compile_all() -> list[Path]:
    changed = []
    for language in TARGETS:
        path, data = mo_path(language), compiled(language)
        if not path.exists() or not _same_messages(path.read_bytes(), data):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            changed.append(path)
    return changed


def problems(languages: tuple[str, ...] = TARGETS) -> list[str]:
    """Everything that keeps the shipped catalogues from being complete and current."""
    found = []
    templates = extract()
    for language in languages:
        for area, template in templates.items():
            catalogue = read(language, area)
            where = f"{language}/{area}.po"
            for wanted in template:
                if not wanted.id:
                    continue
                message = catalogue.get(wanted.id, wanted.context)
                label = _label(wanted)
                if message is None:
                    found.append(f"{where}: missing {label}")
                elif message.fuzzy:
                    found.append(f"{where}: fuzzy {label}")
                elif not _translated(message):
                    found.append(f"{where}: untranslated {label}")
            for message, errors in catalogue.check():
                found += [f"{where}: {_label(message)}: {error}" for error in errors]
            if _po_bytes(_updated(catalogue, template)) != _po_bytes(catalogue):
                found.append(f"{where}: out of date (run scripts/i18n)")
        if not mo_path(language).exists() or not _same_messages(
            mo_path(language).read_bytes(), compiled(language)
        ):
            found.append(f"{language}: messages.mo is out of date (run scripts/i18n)")
    return found


def _same_messages(shipped: bytes, wanted: bytes) -> bool:
    """Whether two compiled catalogues say the same: every message and the number of plural
    forms. Not byte for byte: another Babel writes another Plural-Forms expression and header
    for the same rule, and the app reads the messages, not the bytes."""
    return _contents(shipped) == _contents(wanted)


def _contents(data: bytes) -> tuple[int, dict[tuple[object, str | None], object]]:
    catalogue = read_mo(io.BytesIO(data))
    messages = {
        (_hashable(message.id), message.context): _hashable(message.string)
        for message in catalogue
        if message.id
    }
    return catalogue.num_plurals, messages


def _updated(catalogue: Catalog, template: Catalog) -> Catalog:
    copy = read_po(io.BytesIO(_po_bytes(catalogue)), locale=catalogue.locale)
    copy.update(template, no_fuzzy_matching=True, update_creation_date=False)
    return copy


def _hashable(text: object) -> object:
    """A plural message's forms come as a list; a tuple can be compared in a dict key."""
    return tuple(text) if isinstance(text, list) else text


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(strings)


def _label(message: Message) -> str:
    ident = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return repr(ident) + (f" (context {message.context!r})" if message.context else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/i18n", description="Update, compile and check the message catalogues."
    )
    parser.add_argument("action", choices=["update", "check"], nargs="?", default="update")
    args = parser.parse_args(argv)
    if args.action == "update":
        for path in [*update(), *compile_all()]:
            print(f"wrote {path.relative_to(SOURCE)}")
    found = problems()
    for problem in found:
        print(problem, file=sys.stderr)
    if found:
        print(f"{len(found)} catalogue problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
