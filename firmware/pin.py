"""The staff PIN, kept in the configuration only as a salted PBKDF2 hash.

The configuration file sits on an SD card that anyone with a screwdriver can read, so it never
holds the PIN itself: ``tantrix-kiosk hash-pin`` turns a PIN into ``pbkdf2-sha256$ROUNDS$SALT$HASH``
(hex salt and hash) and the kiosk compares with :func:`hmac.compare_digest`. PBKDF2 from hashlib
needs no compiled dependency; the round count is stored in the hash so it can change later. It is
kept modest (a check costs ~0.1 s on a Pi 4) because the check runs on the UI thread and a 4-8
digit PIN is guarded by the kiosk's lockout far more than by the hash.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re

from ui.services import valid_pin

ROUNDS = 100_000
HASH_FORMAT = re.compile(r"^pbkdf2-sha256\$([1-9][0-9]{3,7})\$([0-9a-f]{16,64})\$([0-9a-f]{64})$")
HASH_EXPECTED = 'a hash made by "tantrix-kiosk hash-pin" (pbkdf2-sha256$ROUNDS$SALT$HASH)'
FIRST_LOCK_SECONDS = 30.0
LONGEST_LOCK_SECONDS = 3600.0


def lock_seconds(wrong: int, free_tries: int) -> float:
    """How long every PIN is refused after ``wrong`` wrong PINs in a row, the one rule of the
    table's keypad (``firmware.settings``) and of the web page (``web.lockout``): from the
    ``free_tries``-th on, :data:`FIRST_LOCK_SECONDS` doubling with each, up to
    :data:`LONGEST_LOCK_SECONDS` (every 4-digit PIN would then take over a year)."""
    if wrong < free_tries:
        return 0.0
    return min(LONGEST_LOCK_SECONDS, FIRST_LOCK_SECONDS * 2.0 ** min(wrong - free_tries, 20))


def lock_end(until: float, lock: float, now: float) -> float:
    """When a lock of ``lock`` seconds meant to end at ``until`` (wall clock) ends, as seen at
    ``now``: ``until``, unless the clock was set back since by more than the lock reaches (a Pi has
    no battery clock: a boot on an old time, a router's wrong time), then a full lock from ``now``.
    The one rule of the keypad and the web page; the caller keeps the end it gives. Capping only the
    wait at ``lock`` gave the full lock at every look for as long as the clock stayed behind, so a
    clock set back by a month locked staff out for a month."""
    return now + lock if until - now > lock else until


def full_lock_wrong(free_tries: int) -> int:
    """The fewest wrong PINs in a row whose lock (:func:`lock_seconds`) is the longest: what a
    damaged record of them counts as, on the keypad and on the web page alike (fail closed)."""
    wrong = free_tries
    while lock_seconds(wrong, free_tries) < LONGEST_LOCK_SECONDS:
        wrong += 1
    return wrong


def hash_pin(pin: str, rounds: int = ROUNDS, salt: bytes | None = None) -> str:
    if not valid_pin(pin):
        raise ValueError("a staff PIN is 4 to 12 digits")
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, rounds)
    return f"pbkdf2-sha256${rounds}${salt.hex()}${digest.hex()}"


def is_pin_hash(text: str) -> bool:
    return bool(HASH_FORMAT.match(text))


def verify_pin(pin: str, pin_hash: str) -> bool:
    """Whether ``pin`` is the PIN ``pin_hash`` was made from (False for a malformed hash)."""
    match = HASH_FORMAT.match(pin_hash)
    if match is None:
        return False
    rounds, salt, expected = int(match[1]), bytes.fromhex(match[2]), bytes.fromhex(match[3])
    try:
        secret = pin.encode()
    except UnicodeEncodeError:  # a lone surrogate from a JSON "\ud800": no PIN is made of it
        return False
    return hmac.compare_digest(hashlib.pbkdf2_hmac("sha256", secret, salt, rounds), expected)
