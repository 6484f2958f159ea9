"""What a worker keeps for the next phone (fragments, PDFs) stays within its budget of bytes."""

import sys

from scorekeeper.web.render_cache import Kept

PDF = b"%PDF-1.4"  # any bytes: one kept value
ONE = sys.getsizeof(PDF)  # the memory it takes


def test_a_value_is_built_once_and_then_kept():
    builds: list[str] = []
    kept: Kept[bytes] = Kept(100)

    def build() -> bytes:
        builds.append("built")
        return PDF

    assert kept.get("a", build) == PDF and kept.get("a", build) == PDF
    assert builds == ["built"]


def test_the_least_recently_used_go_first_when_the_budget_is_full():
    kept: Kept[bytes] = Kept(2 * ONE)
    for key in ("a", "b"):
        kept.get(key, lambda: PDF)
    kept.get("a", lambda: b"never")  # asked for again: now the latest
    kept.get("c", lambda: PDF)
    assert kept.keys() == ["a", "c"] and kept.size == 2 * ONE
    assert kept.get("a", lambda: b"never") == PDF


def test_a_text_counts_the_memory_it_takes_and_one_over_the_budget_is_not_kept():
    page = "Ann \u2714 " * 100  # a tick makes each character take two bytes
    kept: Kept[str] = Kept(sys.getsizeof(page))
    assert kept.get("page", lambda: page + "!") == page + "!"
    assert kept.keys() == [] and kept.size == 0
    kept.get("fragment", lambda: page)
    assert kept.keys() == ["fragment"] and kept.size == sys.getsizeof(page) > 2 * len(page)
