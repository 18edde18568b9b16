"""The staff page that writes tile numbers on blank NFC stickers, driven by taps on the 7" panel."""

from __future__ import annotations

from ui_harness import labels, run_scenario, tap


def scenario_write_stickers(app):
    from ui import theme
    from ui.services import StickerProgress

    app.open_staff()
    app.manager.current = "staff"
    yield 0.1
    yield from tap(app.staff.nav["stickers"])
    yield 0.05
    page = app.staff.stickers
    assert "First sticker: tile 1" in labels(page)
    buttons = (page.less, page.more, page.start, page.stop, app.staff.nav["stickers"])
    assert all(min(b.width, b.height) >= 45 for b in buttons), [b.size for b in buttons]  # 9 mm at 800x480
    yield from tap(page.less)  # from 1 down wraps to 56; two more up give tile 2
    yield from tap(page.more)
    yield from tap(page.more)
    assert "First sticker: tile 2" in labels(page) and page.stop.disabled
    yield from tap(page.start)  # "Write"
    yield 0.05
    assert "Put a blank sticker on the reader." in labels(page)
    assert "0 written. The next blank sticker becomes tile 2." in labels(page) and page.start.disabled
    app.services.devices.scan(40, None)  # the simulated reader: a blank sticker put down
    yield 0.05
    assert "This sticker is now tile 2." in labels(page)
    assert "1 written. The next blank sticker becomes tile 3." in labels(page)
    app.post(StickerProgress(1, 3, None, "this sticker is already tile 30; put a blank one"))
    yield 0.05
    assert "this sticker is already tile 30; put a blank one" in labels(page) and list(page.detail.color) == list(theme.BAD)
    yield from tap(page.stop)
    yield 0.05
    assert "Done: 1 stickers written." in labels(page) and not page.start.disabled
    app.services.devices.scan(5, 0)  # writing stopped: a scan is a tile again (no new sticker progress)
    yield 0.05
    assert app.staff.sticker_progress == StickerProgress(1, 3, None, "this sticker is already tile 30; put a blank one")
    return {"ok": True}


def test_write_stickers_page_on_the_small_panel():
    run_scenario("test_ui_stickers", "scenario_write_stickers", size=(800, 480))
