"""``tantrix-web [--config PATH]``: the staff and spectator pages, when ``[web] enabled = true``.

Reads the kiosk's configuration file (same default path and ``$TANTRIX_KIOSK_CONFIG``) and finds the
kiosk's database where the kiosk does (``[storage]``): with the kiosk's last good copy of the file
(the two units share their state directory), so a refused ``storage.directory``, or a file that
cannot be read at all, sends the pages where the kiosk went, not to the default directory, where
staff saw no games and their changes missed the table. The staff PIN is still taken from the file
alone (``firmware.staff_pin.ConfiguredPin``): one damaged there opens nothing here. With the pages
off (the default) it says so and exits 0 without opening any socket, so its systemd unit may be
enabled or not: nothing listens until the configuration asks for it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Sequence

from firmware.config import last_good_path, load_config
from firmware.logs import setup_logging

log = logging.getLogger("web")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tantrix-web", description="The Tantrix Table's web pages.")
    parser.add_argument("--config", metavar="PATH",
                        help="configuration file (default: $TANTRIX_KIOSK_CONFIG, else /etc/tantrix-kiosk/config.toml)")
    args = parser.parse_args(argv)
    setup_logging()
    config = load_config(args.config, last_good=last_good_path())
    for warning in config.warnings:
        log.warning("%s", warning)
    where = config.source or "the built-in defaults"
    if not config.web.enabled:
        log.info("the web pages are off ([web] enabled = false in %s); nothing listens", where)
        return 0
    import uvicorn

    from .app import MAX_CONNECTIONS, create_app
    from .connections import behind

    directory = config.storage.path(os.environ)
    log.info("web pages on http://%s:%d/ (staff: /staff), reading %s", config.web.host, config.web.port, directory)
    uvicorn.run(create_app(config, directory), host=config.web.host, port=config.web.port,
                log_config=None, access_log=False, proxy_headers=False, server_header=False,
                limit_concurrency=MAX_CONNECTIONS, http=behind(config.web.proxy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
