"""Groups and phases in words, in the players' language: '2 sets of 3', '1 Drilling'.

German names a set and a run by its size (Drilling, Viererfolge), so each
size is its own text for the translators; Spanish and English just fill in
the number. Ordinals ('the 2nd group') and counted nouns live here too, so
the checks never glue English endings onto words.
"""

from __future__ import annotations

from ..i18n import _, join, ngettext


def sets(count: int, size: int) -> str:
    """'1 set of 3', '2 sets of 4' (German: '1 Drilling', '2 Vierlinge')."""
    forms = {
        2: ngettext("%(num)s set of 2", "%(num)s sets of 2", count),
        3: ngettext("%(num)s set of 3", "%(num)s sets of 3", count),
        4: ngettext("%(num)s set of 4", "%(num)s sets of 4", count),
        5: ngettext("%(num)s set of 5", "%(num)s sets of 5", count),
        6: ngettext("%(num)s set of 6", "%(num)s sets of 6", count),
    }
    return forms.get(size) or ngettext(
        "%(num)s set of %(size)s", "%(num)s sets of %(size)s", count, size=size
    )


def runs(count: int, size: int) -> str:
    """'1 run of 4', '2 runs of 4' (German: '1 Viererfolge', '2 Viererfolgen')."""
    forms = {
        2: ngettext("%(num)s run of 2", "%(num)s runs of 2", count),
        3: ngettext("%(num)s run of 3", "%(num)s runs of 3", count),
        4: ngettext("%(num)s run of 4", "%(num)s runs of 4", count),
        5: ngettext("%(num)s run of 5", "%(num)s runs of 5", count),
        6: ngettext("%(num)s run of 6", "%(num)s runs of 6", count),
        7: ngettext("%(num)s run of 7", "%(num)s runs of 7", count),
        8: ngettext("%(num)s run of 8", "%(num)s runs of 8", count),
        9: ngettext("%(num)s run of 9", "%(num)s runs of 9", count),
        10: ngettext("%(num)s run of 10", "%(num)s runs of 10", count),
        11: ngettext("%(num)s run of 11", "%(num)s runs of 11", count),
        12: ngettext("%(num)s run of 12", "%(num)s runs of 12", count),
    }
    return forms[size]


def colour_cards(count: int, size: int) -> str:
    """'7 cards of one colour', '2 x 4 cards of one colour'."""
    if count == 1:
        return _("%(size)s cards of one colour", size=size)
    return _("%(count)s x %(size)s cards of one colour", count=count, size=size)


def set_name(size: int) -> str:
    """One set, named in a message: 'set of 3' (German: 'Drilling')."""
    names = {
        2: _("set of 2"),
        3: _("set of 3"),
        4: _("set of 4"),
        5: _("set of 5"),
        6: _("set of 6"),
    }
    return names.get(size) or _("set of %(size)s", size=size)


def run_name(size: int) -> str:
    """One run, named in a message: 'run of 4' (German: 'Viererfolge')."""
    names = {
        2: _("run of 2"),
        3: _("run of 3"),
        4: _("run of 4"),
        5: _("run of 5"),
        6: _("run of 6"),
        7: _("run of 7"),
        8: _("run of 8"),
        9: _("run of 9"),
        10: _("run of 10"),
        11: _("run of 11"),
        12: _("run of 12"),
    }
    return names[size]


def colour_name(size: int) -> str:
    """One colour group, named in a message: '7 of one colour'."""
    return _("%(size)s of one colour", size=size)


def ordinal_group(n: int) -> str:
    """'the 1st group', 'the 4th group'."""
    names = {
        1: _("the 1st group"),
        2: _("the 2nd group"),
        3: _("the 3rd group"),
    }
    return names.get(n) or _("the %(n)sth group", n=n)


def cards(n: int) -> str:
    """'1 card', '3 cards'."""
    return ngettext("%(num)s card", "%(num)s cards", n)


def numbers(items: list[int] | list[str]) -> str:
    """'7', '7 and 8', '2, 3 and 4', in the current language."""
    return join(str(item) for item in items)


def a_number(n: int) -> str:
    """'a 7', 'an 8', 'an 11': a number card said aloud ('eine 8', 'un 8')."""
    if n in (8, 11):
        return _("an %(number)s", number=n)
    # Translators: a number card said aloud: 'eine 7', 'un 7'.
    return _("a %(number)s", number=n)
