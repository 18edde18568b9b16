"""The web pages (``web``): the real ``tantrix-web`` server on 127.0.0.1 over a real kiosk database,
checked through HTTP and in Debian's headless Chromium."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import http.client
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from engine.strategy.game import StrategyGame
from engine.modes import save
from engine.ratings import Outcome
from engine.strategy.robots import robot_move
from firmware.config import load_config
from firmware.pin import hash_pin
from firmware.players import Players
from firmware.settings import KioskSettings, Reports
from firmware.store import SqliteStore
from web_support import ROOT, STAFF_PIN, chromium, connect, request, web_server, write_config

WAIT = 60.0
"""Seconds a browser condition may take before the test fails (never a pass/fail on speed)."""
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory):
    """A kiosk's state directory and configuration, its store open as the kiosk opens it."""
    directory = tmp_path_factory.mktemp("kiosk")
    config = write_config(directory)
    with SqliteStore(directory / "state") as store:
        yield config, store


@pytest.fixture(scope="module")
def server(kiosk):
    with web_server(kiosk[0]) as base:
        yield base


@pytest.fixture(scope="module")
def phone():
    browser = chromium(412, 915, "en-GB,en")
    try:
        yield browser
    finally:
        browser.quit()


def wait_for(browser, condition, what: str):
    return WebDriverWait(browser, WAIT, poll_frequency=0.02).until(lambda b: condition(b), message=what)


def open_staff_page(browser, base: str) -> None:
    """The staff page, signed in: with the session an earlier test opened in this browser, or by
    typing the PIN (each test stands alone, whichever worker or order runs it)."""
    browser.get(base + "/staff")
    wait_for(browser, lambda b: b.find_element(By.ID, "dashboard").is_displayed()
             or b.find_element(By.ID, "login").is_displayed(), "the staff page")
    if not browser.find_element(By.ID, "dashboard").is_displayed():
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "sign-in").click()
    wait_for(browser, lambda b: b.find_element(By.ID, "dashboard").is_displayed(), "the staff page opens")


def sign_in(base: str, pin: str = STAFF_PIN) -> tuple[int, str]:
    status, headers, _ = request(base + "/api/login", json.dumps({"pin": pin}).encode(), JSON)
    return status, headers.get("set-cookie", "").split(";")[0]


# ------------------------------------------------------------------------------ in a browser


def test_staff_sign_in_refuses_a_wrong_pin_then_takes_the_right_one(server, phone):
    phone.get(server + "/staff")
    phone.delete_all_cookies()  # signed out, whatever ran before in this browser
    phone.get(server + "/staff")
    wait_for(phone, lambda b: b.find_element(By.ID, "login").is_displayed(), "the PIN asked")
    phone.find_element(By.ID, "pin").send_keys("1111")
    phone.find_element(By.ID, "sign-in").click()
    wait_for(phone, lambda b: b.find_element(By.ID, "error").text == "Wrong PIN.", "the wrong PIN is refused")
    assert not phone.find_element(By.ID, "dashboard").is_displayed()
    phone.find_element(By.ID, "pin").send_keys(STAFF_PIN)
    phone.find_element(By.ID, "sign-in").click()
    wait_for(phone, lambda b: b.find_element(By.ID, "dashboard").is_displayed(), "the right PIN opens the page")
    assert not phone.find_element(By.ID, "login").is_displayed()
    assert phone.find_element(By.ID, "error").text == ""


def test_staff_signed_in_are_not_asked_for_the_pin_while_the_page_checks_their_session(server, phone):
    """On a slow connection staff still signed in were shown the PIN form at each opening of the
    staff page until the table answered that their session was live: the form vanished under the
    fingers of whoever began typing, and a PIN sent meanwhile opened a second session beside the
    first (which Sign out then left open). The form now shows only once the table said no session
    is live."""
    open_staff_page(phone, server)
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 300,
                                                                "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        phone.get(server + "/staff")

        def no_pin_asked(b):
            assert not b.find_element(By.ID, "login").is_displayed(), "the PIN form shown to staff signed in"
            return b.find_element(By.ID, "dashboard").is_displayed()

        wait_for(phone, no_pin_asked, "the staff page opens")
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                    "downloadThroughput": -1, "uploadThroughput": -1})
        phone.execute_cdp_cmd("Network.disable", {})


class _OtherSite(BaseHTTPRequestHandler):
    """A page on another site (a café guest's, or any the staff visit) whose form posts itself to
    the kiosk's ``target`` as soon as it opens; text/plain, the one body a form sends that looks
    like JSON."""

    target = ""

    def do_GET(self) -> None:
        page = (f'<!doctype html><form method="post" action="{self.target}" enctype="text/plain">'
                '<input name=\'{"a":"\' value=\'"}\'></form><script>document.forms[0].submit()</script>')
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.end_headers()
        self.wfile.write(page.encode())

    def log_message(self, *args: object) -> None:
        pass


def test_a_page_on_another_site_cannot_sign_staff_out(server, phone):
    """A page elsewhere posted a form to /api/logout while staff were signed in: the browser sent
    no cookie (SameSite=Strict) but took the answer's order to delete it, and the staff page
    asked for the PIN again, as often as the page liked. Sign-out is now a change like the others:
    a JSON request from the staff page itself; the staff page's own Sign out still signs out."""
    open_staff_page(phone, server)
    cookie = phone.get_cookie("tantrix_staff")["value"]
    _OtherSite.target = server + "/api/logout"
    other = ThreadingHTTPServer(("127.0.0.1", 0), _OtherSite)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        phone.get(f"http://localhost:{other.server_address[1]}/")  # another site than 127.0.0.1
        wait_for(phone, lambda b: b.current_url == server + "/api/logout" and b.find_element(By.TAG_NAME, "body").text,
                 "the form posted and answered")
    finally:
        other.shutdown()
        other.server_close()
    kept = phone.get_cookie("tantrix_staff")
    assert kept is not None and kept["value"] == cookie, "the browser deleted the staff's cookie"
    assert request(server + "/api/staff", headers={"cookie": f"tantrix_staff={cookie}"})[0] == 200
    open_staff_page(phone, server)
    phone.find_element(By.ID, "sign-out").click()
    wait_for(phone, lambda b: b.find_element(By.ID, "login").is_displayed(), "signed out")
    wait_for(phone, lambda b: b.get_cookie("tantrix_staff") is None, "the cookie gone")
    assert request(server + "/api/staff", headers={"cookie": f"tantrix_staff={cookie}"})[0] == 401


class _ReverseProxy(BaseHTTPRequestHandler):
    """A TLS reverse proxy as the README sets one up (nginx's defaults: the upstream address as
    the Host, ``X-Forwarded-Proto``), without the TLS: every request passed on to ``upstream``."""

    protocol_version = "HTTP/1.1"
    upstream = ("127.0.0.1", 0)

    def _pass_on(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        headers |= {"host": "%s:%d" % self.upstream, "x-forwarded-proto": "https"}
        upstream = http.client.HTTPConnection(*self.upstream, timeout=WAIT)
        try:
            upstream.request(self.command, self.path, body or None, headers)
            answer = upstream.getresponse()
            data = answer.read()
        finally:
            upstream.close()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _pass_on

    def log_message(self, *args: object) -> None:
        pass


def test_staff_sign_in_and_change_settings_behind_a_reverse_proxy(kiosk, server, phone):
    """Behind the TLS reverse proxy the README describes (the upstream address kept as the Host,
    nginx's default), the browser's Origin names the proxy, never the upstream: the sign-in
    was refused as "Requests from other sites are refused." and staff could not get in at all.
    The browser's own word on where a request comes from (Sec-Fetch-Site) now decides when it
    gives it; another site's form is still refused (test above)."""
    _, store = kiosk
    _ReverseProxy.upstream = ("127.0.0.1", int(server.rsplit(":", 1)[1]))
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), _ReverseProxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        open_staff_page(phone, f"http://localhost:{proxy.server_address[1]}")
        phone.execute_script("const s = document.getElementById('brightness'); s.value = 35;"
                             "s.dispatchEvent(new Event('input'));")
        phone.find_element(By.ID, "apply-brightness").click()
        wait_for(phone, lambda b: "LED brightness sent" in b.find_element(By.ID, "saved").text, "the change is confirmed")
        assert store.progress("kiosk-settings")["brightness"] == 0.35
        _, cookie = sign_in(server)
        for site in ("cross-site", "same-site", "none"):  # another site, another port of this one, typed
            status, _, _ = request(server + "/api/settings", b'{"brightness": 0.9}',
                                   {**JSON, "cookie": cookie, "sec-fetch-site": site, "origin": server})
            assert status == 403, site
        assert store.progress("kiosk-settings")["brightness"] == 0.35
    finally:
        proxy.shutdown()
        proxy.server_close()


def test_a_brightness_and_a_language_set_on_the_staff_page_reach_the_running_kiosk(kiosk, server, phone):
    config_path, store = kiosk
    settings = KioskSettings(load_config(config_path), store, Reports())
    seen: list[object] = []
    settings.on_brightness, settings.on_language = seen.append, seen.append
    open_staff_page(phone, server)
    wait_for(phone, lambda b: b.find_element(By.ID, "language").get_attribute("value") == "en", "settings shown")
    phone.execute_script("const s = document.getElementById('brightness'); s.value = 70;"
                         "s.dispatchEvent(new Event('input'));")
    phone.find_element(By.ID, "apply-brightness").click()
    wait_for(phone, lambda b: "LED brightness sent" in b.find_element(By.ID, "saved").text, "the change is confirmed")
    settings.poll()  # what the kiosk's UI clock does once a second
    assert settings.brightness == 0.7 and seen == [0.7]
    phone.execute_script("const s = document.getElementById('language'); s.value = 'nl';"
                         "s.dispatchEvent(new Event('change'));")
    phone.find_element(By.ID, "apply-language").click()
    wait_for(phone, lambda b: "Language sent" in b.find_element(By.ID, "saved").text, "the change is confirmed")
    settings.poll()
    assert settings.language == "nl" and seen == [0.7, "nl"]
    assert settings.coach is True
    phone.execute_script("const s = document.getElementById('coach'); s.value = 'off';"
                         "s.dispatchEvent(new Event('change'));")
    phone.find_element(By.ID, "apply-coach").click()
    wait_for(phone, lambda b: "Hint button sent" in b.find_element(By.ID, "saved").text, "the change is confirmed")
    settings.poll()
    assert settings.coach is False and seen == [0.7, "nl"]
    restarted = KioskSettings(load_config(config_path), store, Reports())  # kept for a restart
    assert (restarted.brightness, restarted.coach) == (0.7, False)


def test_the_staff_page_shows_the_ladder_and_the_club_link(kiosk, server, phone):
    _, store = kiosk
    players = Players(store)
    ana, bo = players.create("Ana"), players.create("Bo")
    players.record_game("tantrix", Outcome("staff-g1", ((ana.id,), (bo.id,)), (1, 2)))
    store.set_progress("kiosk-status", {"devices": [], "reports": [], "seen": time.time(), "club": {
        "table": "table-2", "broker": "club.local:8883", "tls": True, "state": "retrying",
        "detail": "cannot reach club.local:8883; trying again", "since": time.time(), "unsent": 3,
        "received_games": 5, "received_players": 2, "published": 0, "dropped": 0,
        "tables": {"table-1": {"online": True, "heard": time.time()}}}})
    open_staff_page(phone, server)
    wait_for(phone, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#ladder tbody tr")) == 2, "the ladder")
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in phone.find_elements(By.CSS_SELECTOR, "#ladder tbody tr")]
    ladder = players.ladder()
    assert rows == [[str(i + 1), row.player.name, str(row.rating.points), "1"] for i, row in enumerate(ladder)]
    assert rows[0][1] == "Ana"
    club = phone.find_element(By.ID, "club")
    assert "table-2 at club.local:8883 (TLS): NOT CONNECTED" in club.text and "changes waiting to be sent: 3" in club.text
    assert phone.find_element(By.ID, "club-tables").text == "table-1: online"


def test_the_spectator_page_follows_a_robots_only_game_step_by_step(kiosk, server, phone):
    _, store = kiosk
    game = StrategyGame.new(2, robots=["beginner", "beginner"], seed=5)
    phone.get(server + "/")
    steps = 0
    while True:
        store.save_current(save(game))  # the kiosk journals each step before it shows it
        placed, scores = len(game.board), [game.scores()[seat.colour] for seat in game.seats]
        wait_for(phone, lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-kind") == "strategy"
                 and int(b.find_element(By.ID, "board").get_attribute("data-tiles")) == placed,
                 f"the page shows the {placed} tiles of step {steps}")
        shown = [int(s.get_attribute("data-score")) for s in phone.find_elements(By.CSS_SELECTOR, ".seat")]
        assert shown == scores
        hands = [len(h.find_elements(By.CSS_SELECTOR, "g[data-tile]"))
                 for h in phone.find_elements(By.CSS_SELECTOR, ".seat .hand")]
        assert hands == [len(hand) for hand in game.hands]
        if game.finished:
            break
        robot_move(game)
        steps += 1
    assert steps >= 40 and game.result is not None
    winner = {"R": "Red", "Y": "Yellow"}.get(game.result.winner or "", "")
    expected = f"{winner} wins" if winner else "A draw"
    wait_for(phone, lambda b: expected in b.find_element(By.ID, "seats").text, "the result is shown")
    store.clear_current()
    wait_for(phone, lambda b: "No game" in b.find_element(By.ID, "seats").text, "an idle table is said so")


def _evening_shows(browser, *lines: str) -> bool:
    """Whether the page's club evening is shown and its text holds every one of ``lines``."""
    shown = browser.find_elements(By.ID, "evening")
    return bool(shown) and shown[0].is_displayed() and all(line in shown[0].text for line in lines)


def test_the_spectator_page_shows_the_club_evening_where_each_pairing_is_played(kiosk, server, phone):
    """A club evening on a phone (and a club's TV): the round's pairings with the table playing each
    or the result, and the standings, as the table's own screens read them (engine.evening)."""
    from engine.tournament import Tournament
    from firmware.club import CLUB_TOURNAMENTS, TOURNAMENT

    _, store = kiosk
    store.clear_current()
    players = Players(store)
    cleo, dan, eve = (players.create(name) for name in ("Cleo", "Dan", "Eve"))
    tournament = Tournament((cleo.id, dan.id, eve.id, "robot:club"), rounds=3)
    played, waiting = tournament.pair_next_round()
    tournament.report(played.first, played.second, (12, 9))
    name = {cleo.id: "Cleo", dan.id: "Dan", eve.id: "Eve", "robot:club": "Robot: Club"}
    online = {"table-3": {"online": True, "heard": time.time()}}
    store.set_progress("kiosk-status", {"devices": [], "reports": [], "seen": time.time(),
                                        "club": {"table": "table-2", "state": "connected", "tables": online}})
    store.set_progress(CLUB_TOURNAMENTS, {"tables": {"table-3": {
        "club": {"table": "table-2", "id": tournament.id},
        "playing": {"first": waiting.first, "second": waiting.second}}}})
    store.set_progress(TOURNAMENT, {"tournament": tournament.to_json(), "playing": None, "names": {}})
    try:
        phone.get(server + "/")
        pairing = f"{name[waiting.first]} – {name[waiting.second]}"
        wait_for(phone, lambda b: _evening_shows(b, "Club evening: Round 1 of 3", f"{pairing}\nplaying at table-3",
                                                 f"{name[played.first]} – {name[played.second]}\n12 : 9"),
                 "this table's evening, a pairing played at table-3 and a result")
        rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
                for tr in phone.find_elements(By.CSS_SELECTOR, "#evening table tr")[1:]]
        assert rows == [[str(place), name[row.player], f"{row.points:g}", f"{row.buchholz:g}",
                         f"{row.sonneborn_berger:g}"] for place, row in tournament.placed()]
        assert rows[0][1] == name[played.first] and rows[0][2] == "1"
        assert not phone.find_element(By.ID, "board").is_displayed()  # no game here: the evening has the page
        store.save_current(save(StrategyGame.new(2, robots=["beginner", "beginner"], seed=6)))
        wait_for(phone, lambda b: b.find_element(By.ID, "board").is_displayed() and _evening_shows(b, pairing),
                 "a game at the table, the evening under it")
        store.clear_current()
        # table-3 is switched off mid-game: its pairing is to be played again, nowhere now
        online["table-3"]["online"] = False
        store.set_progress("kiosk-status", {"devices": [], "reports": [], "seen": time.time(),
                                            "club": {"table": "table-2", "state": "connected", "tables": online}})
        wait_for(phone, lambda b: _evening_shows(b, f"{pairing}\nto play"), "a table gone says nothing played")
        # a player leaves mid-evening: still ranked, said so; a game of theirs waiting is forfeited
        leaver = waiting.second
        tournament.withdraw(leaver)
        store.set_progress(TOURNAMENT, {"tournament": tournament.to_json(), "playing": None, "names": {}})
        wait_for(phone, lambda b: _evening_shows(b, f"{pairing}\nforfeit ({name[leaver]} left)",
                                                 f"{name[leaver]} (left)"), "a forfeit and a player gone")
        tournament.join(leaver)  # back after all: the forfeit stands, the standings no longer say "left"
        store.set_progress(TOURNAMENT, {"tournament": tournament.to_json(), "playing": None, "names": {}})
        wait_for(phone, lambda b: _evening_shows(b, f"{pairing}\nforfeit") and "(left)" not in
                 b.find_element(By.ID, "evening").text, "the player back")
        # this table plays a pairing of the evening table-1 runs, with a player it has never heard of
        theirs = Tournament(("p-zoe", cleo.id), rounds=2)
        (game,) = theirs.pair_next_round()
        store.set_progress(CLUB_TOURNAMENTS, {"tables": {"table-1": {"tournament": theirs.to_json(), "playing": None,
                                                                      "names": {"p-zoe": "Zoë", cleo.id: "C."}}}})
        store.set_progress(TOURNAMENT, {"club": {"table": "table-1", "id": theirs.id},
                                        "playing": {"first": game.first, "second": game.second}})
        both = {game.first: "Zoë" if game.first == "p-zoe" else "Cleo", game.second: "Zoë" if game.second == "p-zoe" else "Cleo"}
        wait_for(phone, lambda b: _evening_shows(b, "Club evening at table-1: Round 1 of 2",
                                                 f"{both[game.first]} – {both[game.second]}\nplaying here"),
                 "the evening table-1 runs, its pairing played here, names as each table knows them")
        # damaged words from the club show no evening and break nothing
        store.set_progress(CLUB_TOURNAMENTS, {"tables": {"table-1": {"tournament": {"players": 7}}, "table-4": "x"}})
        wait_for(phone, lambda b: not b.find_element(By.ID, "evening").is_displayed(), "no evening to show")
        assert "No game" in phone.find_element(By.ID, "seats").text
    finally:
        store.set_progress(TOURNAMENT, {})
        store.set_progress(CLUB_TOURNAMENTS, {})


def test_the_pages_name_a_doubles_seat_by_its_team_as_the_kiosk_does(kiosk, server):
    """In Doubles the partners opposite share a colour: the kiosk names them "Red team", and so
    do the spectator page (its seats and the result) and the staff page (each team's score once),
    in the visitor's language."""
    from web.words import words

    _, store = kiosk
    fr = words("fr")
    team = {"Red": "Équipe rouge", "Yellow": "Équipe jaune"}.__getitem__  # the adjective agrees with "équipe"
    game = StrategyGame.new(4, "RY", ["beginner"] * 4, doubles=True, seed=3)
    for _ in range(4):
        robot_move(game)
    store.save_current(save(game))
    french = chromium(412, 915, "fr-BE,fr")
    try:
        french.get(server + "/")
        wait_for(french, lambda b: len(b.find_elements(By.CSS_SELECTOR, ".seat .name")) == 4, "the four seats")
        names = [n.text.split("\n")[0] for n in french.find_elements(By.CSS_SELECTOR, ".seat .name")]
        assert names == [team("Red"), team("Yellow"), team("Red"), team("Yellow")], names
        while not game.finished:
            robot_move(game)
        store.save_current(save(game))
        assert game.result is not None
        seats = lambda b: b.find_element(By.ID, "seats").text  # noqa: E731
        scores = f"{team('Red')} {game.result.scores['R']}, {team('Yellow')} {game.result.scores['Y']}"
        ending = (fr["{name} wins"].format(name=team({"R": "Red", "Y": "Yellow"}[game.result.winner]))
                  if game.result.winner else fr["A draw"])
        wait_for(french, lambda b: f"{ending} ({scores})" in seats(b), f"the result: {ending} ({scores})")
        open_staff_page(french, server)
        wait_for(french, lambda b: b.find_element(By.ID, "game").text.endswith(f" · {scores}"),
                 f"the staff page's game: each team's score once ({scores})")
    finally:
        french.quit()
        store.clear_current()


def test_the_pages_speak_the_visitors_language_or_else_the_tables(kiosk, server):
    """A café visitor's phone set to French reads the spectator page in French, its picker turns it
    to Polish at once and remembers it; a phone in a language the table does not speak reads the
    one the table shows; the staff page, and the server's own refusals, follow the page."""
    from engine.tournament import Tournament
    from firmware.club import TOURNAMENT
    from web.words import words

    _, store = kiosk
    fr, pl = words("fr"), words("pl")
    game = StrategyGame.new(2, robots=["beginner", "expert"], seed=8)
    for _ in range(3):
        robot_move(game)
    store.save_current(save(game))
    status = store.progress("kiosk-status")
    store.set_progress("kiosk-status", {"devices": [{"name": "reader", "ok": False, "backend": "serial:/dev/ttyUSB0",
                                                     "detail": "unplugged"}], "reports": [], "seen": time.time()})
    tournament = Tournament(("robot:club", "robot:expert"), rounds=2)
    tournament.pair_next_round()
    store.set_progress(TOURNAMENT, {"tournament": tournament.to_json(), "playing": None, "names": {}})
    french = chromium(412, 915, "fr-BE,fr,en")
    try:
        french.get(server + "/")
        seats = lambda b: b.find_element(By.ID, "seats").text  # noqa: E731
        wait_for(french, lambda b: f"Tuiles dans le sac : {game.bag_count}" in seats(b), "the page in French")
        text = seats(french)
        assert "Rouge" in text and "Jaune" in text and "Robot : Débutant" in text and "Robot : Expert" in text
        assert "Soirée club : Ronde 1 sur 2" in text and "Robot : Club – Robot : Expert" in text and "à jouer" in text
        assert french.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr"
        assert french.find_element(By.ID, "board").get_attribute("aria-label") == fr["The board"] == "Le plateau"
        assert french.title == fr["Tantrix Table: live"]
        picker = french.find_element(By.ID, "page-language")
        assert picker.is_displayed() and picker.get_attribute("value") == "fr"
        french.execute_script("const s = document.getElementById('page-language'); s.value = 'pl';"
                              "s.dispatchEvent(new Event('change'));")
        wait_for(french, lambda b: f"Płytki w woreczku: {game.bag_count}" in seats(b), "the page turned to Polish")
        assert "Robot: Klubowicz" in seats(french) and "Rouge" not in seats(french)
        assert french.find_element(By.ID, "board").get_attribute("aria-label") == pl["The board"]
        french.refresh()  # the visitor's choice is kept by their browser
        wait_for(french, lambda b: f"Płytki w woreczku: {game.bag_count}" in seats(b), "still Polish")
        # the staff page in the language picked, and the table's refusal of a wrong PIN in it too
        french.get(server + "/staff")
        wait_for(french, lambda b: b.find_element(By.ID, "sign-in").text == pl["Sign in"], "the staff page in Polish")
        french.find_element(By.ID, "pin").send_keys("9999")
        french.find_element(By.ID, "sign-in").click()
        wait_for(french, lambda b: b.find_element(By.ID, "error").text == pl["Wrong PIN."], "the refusal in Polish")
        french.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        french.find_element(By.ID, "sign-in").click()
        wait_for(french, lambda b: b.find_element(By.ID, "seen").text == pl["The kiosk is running."], "signed in")
        assert french.find_element(By.ID, "devices").text == \
            f"{pl['Tile reader']}: {pl['NOT WORKING']} (serial:/dev/ttyUSB0) · unplugged"
    finally:
        french.quit()
        store.set_progress(TOURNAMENT, {})
        store.set_progress("kiosk-status", status)
    # a German phone: the table's own language (what it shows now, a staff change included)
    store.set_progress("kiosk-status", {"devices": [], "reports": [], "seen": time.time(),
                                        "applied": {"language": "nl", "brightness": 1.0, "coach": True}})
    german = chromium(412, 915, "de-DE,de")
    try:
        german.get(server + "/")
        wait_for(german, lambda b: f"Stenen in de zak: {game.bag_count}" in b.find_element(By.ID, "seats").text,
                 "the page in the table's Dutch")
    finally:
        german.quit()
        store.set_progress("kiosk-status", status)
        store.clear_current()


# ---------------------------------------------------------------------------- over HTTP


def test_the_words_a_page_gets_are_the_first_language_of_its_browser_the_table_speaks(kiosk, server):
    from web.words import chosen, words

    _, store = kiosk
    status = store.progress("kiosk-status")
    try:
        store.set_progress("kiosk-status", {"devices": [], "reports": [], "seen": time.time(),
                                            "applied": {"language": "pl", "brightness": 1.0, "coach": True}})
        for header, language in (("fr-BE,fr;q=0.9,en;q=0.8", "fr"), ("de-DE,de;q=0.9,nl;q=0.5", "nl"),
                                 ("en;q=0.2, NL-be;q=0.7", "nl"), ("de,*", "pl"), ("", "pl"),
                                 ("fr;q=0,en", "en"), ("fr;q=abc,nl", "nl"), (";;,,=", "pl")):
            answer = json.loads(request(server + "/api/words", headers={"accept-language": header})[2])
            assert answer["language"] == language, header
            assert answer["words"] == dict(words(language)) and answer["languages"]["pl"] == "Polski"
        assert json.loads(request(server + "/api/words", headers={"accept-language": "fr"})[2])["words"]["Red"] == "Rouge"
        # a refusal in the asker's language
        code, _, body = request(server + "/api/settings", b'{"brightness": 0.5}', {**JSON, "accept-language": "nl-NL"})
        assert code == 401 and json.loads(body)["error"] == words("nl")["Sign in with the staff PIN."] != ""
    finally:
        store.set_progress("kiosk-status", status)
    assert chosen("pl-PL;q=0.1, fr;q=0.9", "en") == "fr" and chosen(None, "nl") == "nl" and chosen("xx", "zz") == "en"
    assert chosen("fr;q=nan,nl;q=inf,pl;q=2", "en") == "en"




def test_the_web_process_reads_an_evening_without_loading_the_pairing_library(kiosk):
    """networkx pairs a round (14 MB resident): the web pages only read standings, so their
    process, on a Pi beside the kiosk, never loads it (it did, 56 MB against 44 MB now)."""
    config, store = kiosk
    from engine.tournament import Tournament
    from firmware.club import TOURNAMENT

    tournament = Tournament(("robot:club", "robot:expert", "robot:master"), rounds=2)
    tournament.pair_next_round()
    store.set_progress(TOURNAMENT, {"tournament": tournament.to_json(), "playing": None, "names": {}})
    try:
        code = ("import sys, json; from pathlib import Path\n"
                "import web.__main__, web.app\n"
                "from web.database import KioskDatabase\n"
                "from web.evening import evening_view\n"
                f"view = evening_view(KioskDatabase(Path({str(config.parent / 'state')!r})))\n"
                "print(json.dumps([view['rounds'], len(view['standings']), 'networkx' in sys.modules]))\n")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == [2, 3, False]
    finally:
        store.set_progress(TOURNAMENT, {})


def test_staff_requests_need_a_session_and_spectators_change_nothing(kiosk, server):
    _, store = kiosk
    before = store.progress("kiosk-settings")
    assert request(server + "/api/staff")[0] == 401
    assert request(server + "/api/records")[0] == 401
    assert request(server + "/api/settings", b'{"brightness": 0.1}', JSON)[0] == 401
    assert request(server + "/api/settings", b'{"brightness": 0.1}', {**JSON, "cookie": "tantrix_staff=made-up"})[0] == 401
    assert request(server + "/api/table", b"{}", JSON, method="POST")[0] == 405
    assert request(server + "/events", b"{}", JSON, method="POST")[0] == 405
    assert store.progress("kiosk-settings") == before


def test_changes_are_checked_and_only_accepted_from_the_page_itself(kiosk, server):
    _, store = kiosk
    status, cookie = sign_in(server)
    assert status == 200 and cookie.startswith("tantrix_staff=")
    session = {**JSON, "cookie": cookie}
    before = store.progress("kiosk-settings")
    for body, code in ((b'{"brightness": 2}', 422), (b'{"brightness": true}', 422), (b'{"language": "xx"}', 422),
                       (b'{"coach": "off"}', 422), (b'{"coach": 0}', 422),
                       (b'{"brightness": 0.5, "staff_pin": "0"}', 422), (b"{}", 422), (b"[1]", 400),
                       (b"not json", 400), (b'{"brightness": 0.5, "pad": "' + b"x" * 2000 + b'"}', 413)):
        answer = request(server + "/api/settings", body, session)
        assert answer[0] == code, (body[:40], answer)
    assert request(server + "/api/settings", b"brightness=0.5", {"cookie": cookie,
                   "content-type": "application/x-www-form-urlencoded"})[0] == 415
    assert request(server + "/api/settings", b'{"brightness": 0.5}', {**session, "origin": "http://evil.example"})[0] == 403
    assert store.progress("kiosk-settings") == before
    assert request(server + "/api/settings", b'{"brightness": 0.25}', session)[0] == 200
    assert store.progress("kiosk-settings")["brightness"] == 0.25


def test_a_body_nested_too_deep_is_refused_as_bad_json_not_a_server_error(kiosk, server):
    """A thousand brackets fit in the 1 KiB a request may send: Python's JSON reader ran out of
    stack on them and the answer was a bare "500 Internal Server Error", for a sign-in as for a
    setting. It is a request that is not valid JSON, and is answered so."""
    _, store = kiosk
    deep = b'{"pin": ' + b"[" * 1000
    status, _, body = request(server + "/api/login", deep, JSON)
    assert (status, json.loads(body)["error"]) == (400, "The request is not valid JSON.")
    _, cookie = sign_in(server)
    before = store.progress("kiosk-settings")
    status, _, body = request(server + "/api/settings", b'{"brightness": ' + b"[" * 1000, {**JSON, "cookie": cookie})
    assert (status, json.loads(body)["error"]) == (400, "The request is not valid JSON.")
    assert store.progress("kiosk-settings") == before


def test_the_staff_page_shows_the_kiosks_health_statistics_and_exports_records(kiosk, server):
    _, store = kiosk
    store.set_progress("kiosk-status", {"devices": [{"name": "reader", "ok": False, "backend": "serial:/dev/ttyUSB0",
                                                     "detail": "unplugged"}], "reports": ["disk full"],
                                        "seen": time.time()})
    store.add_record("strategy", {"robots": {"beginner": "won"}, "moves": 3})
    _, cookie = sign_in(server)
    status, _, body = request(server + "/api/staff", headers={"cookie": cookie})
    state = json.loads(body)
    assert status == 200 and state["kiosk"]["devices"][0]["detail"] == "unplugged"
    assert state["kiosk"]["reports"] == ["disk full"] and state["kiosk"]["seen_seconds_ago"] < 3600
    assert state["statistics"]["games"]["strategy"] >= 1 and state["statistics"]["robots"]["beginner"]["won"] >= 1
    status, headers, body = request(server + "/api/records", headers={"cookie": cookie})
    records = [json.loads(line) for line in body.decode().splitlines()]
    assert status == 200 and "attachment" in headers["content-disposition"]
    assert records[-1]["kind"] == "strategy" and records[-1]["record"]["moves"] == 3
    assert request(server + "/api/restart", b"{}", JSON)[0] == 401 and store.progress("kiosk-restart") == {}
    assert request(server + "/api/restart", b"{}", {**JSON, "cookie": cookie})[0] == 200
    assert store.progress("kiosk-restart")["requested"] > 0
    assert request(server + "/api/logout", b"{}", {**JSON, "cookie": cookie})[0] == 200
    assert request(server + "/api/staff", headers={"cookie": cookie})[0] == 401


def test_an_export_while_the_kiosks_database_cannot_be_read_is_refused_not_an_empty_file(tmp_path):
    """Before the kiosk made its database (or while it cannot be read), Export gave staff a file
    named as the finished games' export, with nothing in it, as if no game had ever been kept.
    The export is refused now, saying why, as the staff page's own state is."""
    config = write_config(tmp_path)
    with web_server(config) as base:
        _, cookie = sign_in(base)
        status, headers, body = request(base + "/api/records", headers={"cookie": cookie})
        assert status == 503 and "content-disposition" not in headers
        assert "cannot be used now" in json.loads(body)["error"]
        store = SqliteStore(tmp_path / "state")  # the kiosk starts: the export is there at once
        try:
            store.add_record("strategy", {"moves": 7})
            status, headers, body = request(base + "/api/records", headers={"cookie": cookie})
            assert status == 200 and "attachment" in headers["content-disposition"]
            assert [json.loads(line)["record"] for line in body.splitlines()] == [{"moves": 7}]
        finally:
            store.close()


def test_an_export_that_loses_the_database_part_way_is_broken_off_never_a_short_whole_file(tmp_path):
    """A read that failed after the export had begun (a page of the database that could not be
    read) ended the answer as if every game had been sent: staff got a file of the games before
    the damage that looked whole. The answer is broken off now (no end of its body), so that
    neither a browser (which marks the download failed) nor a script takes it for a whole file."""
    from store_damage import damage_page_holding

    store = SqliteStore(tmp_path / "state")
    for n in range(450):  # more than one batch of the export
        store.add_record("strategy", {"moves": [n] * 20, "mark": f"game-{n:03d}"})
    try:
        with web_server(write_config(tmp_path)) as base:
            _, cookie = sign_in(base)
            damage_page_holding(store.path, b"game-350")
            with pytest.raises(http.client.IncompleteRead) as cut:
                request(base + "/api/records", headers={"cookie": cookie})
            sent = cut.value.partial.decode().splitlines()
            assert [json.loads(line)["record"]["mark"] for line in sent[:200]] == [f"game-{n:03d}" for n in range(200)]
    finally:
        store.close()


def test_the_staff_page_says_why_an_export_was_broken_off_and_saves_no_file(tmp_path):
    """Export on the staff page was a plain download link: an export the table broke off part-way
    (its database failed) showed staff only the browser's "download failed". The page now fetches
    the export itself, saves it once it came whole, and otherwise says why beside the link, in the
    visitor's language, saving nothing."""
    from store_damage import damage_page_holding
    from web.words import words

    store = SqliteStore(tmp_path / "state")
    for n in range(450):  # more than one batch of the export
        store.add_record("strategy", {"moves": [n] * 20, "mark": f"game-{n:03d}"})
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    saved = lambda: [path for path in downloads.iterdir() if not path.name.endswith(".crdownload")]  # noqa: E731
    fr = words("fr")
    try:
        with web_server(write_config(tmp_path)) as base:
            browser = chromium(412, 915, "fr-BE,fr")
            try:
                browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow",
                                                                         "downloadPath": str(downloads)})
                open_staff_page(browser, base)
                browser.find_element(By.ID, "export").click()
                wait_for(browser, lambda b: saved() and not list(downloads.glob("*.crdownload")), "the export saved")
                [whole] = saved()
                assert whole.name.startswith("tantrix-records-") and whole.name.endswith(".jsonl")
                marks = [json.loads(line)["record"]["mark"] for line in whole.read_text().splitlines()]
                assert marks == [f"game-{n:03d}" for n in range(450)]
                assert browser.find_element(By.ID, "export-said").text == ""
                damage_page_holding(store.path, b"game-350")
                browser.find_element(By.ID, "export").click()
                said = wait_for(browser, lambda b: b.find_element(By.ID, "export-said").text, "why, beside the link")
            finally:
                browser.quit()
        why = fr["The export was broken off: the kiosk's database could not be read part-way ({detail})."]
        assert said.startswith(why.split("{detail}")[0]) and said.endswith(fr["No file was saved."]), said
        assert "malformed" in said and saved() == [whole], (said, saved())
    finally:
        store.close()


def first_answer_line(base: str, head: bytes, body: bytes) -> bytes:
    """The status line the server sends after ``head`` and the start of a body that is never
    finished (a socket timeout, and the test fails, if the server waits for the rest)."""
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=WAIT) as connection:
        connection.sendall(head + body)
        return connection.makefile("rb").readline()


def test_a_huge_body_is_refused_as_it_arrives_not_read_into_memory(server):
    host = server.split("//")[1].encode()
    start = b"POST /api/login HTTP/1.1\r\nHost: " + host + b"\r\ncontent-type: application/json\r\n"
    announced = first_answer_line(server, start + b"content-length: 1000000000\r\n\r\n", b'{"pin": "')
    assert announced.startswith(b"HTTP/1.1 413")
    chunk = b"x" * 4096
    chunked = first_answer_line(server, start + b"transfer-encoding: chunked\r\n\r\n",
                                b"%x\r\n%s\r\n" % (len(chunk), chunk))
    assert chunked.startswith(b"HTTP/1.1 413")


def test_a_crowd_of_spectators_never_leaves_staff_without_a_connection(tmp_path):
    from web.app import MAX_STREAMS

    with web_server(write_config(tmp_path)) as base:
        port, streams = int(base.rsplit(":", 1)[1]), []
        ask = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        try:
            for spectator in range(1, MAX_STREAMS + 1):  # each on a phone of their own
                stream = connect(port, spectator)
                stream.sendall(ask)
                assert stream.makefile("rb").readline().startswith(b"HTTP/1.1 200")  # watching
                streams.append(stream)
            status, headers, _ = request(base + "/events")
            assert status == 503 and headers["retry-after"] == "60"  # one spectator too many
            status, _, _ = request(base + "/api/login", json.dumps({"pin": STAFF_PIN}).encode(),
                                   {**JSON, "origin": base})
            assert status == 200  # staff still sign in
            streams.pop().close()  # a spectator leaves: a place for the next one
            wait_until(lambda: _stream_opens(port, ask), "a free stream")
        finally:
            for stream in streams:
                stream.close()


def test_a_burst_of_spectators_asking_at_once_is_held_to_the_cap_and_staff_get_in(tmp_path):
    """Every stream asked for before any began (phones reconnecting together after the Wi-Fi came
    back): they all passed the cap, 99 streams stayed open and staff got "503" for as long as they
    watched. The place is now taken as each request is answered."""
    from web.app import MAX_CONNECTIONS, MAX_STREAMS

    with web_server(write_config(tmp_path)) as base:
        port = int(base.rsplit(":", 1)[1])
        streams = [connect(port, spectator) for spectator in range(1, MAX_CONNECTIONS)]
        try:
            for stream in streams:
                stream.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answers = [stream.makefile("rb").readline() for stream in streams]
            assert sum(answer.startswith(b"HTTP/1.1 200") for answer in answers) == MAX_STREAMS
            assert all(answer.startswith((b"HTTP/1.1 200", b"HTTP/1.1 503")) for answer in answers)
            # the refused ones' connections end with their keep-alive: staff then sign in beside the watchers
            wait_until(lambda: sign_in(base)[0] == 200, "staff signed in beside the full crowd")
        finally:
            for stream in streams:
                stream.close()


def test_a_spectator_turned_away_by_the_crowd_is_let_in_once_there_is_room(tmp_path):
    """A phone that asked while every stream was taken got "503, try again in a minute": the
    browser's EventSource takes such an answer as final, so the page said "reconnecting…" for as
    long as it stayed open and never asked again, even with the crowd long gone. It now asks
    again by itself a little later (5 to 20 s: the page's waits are noted, and run fifty times
    faster here), and follows the table once there is room."""
    from web.app import MAX_STREAMS

    with web_server(write_config(tmp_path)) as base:
        port = int(base.rsplit(":", 1)[1])
        crowd = [connect(port, spectator) for spectator in range(1, MAX_STREAMS + 1)]
        browser = chromium(412, 915, "en-GB,en")
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.longWaits = [];
            const setTimeoutAsWritten = window.setTimeout;
            window.setTimeout = (then, ms, ...rest) => {
              if (ms >= 1000) window.longWaits.push(ms);
              return setTimeoutAsWritten(then, ms >= 1000 ? ms / 50 : ms, ...rest);
            };"""})
        try:
            for stream in crowd:
                stream.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert stream.makefile("rb").readline().startswith(b"HTTP/1.1 200")
            browser.get(base + "/")
            wait_for(browser, lambda b: b.find_element(By.ID, "state").text == "reconnecting…", "turned away")
            wait_for(browser, lambda b: b.execute_script("return window.longWaits.length") >= 2, "asked again")
            for stream in crowd:
                stream.close()
            wait_for(browser, lambda b: b.find_element(By.ID, "state").text == "live", "let in once there is room")
            waits = browser.execute_script("return window.longWaits")
            assert all(5000 <= ms <= 20000 for ms in waits) and len(set(waits)) > 1, waits  # at random moments
        finally:
            browser.quit()
            for stream in crowd:
                stream.close()


def _closed(connection: socket.socket) -> bool:
    """Whether the server closed ``connection`` (what it sent before is read and dropped)."""
    connection.setblocking(False)
    try:
        while connection.recv(65536):
            pass
        return True  # end of file
    except BlockingIOError:
        return False  # open, nothing more to read now
    except ConnectionError:
        return True
    finally:
        connection.setblocking(True)


def test_idle_connections_never_keep_staff_out_and_are_closed_when_no_request_comes(tmp_path):
    """More than a hundred sockets opened and never used (a café guest's script, a broken
    phone), and one sending its request's head a line at a time: uvicorn counted each as a
    connection in use and never closed one that had not asked anything yet, so every staff request
    was answered "503" for as long as they stayed open. Staff now get in beside them at once (the
    connection waiting longest makes room), every one of them is closed once it has not sent a
    whole request in time, and a spectator's stream, being answered, stays open."""
    from web.app import MAX_CONNECTIONS
    from web.connections import REQUEST_SECONDS

    SqliteStore(tmp_path / "state").close()
    with web_server(write_config(tmp_path)) as base:
        port = int(base.rsplit(":", 1)[1])
        watching = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        watching.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert watching.makefile("rb").readline().startswith(b"HTTP/1.1 200")
        watched = time.monotonic()
        idle = [connect(port, client) for client in range(1, MAX_CONNECTIONS + 21)]
        slow = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        slow.sendall(b"GET /staff HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            assert sign_in(base)[0] == 200  # at once, the idle sockets still open

            def slow_closed() -> bool:
                try:
                    slow.sendall(b"x-more: 1\r\n")  # still sending its head, never finishing it
                except ConnectionError:
                    return True
                return _closed(slow)

            wait_until(lambda: slow_closed() and all(_closed(connection) for connection in idle),
                       "the idle and the slow connections closed")
            assert time.monotonic() - watched >= REQUEST_SECONDS and not _closed(watching)
            assert sign_in(base)[0] == 200
        finally:
            for connection in (watching, slow, *idle):
                connection.close()


def test_one_address_sending_requests_it_never_finishes_cannot_keep_staff_out(tmp_path):
    """A guest's script opened a hundred connections, each sending a request's head and only part
    of its body (re-opening each as it was closed after 10 s): none was idle, so none made room,
    and every staff and spectator request was answered "503". One address now holds a few
    connections at most; its further ones are refused at once, saying why, and staff and
    spectators on other addresses get in beside it."""
    from web.app import MAX_CONNECTIONS
    from web.connections import MAX_PER_ADDRESS, REQUEST_SECONDS

    guest = 1  # 127.0.0.2: staff and spectators ask from 127.0.0.1
    head = (b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"sec-fetch-site: same-origin\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n")
    SqliteStore(tmp_path / "state").close()
    with web_server(write_config(tmp_path)) as base:
        port = int(base.rsplit(":", 1)[1])
        script, replies = [], []
        try:
            for _ in range(MAX_CONNECTIONS):
                connection = connect(port, guest, timeout=WAIT)
                script.append(connection)
                connection.sendall(head)
                reply = connection.makefile("rb")
                replies.append((reply, reply.readline()))
                if replies[-1][1].startswith(b"HTTP/1.1 100"):  # the server awaits the body: send part of it
                    connection.sendall(b'{"pin": "')
            assert sign_in(base)[0] == 200  # staff, on another address, at once
            assert request(base + "/api/table")[0] == 200  # and a spectator
            held = [line for _, line in replies if line.startswith(b"HTTP/1.1 100")]
            refused = [(reply, line) for reply, line in replies if not line.startswith(b"HTTP/1.1 100")]
            assert len(held) == MAX_PER_ADDRESS and len(refused) == MAX_CONNECTIONS - MAX_PER_ADDRESS
            assert all(line.startswith(b"HTTP/1.1 429") for _, line in refused)
            reply = refused[-1][0]
            headers = dict(line.decode().rstrip("\r\n").lower().split(": ", 1)
                           for line in iter(reply.readline, b"\r\n"))
            assert headers["retry-after"] == str(int(REQUEST_SECONDS)) and headers["connection"] == "close"
            assert b"Too many connections from your address" in reply.read()  # to the end: then closed
        finally:
            for connection in script:
                connection.close()


def test_the_reverse_proxy_named_in_the_configuration_carries_more_than_one_guests_share(tmp_path):
    """Behind a reverse proxy every spectator's stream comes from the proxy's one address: named
    as ``proxy``, it is not held to one guest's few connections (the proxy limits each guest)."""
    from web.connections import MAX_PER_ADDRESS

    proxy = 1  # 127.0.0.2
    with web_server(write_config(tmp_path, proxy="127.0.0.2")) as base:
        port, streams = int(base.rsplit(":", 1)[1]), []
        try:
            for _ in range(2 * MAX_PER_ADDRESS):
                streams.append(connect(port, proxy, timeout=WAIT))
                streams[-1].sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert streams[-1].makefile("rb").readline().startswith(b"HTTP/1.1 200")
        finally:
            for stream in streams:
                stream.close()


def test_a_page_reached_under_another_sites_name_is_refused(server):
    """DNS rebinding: a page on the Internet makes a visitor's browser ask the Pi with its own name."""
    port = server.rsplit(":", 1)[1]
    login = json.dumps({"pin": "0000"}).encode()
    for host in (f"evil.example:{port}", f"127.0.0.1.evil.example:{port}"):
        status, headers, _ = request(server + "/api/login", login,
                                     {**JSON, "host": host, "origin": f"http://{host}"})
        assert status == 400 and "frame-ancestors 'none'" in headers["content-security-policy"]
        assert request(server + "/api/table", headers={"host": host})[0] == 400
    for host in (f"localhost:{port}", f"[::1]:{port}", f"{socket.gethostname()}.local:{port}"):
        assert request(server + "/api/table", headers={"host": host})[0] == 200


def _stream_opens(port: int, ask: bytes) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as stream:
        stream.sendall(ask)
        return stream.makefile("rb").readline().startswith(b"HTTP/1.1 200")


def wait_until(condition, what: str):
    """``condition()`` once it is true (polled), failing after :data:`WAIT` seconds."""
    deadline = time.monotonic() + WAIT
    while not (value := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


def test_a_damaged_row_in_the_kiosks_database_costs_that_row_only(tmp_path):
    store = SqliteStore(tmp_path / "state")
    for moves in range(3):
        store.add_record("strategy", {"moves": moves})
    damage = sqlite3.connect(store.path, isolation_level=None)  # a flipped bit: no longer JSON
    with web_server(write_config(tmp_path)) as base:
        damage.execute("INSERT INTO current (id, saved, updated) VALUES (1, '{\"kind\":', 0)")
        wait_until(lambda: b"damaged" in request(base + "/api/table")[2], "the damaged game is said so")
        store.save_current(save(StrategyGame.new(2, robots=["beginner", "beginner"], seed=5)))
        wait_until(lambda: json.loads(request(base + "/api/table")[2])["kind"] == "strategy",
                   "the live table follows the game saved over the damaged one")
        damage.execute("UPDATE records SET record = '{\"moves\":' WHERE id = 2")
        for key in ("kiosk-status", "kiosk-settings"):
            damage.execute("INSERT OR REPLACE INTO progress (key, value) VALUES (?, '{\"devices\":[')", (key,))
        _, cookie = sign_in(base)
        assert request(base + "/api/staff", headers={"cookie": cookie})[0] == 200
        assert request(base + "/api/settings", b'{"brightness": 0.5}', {**JSON, "cookie": cookie})[0] == 200
        assert store.progress("kiosk-settings") == {"brightness": 0.5}
        status, _, body = request(base + "/api/records", headers={"cookie": cookie})
        assert status == 200 and [json.loads(line)["record"]["moves"] for line in body.splitlines()] == [0, 2]
    damage.close()
    store.close()


def test_every_answer_forbids_scripts_and_frames_from_elsewhere(server):
    for path in ("/", "/staff", "/api/table", "/static/table.js"):
        status, headers, _ = request(server + path)
        assert status == 200
        assert "default-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"


def test_repeated_wrong_pins_lock_everyone_out_even_with_the_right_one(tmp_path):
    SqliteStore(tmp_path / "state").close()
    with web_server(write_config(tmp_path)) as base:
        for _ in range(4):
            assert sign_in(base, "1111")[0] == 401
        status, headers, body = request(base + "/api/login", b'{"pin": "1112"}', JSON)
        assert status == 429 and int(headers["retry-after"]) >= 1 and b"Too many wrong PINs" in body
        assert sign_in(base, STAFF_PIN)[0] == 429


def test_the_pin_lockout_outlasts_a_restart_of_the_web_process(tmp_path):
    """The lockout lived in the process's memory: someone guessing PINs had only to crash
    tantrix-web, or wait for systemd to start it again, to guess on. It is kept on disk now."""
    SqliteStore(tmp_path / "state").close()
    config = write_config(tmp_path)
    with web_server(config) as base:
        for _ in range(4):
            assert sign_in(base, "1111")[0] == 401
        assert sign_in(base, "1112")[0] == 429  # locked
    with web_server(config) as base:  # the same table's pages, started again
        status, headers, _ = request(base + "/api/login", json.dumps({"pin": STAFF_PIN}).encode(), JSON)
        assert status == 429 and int(headers["retry-after"]) > 1


def test_a_new_staff_pin_signs_in_at_once_and_the_old_one_never_again(tmp_path):
    """tantrix-web read the staff PIN only when it started: after the owner set a new one
    (install.sh --set-pin rewrites the configuration with sed -i), the old PIN still signed in on
    the web page, and its sessions went on, until the unit was restarted. The file is looked at
    again when it changes: the new PIN works at once, the old one and its sessions no longer; a
    PIN damaged in the file lets nobody in."""
    SqliteStore(tmp_path / "state").close()
    config = write_config(tmp_path)
    with web_server(config) as base:
        status, old_session = sign_in(base)
        assert status == 200 and request(base + "/api/staff", headers={"cookie": old_session})[0] == 200
        line = f'staff_pin = "{hash_pin("97531", rounds=1000)}"'
        subprocess.run(["sed", "-i", f"s|^staff_pin = .*|{line}|", str(config)], check=True)  # as install.sh does
        assert sign_in(base)[0] == 401
        assert request(base + "/api/staff", headers={"cookie": old_session})[0] == 401
        status, session = sign_in(base, "97531")
        assert status == 200 and request(base + "/api/staff", headers={"cookie": session})[0] == 200
        config.write_text(config.read_text().replace(line, 'staff_pin = "pbkdf2-sha256$1000$damaged"'))
        status, _, body = request(base + "/api/login", b'{"pin": "97531"}', JSON)
        assert status == 403 and b"staff_pin" in body
        assert request(base + "/api/staff", headers={"cookie": session})[0] == 401


def test_without_a_staff_pin_nobody_signs_in_and_spectators_may_be_turned_off(tmp_path):
    SqliteStore(tmp_path / "state").close()
    with web_server(write_config(tmp_path, pin=None, spectators=False)) as base:
        status, _, body = request(base + "/api/login", b'{"pin": "0000"}', JSON)
        assert status == 403 and b"staff_pin" in body
        assert request(base + "/")[0] == 404 and request(base + "/api/table")[0] == 404
        assert request(base + "/events")[0] == 404


def test_off_by_default_nothing_listens(tmp_path):
    config = write_config(tmp_path, enabled=False)
    done = subprocess.run([sys.executable, "-m", "web", "--config", str(config)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "the web pages are off" in done.stderr + done.stdout
    assert load_config(Path("/nonexistent")).web.enabled is False


def test_a_staff_session_ends_when_idle_and_at_the_latest_a_working_day_after_sign_in():
    from web.auth import MAX_SESSION_SECONDS, Sessions

    now = [0.0]
    sessions = Sessions(600.0, clock=lambda: now[0])
    idle, busy, leaving = sessions.start(), sessions.start(), sessions.start()
    now[0] = 599.0
    assert sessions.valid(busy) and sessions.valid(leaving)
    sessions.end(leaving)  # signed out
    now[0] = 700.0
    assert not sessions.valid(idle) and sessions.valid(busy) and not sessions.valid(leaving)
    while now[0] + 300.0 < MAX_SESSION_SECONDS:  # a staff page left open asks every few seconds...
        now[0] += 300.0
        assert sessions.valid(busy)
    now[0] = MAX_SESSION_SECONDS
    assert not sessions.valid(busy)  # ...and still has to sign in again the next day


def test_the_session_cookie_is_secure_behind_a_tls_proxy_and_still_works_over_plain_http(kiosk, server):
    """Behind a TLS reverse proxy (which says so with X-Forwarded-Proto) the cookie is Secure, so a
    browser never sends it back over plain HTTP; reached directly over HTTP it cannot be (a browser
    drops a Secure cookie set there), and the sign-in must still work."""
    def cookie_attributes(headers: dict[str, str]) -> set[str]:
        return {part.strip().split("=")[0].lower() for part in headers.get("set-cookie", "").split(";")[1:]}

    body = json.dumps({"pin": STAFF_PIN}).encode()
    status, direct, _ = request(server + "/api/login", body, JSON)
    assert status == 200 and {"httponly", "samesite"} <= cookie_attributes(direct)
    assert "secure" not in cookie_attributes(direct)
    status, proxied, _ = request(server + "/api/login", body, {**JSON, "x-forwarded-proto": "https"})
    assert status == 200 and {"secure", "httponly", "samesite"} <= cookie_attributes(proxied)
    cookie = proxied["set-cookie"].split(";")[0]
    assert request(server + "/api/staff", headers={"cookie": cookie, "x-forwarded-proto": "https"})[0] == 200
    status, gone, _ = request(server + "/api/logout", b"{}", {**JSON, "cookie": cookie, "x-forwarded-proto": "https"})
    assert status == 200 and "secure" in cookie_attributes(gone)
    assert request(server + "/api/staff", headers={"cookie": cookie})[0] == 401


def test_a_server_whose_port_another_took_meanwhile_is_started_on_another_port(tmp_path, server):
    """The tests' ``web_server`` took an answer on the configured port as its server started; a
    port another test's server took between ``free_port`` and the bind made it test that other
    server (this one having failed to bind). It now waits for its own server's word, and trades
    the taken port for another."""
    config = write_config(tmp_path, spectators=False, port=int(server.rsplit(":", 1)[1]))
    with web_server(config) as base:
        assert base != server and f"port = {base.rsplit(':', 1)[1]}\n" in config.read_text()
        assert request(base + "/api/table")[0] == 404  # this one's configuration: no spectators
    assert request(server + "/api/table")[0] == 200


def test_the_pages_read_the_kiosks_database_when_the_file_refuses_its_directory(tmp_path, monkeypatch):
    """An owner's edit made ``storage.directory`` relative ("data"): the kiosk went on with its last
    good copy's directory, but ``tantrix-web`` read the default one: staff saw no games there, and
    what they changed missed the table. It reads the kiosk's copy now (the units share their state
    directory), the PIN still from the file alone."""
    import uvicorn

    import web.__main__
    import web.app
    from firmware.config import LAST_GOOD

    state = tmp_path / "unit-state"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    path = write_config(tmp_path)
    assert load_config(path, environ={}, last_good=state / LAST_GOOD).storage.directory == str(tmp_path / "state")
    path.write_text(path.read_text().replace(f'directory = "{tmp_path / "state"}"', 'directory = "data"'))
    read: list[Path] = []
    plain = web.app.create_app
    monkeypatch.setattr(web.app, "create_app", lambda config, directory: read.append(directory) or plain(config, directory))
    monkeypatch.setattr(uvicorn, "run", lambda app, **_options: None)
    assert web.__main__.main(["--config", str(path)]) == 0
    assert read == [tmp_path / "state"]
