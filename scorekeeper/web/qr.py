"""QR codes as inline SVG, so a phone can join a game by pointing its camera."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from markupsafe import Markup


def qr_svg(text: str) -> Markup:
    """SVG paths for ``text`` (a URL we built, so safe to inline)."""
    qr = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    out = io.BytesIO()
    qr.make_image(image_factory=qrcode.image.svg.SvgPathImage).save(out)
    svg = out.getvalue().decode()
    return Markup(svg[svg.index("<svg") :])
