"""What a PDF says about itself, as PDF/UA-1 asks: a plain title, shown as the window's title,
and the same words again as XMP metadata, with the standard the document claims.

The document information dictionary (reportlab's) keeps the title, the subject, the author,
the dates; the XMP packet repeats them (``dc:title``, ``dc:description``, ``dc:creator``,
``xmp:CreateDate``...) with ``pdfuaid:part`` 1, the mark of PDF/UA-1, and the document's
language. ``DisplayDocTitle`` asks a viewer to show the title, not the file's name. The title
is plain: the invisible marks that isolate a name in a sentence (``bidi.isolate``) are left
out of it, as every other invisible formatting character.
"""

from __future__ import annotations

import re
import unicodedata
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

_SPACES = re.compile(r"\s+")
PACKET_ID = "W5M0MpCehiHzreSzNTczkc9d"  # the id every XMP packet carries (XMP part 1)


def plain(text: str) -> str:
    """Words for the document's properties: as written (NFC), white space squeezed, without
    invisible formatting characters: a name's isolates, direction marks, a soft hyphen. The
    ones that make letters what they are stay: the joiners (an emoji family, a Persian word)
    and the tags of a subdivision's flag."""
    text = unicodedata.normalize("NFC", _SPACES.sub(" ", text).strip())
    return "".join(char for char in text if _kept(char))


def _kept(char: str) -> bool:
    if unicodedata.category(char) not in ("Cf", "Cc", "Co", "Cs", "Cn"):
        return True
    return char in "\u200c\u200d" or "\U000e0020" <= char <= "\U000e007f"


def describe(canvas: Canvas, language: str) -> None:
    """Give the PDF its XMP metadata and ask viewers to show its title (at ``save``)."""
    document = canvas._doc
    info = document.info
    stream = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary(
            {"Type": pdfdoc.PDFName("Metadata"), "Subtype": pdfdoc.PDFName("XML")}
        ),
        xmp(
            title=info.title,
            subject=info.subject,
            author=info.author,
            creator=info.creator,
            producer=info.producer,
            date=_xmp_date(_info_date(document)),
            language=language,
        ).encode("utf-8"),
        filters=[],  # plain text, so that a tool that knows no PDF finds it
    )
    document.Catalog.Metadata = document.Reference(stream, "XMPMetadata")
    canvas.setViewerPreference("DisplayDocTitle", "true")


def xmp(
    *,
    title: str,
    subject: str,
    author: str,
    creator: str,
    producer: str,
    date: str,
    language: str,
) -> str:
    """The XMP packet: the document's properties, its language and ``pdfuaid:part`` 1."""

    def alt(words: str) -> str:
        return f'<rdf:Alt><rdf:li xml:lang="x-default">{escape(words)}</rdf:li></rdf:Alt>'

    return (
        f'<?xpacket begin="\ufeff" id="{PACKET_ID}"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '<rdf:Description rdf:about=""'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"'
        ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"'
        ' xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">\n'
        "<dc:format>application/pdf</dc:format>\n"
        f"<dc:title>{alt(title)}</dc:title>\n"
        f"<dc:description>{alt(subject)}</dc:description>\n"
        f"<dc:creator><rdf:Seq><rdf:li>{escape(author)}</rdf:li></rdf:Seq></dc:creator>\n"
        f"<dc:language><rdf:Bag><rdf:li>{escape(language)}</rdf:li></rdf:Bag></dc:language>\n"
        f"<pdf:Producer>{escape(producer)}</pdf:Producer>\n"
        f"<xmp:CreatorTool>{escape(creator)}</xmp:CreatorTool>\n"
        f"<xmp:CreateDate>{date}</xmp:CreateDate>\n"
        f"<xmp:ModifyDate>{date}</xmp:ModifyDate>\n"
        "<pdfuaid:part>1</pdfuaid:part>\n"
        "</rdf:Description>\n"
        "</rdf:RDF>\n"
        "</x:xmpmeta>\n"
        '<?xpacket end="w"?>'
    )


def _info_date(document: pdfdoc.PDFDocument) -> str:
    """The date the document information gives, as reportlab writes it there."""
    stamp = document._timeStamp
    formatter = document.info._dateFormatter
    if formatter is not None:
        return str(formatter(*stamp.YMDhms))
    year, month, day, hour, minute, second = stamp.YMDhms
    return (
        f"D:{year:04d}{month:02d}{day:02d}{hour:02d}{minute:02d}{second:02d}"
        f"{stamp.dhh:+03d}'{stamp.dmm:02d}'"
    )


def _xmp_date(pdf_date: str) -> str:
    """D:20261127190500+01'00' as XMP writes it: 2026-11-27T19:05:00+01:00."""
    digits = pdf_date.removeprefix("D:")
    day = f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}"
    time = f"{digits[8:10]}:{digits[10:12]}:{digits[12:14]}"
    offset = digits[14:].replace("'", "")
    zone = "Z" if offset in ("", "Z") else f"{offset[:3]}:{offset[3:5] or '00'}"
    return f"{day}T{time}{zone}"
