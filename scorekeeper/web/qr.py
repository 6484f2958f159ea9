"""QR codes on web pages: the printing package's renderer, marked safe to inline."""

from __future__ import annotations

from markupsafe import Markup

from ..i18n import _
from ..printing.qr import qr_svg as _qr_svg


def qr_svg(text: str) -> Markup:
    """SVG for ``text``; the link only sets module positions and the label is escaped,
    so it is safe markup."""
    return Markup(_qr_svg(text, _("QR code")))
