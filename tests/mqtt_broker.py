"""A real Mosquitto (Debian's ``mosquitto`` package) on 127.0.0.1 for the club link's tests and bench,
set up as the README tells a club to: no anonymous clients, each table its own password, and an
access list that lets a table write only under its own name (``firmware.club``)."""

from __future__ import annotations

import getpass
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Callable

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
RUNNING = re.compile(r"mosquitto version \S+ running")
"""What mosquitto logs once every listener is open."""
STARTUP_LIMIT = 60.0
"""Seconds the broker may take to listen before a test fails (generous: the machine is shared)."""

ACL = """\
# every table reads the whole club and writes only under its own name (%u: its user name); "pattern"
# lines apply to every user ("topic" lines before any "user" line only to anonymous clients)
pattern read {topic}/#
pattern readwrite {topic}/%u/#
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], what: str, limit: float = STARTUP_LIMIT) -> None:
    """Poll ``condition`` until it holds; fail after ``limit`` seconds (a hung test, not a slow one)."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def certificate_authority(directory: Path, name: str) -> tuple[Path, Path]:
    """A club's own certificate authority, made with openssl as a club would: its certificate and
    key in ``directory`` (EC keys: quick to make)."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", f"/CN={name}",
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign"], check=True, capture_output=True)
    return cert, key


def server_certificate(directory: Path, authority: tuple[Path, Path]) -> tuple[Path, Path]:
    """The broker's certificate for 127.0.0.1 and localhost, signed by ``authority``."""
    cert, key, request = directory / "server.crt", directory / "server.key", directory / "server.csr"
    extensions = directory / "server.ext"
    extensions.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                          "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
                          "authorityKeyIdentifier=keyid,issuer\n")
    subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(request), "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", str(request), "-CA", str(authority[0]), "-CAkey", str(authority[1]),
                    "-CAcreateserial", "-out", str(cert), "-days", "2", "-extfile", str(extensions)],
                   check=True, capture_output=True)
    return cert, key


class Broker:
    """Mosquitto with a password for each of ``tables`` (the password is the name reversed) and
    persistence in ``directory``, so a restart keeps the retained messages. :meth:`stop` and
    :meth:`start` again on the same port stand for the club's server going away and coming back.
    With ``tls`` it listens only with TLS, its certificate signed by the club's own authority
    (:attr:`ca_file`, what a table's ``[club] ca_file`` names)."""

    def __init__(self, directory: Path, tables: tuple[str, ...] = ("table-1", "table-2", "table-3"),
                 topic: str = "tantrix", tls: bool = False) -> None:
        self.directory = directory
        self.port = free_port()
        self.tables = tables
        self.process: subprocess.Popen[bytes] | None = None
        self._started = False
        directory.mkdir(parents=True, exist_ok=True)
        passwords = directory / "passwords"
        for table in tables:
            subprocess.run(["mosquitto_passwd", *([] if passwords.exists() else ["-c"]), "-b", str(passwords),
                            table, self.password(table)], check=True, capture_output=True)
        (directory / "acl").write_text(ACL.format(topic=topic))
        secure = ""
        self.ca_file: Path | None = None
        if tls:
            authority = certificate_authority(directory, "club-ca")
            cert, key = server_certificate(directory, authority)
            self.ca_file = authority[0]
            secure = f"cafile {authority[0]}\ncertfile {cert}\nkeyfile {key}\n"
        self._settings = (f"{secure}allow_anonymous false\npassword_file {passwords}\n"
                          f"acl_file {directory / 'acl'}\nmax_queued_messages 100000\npersistence true\n"
                          f"persistence_location {directory}/\nautosave_interval 1\nuser {getpass.getuser()}\n"
                          f"log_dest file {self.log}\nlog_type all\n")
        self._configure()

    @property
    def log(self) -> Path:
        return self.directory / "mosquitto.log"

    def _configure(self) -> None:
        (self.directory / "mosquitto.conf").write_text(f"listener {self.port} 127.0.0.1\n{self._settings}")

    @staticmethod
    def password(table: str) -> str:
        return table[::-1]

    def password_file(self, table: str) -> Path:
        path = self.directory / f"{table}.password"
        path.write_text(self.password(table) + "\n")
        path.chmod(0o600)
        return path

    def start(self) -> None:
        """Mosquitto, once its own log says it listens: a connection alone could reach another
        program (another test's broker) that took the port since :func:`free_port`, this one
        having failed to bind it. A first start trades such a port for another; a restart keeps
        its port, as a club's server does, and fails if the port is gone."""
        for _ in range(5):
            seen = self.log.stat().st_size if self.log.exists() else 0
            process = self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.directory / "mosquitto.conf")],
                                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

            def said() -> str:
                return self.log.read_bytes()[seen:].decode(errors="replace") if self.log.exists() else ""

            wait_until(lambda: RUNNING.search(said()) or process.poll() is not None, "mosquitto to listen")
            if process.poll() is None:
                self._started = True
                return
            error = process.stderr.read().decode() if process.stderr else ""
            self.stop()
            if "Address already in use" not in said() or self._started:
                raise AssertionError(f"mosquitto exited: {error}{said()}")
            self.port = free_port()
            self._configure()
        raise AssertionError(f"mosquitto found no free port: {said()}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stderr is not None:
                self.process.stderr.close()
            self.process = None

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
