"""Files written whole or not at all (ui.files): the exports, the configuration's last good copy
and the restart history all go through it."""

from __future__ import annotations

import errno
import os
import resource
import signal

from ui.files import write_whole


def test_a_file_is_replaced_whole(tmp_path):
    path = tmp_path / "export.json"
    write_whole(path, b"first")
    write_whole(path, b"second")
    assert path.read_bytes() == b"second" and sorted(tmp_path.iterdir()) == [path]


def test_a_file_the_disk_cannot_take_whole_leaves_the_old_one_and_no_part(tmp_path):
    path = tmp_path / "export.json"
    write_whole(path, b"kept")
    child = os.fork()
    if child == 0:  # pragma: no cover - the child never returns
        try:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))  # "the stick is full" past 64 bytes
            write_whole(path, b"x" * 4096)
        except OSError as exc:
            os._exit(17 if exc.errno == errno.EFBIG else 1)
        os._exit(0)
    _, status = os.waitpid(child, 0)
    assert os.WEXITSTATUS(status) == 17  # raised to the caller, who says why
    assert path.read_bytes() == b"kept" and sorted(tmp_path.iterdir()) == [path]
