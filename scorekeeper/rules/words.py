"""Groups and phases in words, in the players' language: '2 sets of 3', '1 Drilling'.

German names a set and a run by its size (Drilling, Viererfolge), so each
size is its own text for the translators; Spanish and English just fill in
the number. Ordinals ('the 2nd group') and counted nouns live here too, so
the checks never glue English endings onto words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import N_, _, join, ngettext

# One text per size, so German can say 'Drilling' and 'Viererfolge'; translated where used.
_SET_NAMES = {
    2: N_("set of 2"),
    3: N_("set of 3"),
    4: N_("set of 4"),
    5: N_("set of 5"),
    6: N_("set of 6"),
}
_RUN_NAMES = {
    2: N_("run of 2"),
    3: N_("run of 3"),
    4: N_("run of 4"),
    5: N_("run of 5"),
    6: N_("run of 6"),
    7: N_("run of 7"),
    8: N_("run of 8"),
    9: N_("run of 9"),
    10: N_("run of 10"),
    11: N_("run of 11"),
    12: N_("run of 12"),
}
_ORDINAL_GROUPS = {
    1: N_("the 1st group"),
    2: N_("the 2nd group"),
    3: N_("the 3rd group"),
}


def sets(count: int, size: int) -> str:
    """'1 set of 3', '2 sets of 4' (German: '1 Drilling', '2 Vierlinge')."""
    match size:
        case 2:
            return ngettext("%(num)s set of 2", "%(num)s sets of 2", count)
        case 3:
            return ngettext("%(num)s set of 3", "%(num)s sets of 3", count)
        case 4:
            return ngettext("%(num)s set of 4", "%(num)s sets of 4", count)
        case 5:
            return ngettext("%(num)s set of 5", "%(num)s sets of 5", count)
        case 6:
            return ngettext("%(num)s set of 6", "%(num)s sets of 6", count)
        case _:
            return ngettext("%(num)s set of %(size)s", "%(num)s sets of %(size)s", count, size=size)


def runs(count: int, size: int) -> str:
    """'1 run of 4', '2 runs of 4' (German: '1 Viererfolge', '2 Viererfolgen')."""
    match size:
        case 2:
            return ngettext("%(num)s run of 2", "%(num)s runs of 2", count)
        case 3:
            return ngettext("%(num)s run of 3", "%(num)s runs of 3", count)
        case 4:
            return ngettext("%(num)s run of 4", "%(num)s runs of 4", count)
        case 5:
            return ngettext("%(num)s run of 5", "%(num)s runs of 5", count)
        case 6:
            return ngettext("%(num)s run of 6", "%(num)s runs of 6", count)
        case 7:
            return ngettext("%(num)s run of 7", "%(num)s runs of 7", count)
        case 8:
            return ngettext("%(num)s run of 8", "%(num)s runs of 8", count)
        case 9:
            return ngettext("%(num)s run of 9", "%(num)s runs of 9", count)
        case 10:
            return ngettext("%(num)s run of 10", "%(num)s runs of 10", count)
        case 11:
            return ngettext("%(num)s run of 11", "%(num)s runs of 11", count)
        case 12:
            return ngettext("%(num)s run of 12", "%(num)s runs of 12", count)
        case _:
            raise KeyError(size)  # a run holds 2 to 12 cards (phases.py checks)


def colour_cards(count: int, size: int) -> str:
    """'7 cards of one colour', '2 x 4 cards of one colour'."""
    if count == 1:
        return _("%(size)s cards of one colour", size=size)
    return _("%(count)s x %(size)s cards of one colour", count=count, size=size)


def set_name(size: int) -> str:
    """One set, named in a message: 'set of 3' (German: 'Drilling')."""
    if size in _SET_NAMES:
        return _(_SET_NAMES[size])
    return _("set of %(size)s", size=size)


def run_name(size: int) -> str:
    """One run, named in a message: 'run of 4' (German: 'Viererfolge')."""
    return _(_RUN_NAMES[size])


def colour_name(size: int) -> str:
    """One colour group, named in a message: '7 of one colour'."""
    return _("%(size)s of one colour", size=size)


def ordinal_group(n: int) -> str:
    """'the 1st group', 'the 4th group'."""
    if n in _ORDINAL_GROUPS:
        return _(_ORDINAL_GROUPS[n])
    return _("the %(n)sth group", n=n)


def cards(n: int) -> str:
    """'1 card', '3 cards'."""
    return ngettext("%(num)s card", "%(num)s cards", n)


def listed(numbers: Sequence[int]) -> str:
    """'2, 4, 6': phase numbers in a list, as a reason quotes them."""
    return ", ".join(str(n) for n in numbers)


def numbers(items: list[int] | list[str]) -> str:
    """'7', '7 and 8', '2, 3 and 4', in the current language."""
    return join(str(item) for item in items)


def a_number(n: int) -> str:
    """'a 7', 'an 8', 'an 11': a number card said aloud ('eine 8', 'un 8')."""
    if n in (8, 11):
        return _("an %(number)s", number=n)
    # Translators: a number card said aloud: 'eine 7', 'un 7'.
    return _("a %(number)s", number=n)
