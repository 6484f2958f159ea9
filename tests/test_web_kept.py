"""What a worker keeps for the next phone (fragments, PDFs) stays within its budget of bytes."""

from scorekeeper.web.kept import Kept


def test_a_value_is_built_once_and_then_kept():
    builds: list[str] = []
    kept: Kept[bytes] = Kept(100)

    def build() -> bytes:
        builds.append("built")
        return b"sheet"

    assert kept.get("a", build) == b"sheet" and kept.get("a", build) == b"sheet"
    assert builds == ["built"]


def test_the_least_recently_used_go_first_when_the_budget_is_full():
    kept: Kept[bytes] = Kept(10)
    for key in ("a", "b"):
        kept.get(key, lambda: b"1234")
    kept.get("a", lambda: b"never")  # asked for again: now the latest
    kept.get("c", lambda: b"1234")
    assert kept.keys() == ["a", "c"] and kept.size == 8
    assert kept.get("a", lambda: b"never") == b"1234"


def test_a_text_counts_its_length_and_one_larger_than_the_budget_is_not_kept():
    kept: Kept[str] = Kept(5)
    assert kept.get("page", lambda: "x" * 6) == "x" * 6
    assert kept.keys() == [] and kept.size == 0
    kept.get("fragment", lambda: "12345")
    assert kept.keys() == ["fragment"] and kept.size == 5
