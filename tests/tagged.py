"""Reading back a tagged PDF as a screen reader would: its structure tree, the text of each
element's marked content, and what of each page is tagged, an artifact or neither.

Read with pypdf and our own walk of the content streams (no verapdf here): each text
operator is decoded through its font's /ToUnicode map and given to the innermost marked
content with an MCID; inside a /Span with /ActualText, the ActualText stands for the glyphs,
as a reader takes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from io import BytesIO

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject

BIDI_MARKS = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)
PAINTS = {b"Tj", b"TJ", b"'", b'"', b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}
PAINTS |= {b"sh", b"EI"}


@dataclass(eq=False)
class Node:
    """A structure element: its type, entries, children and MCIDs (page index, MCID)."""

    kind: str
    entries: DictionaryObject
    kids: list[Node] = field(default_factory=list)
    mcids: list[tuple[int, int]] = field(default_factory=list)

    def walk(self):
        yield self
        for kid in self.kids:
            yield from kid.walk()

    def find(self, kind: str) -> list[Node]:
        return [node for node in self.walk() if node.kind == kind]


@dataclass
class Page:
    """What one page's content says: the text of each MCID, and the problems found."""

    text: dict[int, str] = field(default_factory=dict)
    mcids: list[int] = field(default_factory=list)  # every MCID marked, in content order
    untagged: list[str] = field(default_factory=list)  # painting outside tags and artifacts
    problems: list[str] = field(default_factory=list)  # unbalanced or badly nested marks
    artifacts: int = 0
    languages: list[tuple[str, str]] = field(default_factory=list)  # (a span's /Lang, its text)


@dataclass
class Tagged:
    """A PDF read back: its structure tree, each page's marked content and parent tree."""

    root: Node
    pages: list[Page]
    parents: dict[int, list[Node | None]]  # page's StructParents -> element of each MCID
    struct_parents: list[int | None]

    def text(self, node: Node) -> str:
        """An element's text: its own marked content and its children's, in order."""
        return "".join(self._pieces(node))

    def _pieces(self, node: Node):
        for page, mcid in node.mcids:
            yield self.pages[page].text.get(mcid, "")
        for kid in node.kids:
            yield from self._pieces(kid)


def readable(text: str) -> str:
    """Text as compared: bidi marks and white space left out."""
    return "".join(text.translate(BIDI_MARKS).split())


def read(data: bytes) -> Tagged:
    reader = PdfReader(BytesIO(data))
    numbers = {page.indirect_reference.idnum: index for index, page in enumerate(reader.pages)}
    tree = reader.trailer["/Root"]["/StructTreeRoot"]
    by_id: dict[int, Node] = {}
    root = _node(tree.raw_get("/K"), numbers, by_id, None)
    parents = {}
    nums = tree["/ParentTree"]["/Nums"]
    for index in range(0, len(nums), 2):
        parents[int(nums[index])] = [
            by_id.get(ref.idnum) if isinstance(ref, IndirectObject) else None
            for ref in nums[index + 1]
        ]
    pages = [_page(page) for page in reader.pages]
    struct_parents = [page.get("/StructParents") for page in reader.pages]
    return Tagged(root, pages, parents, struct_parents)


def _node(ref, numbers: dict[int, int], by_id: dict[int, Node], page: int | None) -> Node:
    entries = ref.get_object()
    if "/Pg" in entries:
        page = numbers[entries.raw_get("/Pg").idnum]
    node = Node(str(entries["/S"])[1:], entries)
    by_id[ref.idnum] = node
    kids = entries.get("/K")
    kids = list(kids) if isinstance(kids, ArrayObject) else [] if kids is None else [kids]
    raw = entries.raw_get("/K") if "/K" in entries else None
    refs = list(raw) if isinstance(raw, ArrayObject) else [raw]
    for kid, kid_ref in zip(kids, refs, strict=False):
        if isinstance(kid, int):
            node.mcids.append((page, int(kid)))
        elif isinstance(kid, DictionaryObject) and "/MCID" in kid:
            node.mcids.append((page, int(kid["/MCID"])))
        else:
            node.kids.append(_node(kid_ref, numbers, by_id, page))
    return node


def _unicode_map(font) -> dict[bytes, str]:
    found: dict[bytes, str] = {}
    if "/ToUnicode" not in font:
        return found
    cmap = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, to in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            found[bytes.fromhex(code)] = bytes.fromhex(to).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for first, last, to in re.findall(
            r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block
        ):
            start, width = int(first, 16), len(first) // 2
            base = bytes.fromhex(to).decode("utf-16-be")
            for offset in range(int(last, 16) - start + 1):
                code = (start + offset).to_bytes(width, "big")
                found[code] = base[:-1] + chr(ord(base[-1]) + offset)
    return found


def _page(page) -> Page:
    out = Page()
    stack: list[tuple[str, DictionaryObject]] = []
    _content(page, page.get_contents(), page["/Resources"], stack, out, {})
    if stack:
        out.problems.append(f"{len(stack)} marked-content sequences not closed")
    return out


def _content(page, contents, resources, stack, out: Page, cache) -> None:
    fonts = resources.get("/Font") or {}
    xobjects = resources.get("/XObject") or {}
    font: dict[bytes, str] = {}
    depth = len(stack)
    spans: list[tuple[int, str, list[str]]] = []  # the /Lang spans open: depth, language, text
    for operands, operator in ContentStream(contents, page.pdf).operations:
        if operator in (b"BDC", b"BMC"):
            props = operands[1] if operator == b"BDC" else DictionaryObject()
            tag = str(operands[0])[1:]
            mcid = "/MCID" in props
            inside = [t for t, p in stack]
            if mcid and any("/MCID" in p for _t, p in stack):
                out.problems.append("an MCID inside another")
            if (mcid and "Artifact" in inside) or (tag == "Artifact" and _current(stack)):
                out.problems.append("tagged content and an artifact nested")
            stack.append((tag, props))
            if mcid:
                out.mcids.append(int(props["/MCID"]))
            if tag == "Artifact":
                out.artifacts += 1
            if "/Lang" in props:
                spans.append((len(stack), str(props["/Lang"]), []))
            if "/ActualText" in props and _current(stack) is not None:
                mcid_here = _current(stack)
                out.text[mcid_here] = out.text.get(mcid_here, "") + str(props["/ActualText"])
                for _depth, _language, said in spans:
                    said.append(str(props["/ActualText"]))
        elif operator == b"EMC":
            if len(stack) <= depth:
                out.problems.append("EMC without its BDC")
            else:
                if spans and spans[-1][0] == len(stack):
                    _depth, language, said = spans.pop()
                    out.languages.append((language, "".join(said)))
                stack.pop()
        elif operator == b"Tf":
            name = operands[0]
            if name not in cache:
                cache[name] = _unicode_map(fonts[name].get_object())
            font = cache[name]
        elif operator == b"Do":
            form = xobjects[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                _content(page, form, form.get("/Resources") or resources, stack, out, {})
            else:
                _painted(stack, out, "an image")
        elif operator in PAINTS:
            _painted(stack, out, operator.decode())
            if operator in (b"Tj", b"TJ", b"'", b'"'):
                current = _current(stack)
                spoken = any("/ActualText" in p for _t, p in stack)
                if current is not None and not spoken:
                    strings = operands[-1] if operator == b"TJ" else [operands[-1]]
                    words = "".join(
                        _decode(piece, font)
                        for piece in strings
                        if not isinstance(piece, float | int)
                    )
                    out.text[current] = out.text.get(current, "") + words
                    for _depth, _language, said in spans:
                        said.append(words)
    if len(stack) != depth:
        out.problems.append("a content stream ends inside a marked-content sequence")


def _current(stack) -> int | None:
    for _tag, props in reversed(stack):
        if "/MCID" in props:
            return int(props["/MCID"])
    return None


def _painted(stack, out: Page, what: str) -> None:
    if _current(stack) is None and not any(tag == "Artifact" for tag, _p in stack):
        out.untagged.append(what)


def _decode(piece, font: dict[bytes, str]) -> str:
    raw = piece.original_bytes if hasattr(piece, "original_bytes") else bytes(piece)
    return "".join(font.get(bytes([byte]), "\ufffd") for byte in raw)
