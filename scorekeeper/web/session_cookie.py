"""The session cookie, signed as Flask signs it, without redoing the same work per request.

Flask makes a new serializer for every request, and itsdangerous derives the
signing key from the secret again for every signature. Both depend only on the
secret key, so here they are made once per key. The cookie's format and
signature are unchanged: cookies signed before keep working.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from itsdangerous.encoding import want_bytes


class _Signer(TimestampSigner):
    """Derives each secret's signing key once (the derivation is an HMAC of the secret)."""

    _derived: dict[tuple[Any, ...], bytes] = {}

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        secret = self.secret_keys[-1] if secret_key is None else want_bytes(secret_key)
        key = (secret, self.salt, self.key_derivation, self.digest_method)
        derived = self._derived.get(key)
        if derived is None:
            derived = self._derived[key] = super().derive_key(secret_key)
        return derived


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions with one serializer per secret key."""

    def __init__(self) -> None:
        self._serializers: dict[tuple[str | bytes, ...], URLSafeTimedSerializer] = {}

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure whenever this request came over HTTPS (SESSION_COOKIE_SECURE: always)."""
        return super().get_cookie_secure(app) or request.is_secure

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)  # current key last
        serializer = self._serializers.get(keys)
        if serializer is None:
            serializer = self._serializers[keys] = URLSafeTimedSerializer(
                list(keys),
                salt=self.salt,
                serializer=self.serializer,
                signer=_Signer,
                signer_kwargs={
                    "key_derivation": self.key_derivation,
                    "digest_method": self.digest_method,
                },
            )
        return serializer
