"""A game's short code: letters and digits to read aloud over the phone and type.

Crockford's base32 alphabet: the digits and the capital letters without I, L,
O and U, so nothing printed can be taken for something else (0/O, 1/I/l) and
no accidental word is spelled. Reading it back forgives what people do: any
case, the spaces and dashes of the printed groups, an O typed for a 0 or an I
or L for a 1, and the whole link pasted instead of the code.

16 characters carry 80 random bits from ``secrets``: guessing any one of a
million games' codes at a thousand tries a second would take about 40 million
years on average (docs/decisions.md, "A game's short code").

Plain Python: the store keeps the code, the web layer reads it with
``normalise`` and shows it with ``grouped``.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 16
BITS = LENGTH * 5  # each character is one of 32
GROUP = 4  # characters read aloud together
# What a reader may type for a character the alphabet leaves out (Crockford's decoding).
_LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})
# Spaces (any kind) and dashes (any kind) between the groups are not part of the code.
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"


def new_code(shard: str = "") -> str:
    """A fresh random code (the store makes sure it is not in use yet), starting with the
    name of the shard that makes it, if any (store/shards.py: 75 random bits then)."""
    return shard + "".join(secrets.choice(ALPHABET) for _ in range(LENGTH - len(shard)))


def normalise(text: str) -> str | None:
    """The code someone typed or pasted, as stored; None when it cannot be a code.

    'abcd efgh-jkmn pqrs', 'ABCD-EFGH-JKMN-PQRS' and 'http://host/abcd-efgh-jkmn-pqrs'
    all read as 'ABCDEFGHJKMNPQRS'; 'O' reads as '0' and 'I' or 'L' as '1'.
    """
    code = text.strip().rpartition("/")[2]
    code = "".join(c for c in code if not c.isspace() and c not in _DASHES)
    code = code.upper().translate(_LOOK_ALIKES)
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def grouped(code: str, separator: str = "-") -> str:
    """'ABCD-EFGH-JKMN-PQRS': the code in groups of four, for reading aloud."""
    return separator.join(code[i : i + GROUP] for i in range(0, len(code), GROUP))
