"""Worker processes that end with the process that made them, however it ended.

The master robot's workers (engine.strategy.robots.master) come from multiprocessing's fork
server, and each holds both ends of its task queue and a copy of the fork server's "still alive"
pipe. So when the kiosk is killed outright (SIGKILL: the OOM killer, ``kill -9``) no pipe reaches
its end for them: the workers, the fork server and the resource tracker lived on, holding memory
and maybe a core, until someone killed them. Under systemd the unit's control group is killed
whole; under ``./dev run`` or another supervisor nothing did.

Not ``prctl(PR_SET_PDEATHSIG)``: a worker's parent is the fork server, which outlives the kiosk
for the reason above (and the signal follows the parent *thread*: workers started straight from
a robot's search thread would die when that search ended). So each worker watches the kiosk
itself (:func:`end_with`); once the workers are gone, their pipes close and the fork server and
the resource tracker end on their own.
"""

from __future__ import annotations

import os
import select
import sys
import threading
import time

GONE_EXIT = 70
"""A worker's exit status when the process it served ended first (EX_SOFTWARE; nobody waits for it,
but a trace or an audit log shows why the worker stopped)."""


def wait_for_end(pid: int, poll: float = 1.0) -> None:
    """Return once process ``pid`` has ended (at once if there is none).

    On Linux 5.3+ through a pidfd, which is readable as soon as the process ends, even before its
    parent reaps it; elsewhere (or where a sandbox forbids ``pidfd_open``) by looking every
    ``poll`` seconds, which sees it only once it is reaped.
    """
    if sys.platform == "linux":
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            return
        except OSError:  # a kernel before 5.3 or a seccomp filter: look instead
            pass
        else:
            try:
                ended = select.poll()
                ended.register(handle, select.POLLIN)
                ended.poll()
            finally:
                os.close(handle)
            return
    while _exists(pid):
        time.sleep(poll)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # PermissionError: another user's process by now
        return False
    return True


def end_with(owner: int) -> None:
    """A worker pool's initializer (``initargs=(os.getpid(),)``): end this worker at once when
    ``owner`` ends. Its work is nobody's then, and ``os._exit`` leaves nothing to wait for."""
    threading.Thread(target=_exit_after, args=(owner,), name=f"end with {owner}", daemon=True).start()


def _exit_after(owner: int) -> None:
    wait_for_end(owner)
    os._exit(GONE_EXIT)
