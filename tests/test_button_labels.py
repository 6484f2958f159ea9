"""A button's label fits its button in every language: at most about 1.6 times the English.

A label three times the English ("Ausscheiden lassen" for "Retire") wraps on a phone or
pushes its neighbour off the row. The labels are found in the templates: every `<button>`,
submit input and link drawn as a button (`class="button"`, `class="small-button"`), the
texts they show after a tap (`data-copied`), and the labels handed to them through a
variable (`{% set submit_label = ... %}`) or a macro's argument (`renew_form(...)`).
What only a screen reader hears (`aria-label`, `title`, `visually-hidden`) is not measured.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper import SOURCE, i18n

TEMPLATES = SOURCE / "templates"
LANGUAGES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]

# The bound (docs/i18n-glossary.md, "Buttons"): 1.6 times the English length, rounded to
# the nearest character; a label under 10 characters may instead grow by 6 ("Fix" ->
# "Ändern", "Copy" -> "Kopieren"), since a word or two of any language needs that room.
RATIO = 1.6
SHORT_ALLOWANCE = 6

# Placeholders are filled with the values a family sees, the same in every language.
SAMPLE = {"number": "12", "name": "Ann", "names": "Ann, Bob", "game": ""}

MESSAGE = re.compile(r"""\b_\(\s*(["'])(.*?)(?<!\\)\1""", re.S)
ELEMENT = re.compile(
    r"<button\b(?P<attrs>[^>]*)>(?P<body>.*?)</button>"
    r"|<a\b(?P<link_attrs>[^>]*\bclass=\"[^\"]*\b(?:small-)?button\b[^\"]*\"[^>]*)>(?P<link_body>.*?)</a>"
    r"|<input\b(?P<input_attrs>[^>]*\btype=\"submit\"[^>]*)>",
    re.S,
)
UNHEARD_ATTRIBUTE = re.compile(r'\s(?:aria-label|title)="\{\{.*?\}\}"', re.S)
SET = re.compile(r"\{%-?\s*set\s+(\w+)\s*=(.*?)-?%\}", re.S)
MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\(([^)]*)\)\s*-?%\}(.*?)\{%-?\s*endmacro", re.S)


def _messages(text: str) -> list[str]:
    return [ident for _, ident in MESSAGE.findall(text)]


def _buttons(text: str) -> list[str]:
    """The markup of every button a player sees in a template's text."""
    found = []
    for match in ELEMENT.finditer(text):
        attrs = match.group("attrs") or match.group("link_attrs") or match.group("input_attrs")
        css = re.search(r'\bclass="([^"]*)"', attrs)
        if css and "visually-hidden" in css.group(1).split():
            continue
        found.append(UNHEARD_ATTRIBUTE.sub("", match.group(0)))
    return found


def button_labels() -> dict[str, str]:
    """Every msgid shown on a button: msgid -> the template it was found in."""
    labels: dict[str, str] = {}
    texts = {path.name: path.read_text(encoding="utf-8") for path in TEMPLATES.glob("*.html")}
    # macros whose parameter is a button's label: name -> (parameter's place, how many)
    label_params: dict[str, tuple[int, int]] = {}
    for text in texts.values():
        for name, params, body in MACRO.findall(text):
            names = [param.strip() for param in params.split(",")]
            for place, param in enumerate(names):
                if any(re.search(r"\{\{\s*" + param + r"\b", b) for b in _buttons(body)):
                    label_params[name] = (place, len(names))
    buttons = {template: _buttons(text) for template, text in texts.items()}
    shown_names = {
        name
        for markup in buttons.values()
        for button in markup
        for name in re.findall(r"\{\{\s*(\w+)", button)
    }
    for template, text in sorted(texts.items()):
        for button in buttons[template]:
            for ident in _messages(button):
                labels.setdefault(ident, template)
        # a label set in a variable that a button shows, maybe in a template it includes
        # ({% set submit_label = _("Save hand %(number)s", ...) %} for _hand_form.html)
        for name, value in SET.findall(text):
            if name in shown_names:
                for ident in _messages(value):
                    labels.setdefault(ident, template)
        # a label handed to a macro's button: the message in that argument's place
        for name, (place, count) in label_params.items():
            for call in re.finditer(r"\b" + name + r"\((.*?)\)\s*\}\}", text, re.S):
                idents = _messages(call.group(1))
                from_end = count - 1 - place
                if len(idents) > from_end:
                    labels.setdefault(idents[-1 - from_end], template)
    return labels


def shown(text: str) -> str:
    """What a button shows: no markup, nothing only a screen reader hears, values filled."""
    text = re.sub(r'<span class="visually-hidden">.*?</span>', "", text, flags=re.S)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"%\((\w+)\)s", lambda match: SAMPLE.get(match.group(1), "X"), text)
    return " ".join(text.split())


def allowed(english: str) -> int:
    """The longest a translation of this English label may be, in characters."""
    return max(round(RATIO * len(english)), len(english) + SHORT_ALLOWANCE)


def test_the_labels_are_found_on_every_kind_of_button():
    labels = button_labels()
    for ident in [
        "Retire",  # <button>
        "End the game now…",  # a link drawn as a button
        "Save a backup",  # the same
        'Fix<span class="visually-hidden"> hand %(number)s</span>',  # class="small-button"
        "Save hand %(number)s",  # {% set submit_label = ... %}
        "Make a new link, and stop the old one",  # the renew_form macro's argument
        "Copied",  # shown after a tap
    ]:
        assert ident in labels, ident
    assert "Check" not in labels  # a visually hidden button
    assert "View link" not in labels  # an aria-label beside a button


def test_the_bound_is_about_one_and_a_half_times_the_english():
    assert allowed("Fix") == 9 and allowed("Try again") == 15
    assert allowed("Undo last change") == 26 and allowed("Save a backup") == 21
    assert shown('Fix<span class="visually-hidden"> hand %(number)s</span>') == "Fix"
    assert shown("Save hand %(number)s") == "Save hand 12"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_button_label_is_much_longer_than_the_english(language):
    too_long = []
    with i18n.using(language):
        translations = i18n.active()
        for ident, template in button_labels().items():
            english, translated = shown(ident), shown(translations.gettext(ident))
            if len(translated) > allowed(english):
                too_long.append(
                    f"{template}: {english!r} ({len(english)}) -> {translated!r} "
                    f"({len(translated)}, at most {allowed(english)})"
                )
    assert too_long == []
