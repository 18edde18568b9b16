"""The per-seat reader controller's logic: poll one RFID reader per seat, speak the ``lines`` protocol.

Runs unchanged on the Pico under MicroPython (``main.py`` gives it MFRC522 readers and the USB
serial port) and on CPython (the tests give it simulated readers and a fake clock). The protocol
is ``hardware/PROTOCOL.md`` section 2; what this side promises:

* ``HELLO <version> <readers>`` first (the kiosk then forgets what it knew of this link);
* ``TAG <reader> <uid>`` as soon as a tag is read, repeated every ``REPEAT_MS`` while it stays;
* ``GONE <reader>`` once the tag has been missing for ``MISSES`` polls in a row (a reader can
  miss a tag that is there now and then; one miss is not a removal);
* ``HB <seq>`` every ``HEARTBEAT_MS``, whatever happens;
* a reader that fails (unplugged, a broken wire) drops its tag with ``GONE``, is retried every
  ``RETRY_MS``, and never stops the other seats.

A reader is any object with ``init()`` and ``uid()``: ``uid()`` returns the UID of the tag in its
field as bytes, or None; both raise ``OSError`` when the reader cannot be reached.
"""

try:
    from time import ticks_add, ticks_diff, ticks_ms  # MicroPython: wrap-safe millisecond ticks
except ImportError:  # CPython: the same contract, so that the tests see what the Pico would do
    from time import monotonic

    TICKS_PERIOD = 1 << 30  # the RP2040's: ticks are small ints, 0 to 2**30 - 1, wrapping every 12.4 days

    def _ticks(value):
        # MicroPython's ticks_diff and ticks_add read their ticks as small ints without a check:
        # anything else (``now + 1000`` past the wrap is a long int there) gives garbage
        if not 0 <= value < TICKS_PERIOD:
            raise ValueError("%r is not a ticks value (out of range: use ticks_add)" % value)
        return value

    def ticks_ms():
        return int(monotonic() * 1000) % TICKS_PERIOD

    def ticks_add(ticks, delta):
        return (_ticks(ticks) + delta) % TICKS_PERIOD

    def ticks_diff(end, start):
        half = TICKS_PERIOD // 2
        return (_ticks(end) - _ticks(start) + half) % TICKS_PERIOD - half


VERSION = "1.0.0"
REPEAT_MS = 100
"""A present tag is reported again at the first round this long after its last report. The protocol
asks for at least every 250 ms, and a round over five MFRC522s takes about 145 ms on the Pico (each
poll waits out the chip's 25 ms timer): 100 repeats it every round there, and every 100 to 200 ms
when rounds are quicker."""
HEARTBEAT_MS = 500
"""HB this often (the protocol asks for at least once a second)."""
MISSES = 3
"""Polls in a row without the tag before it is reported gone."""
RETRY_MS = 1000
"""A failed reader is initialised again this often."""
POLL_MS = 20
"""Pause between two rounds over the readers."""
SEQ_WRAP = 1000000000  # below 2**30: a small int on the RP2040


class Seat:
    """What the controller knows of one reader."""

    def __init__(self):
        self.uid = None  # hex of the tag lying on it, or None
        self.sent = 0  # ticks of its last TAG line
        self.misses = 0
        self.working = False
        self.retry_at = 0


class Controller:
    """``readers`` in seat order (the centre pad last); ``write(line)`` sends one line without its
    newline; ``ticks`` gives milliseconds (MicroPython's ``time.ticks_ms`` by default)."""

    def __init__(self, readers, write, ticks=ticks_ms, version=VERSION):
        if not 1 <= len(readers) <= 16:
            raise ValueError("the lines protocol numbers 1 to 16 readers")
        self.readers = readers
        self.write = write
        self.ticks = ticks
        self.version = version
        self.seats = [Seat() for _ in readers]
        self.seq = 0
        self.heartbeat_at = 0

    def start(self):
        """Say HELLO and bring every reader up (those that fail are retried by ``step``)."""
        now = self.ticks()
        self.write("HELLO %s %d" % (self.version, len(self.readers)))
        for number in range(len(self.readers)):
            self._init(number, now)
        self._heartbeat(now)

    def step(self):
        """One round: poll every working reader, retry the failed ones, beat the heart."""
        now = self.ticks()
        for number, seat in enumerate(self.seats):
            if seat.working:
                self._poll(number, seat, now)
            elif ticks_diff(now, seat.retry_at) >= 0:
                self._init(number, now)
        if ticks_diff(now, self.heartbeat_at) >= HEARTBEAT_MS:
            self._heartbeat(now)

    def run(self, sleep_ms, poll_ms=POLL_MS):
        """Forever (on the Pico): ``start()``, then ``step()`` every ``poll_ms``."""
        self.start()
        while True:
            self.step()
            sleep_ms(poll_ms)

    def _init(self, number, now):
        seat = self.seats[number]
        try:
            self.readers[number].init()
        except OSError:
            seat.working, seat.retry_at = False, ticks_add(now, RETRY_MS)
            return
        seat.working = True
        self._poll(number, seat, now)

    def _poll(self, number, seat, now):
        try:
            uid = self.readers[number].uid()
        except OSError:
            seat.working, seat.retry_at = False, ticks_add(now, RETRY_MS)
            self._gone(number, seat)
            return
        if uid is None:
            seat.misses += 1
            if seat.misses >= MISSES:
                self._gone(number, seat)
            return
        text = "".join("%02X" % byte for byte in uid)
        seat.misses = 0
        if text != seat.uid or ticks_diff(now, seat.sent) >= REPEAT_MS:
            seat.uid, seat.sent = text, now
            self.write("TAG %d %s" % (number, text))

    def _gone(self, number, seat):
        if seat.uid is not None:
            seat.uid = None
            self.write("GONE %d" % number)

    def _heartbeat(self, now):
        self.write("HB %d" % self.seq)
        self.seq = (self.seq + 1) % SEQ_WRAP
        self.heartbeat_at = now
