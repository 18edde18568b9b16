// The staff page: sign in with the staff PIN, then the kiosk's health, settings, game and statistics.
"use strict";
const $ = id => document.getElementById(id);
const COLOUR_NAMES = { R: "Red", Y: "Yellow", G: "Green", B: "Blue" };
const LANGUAGE_NAMES = { en: "English", fr: "Français", nl: "Nederlands", pl: "Polski" };
let refresh = null;
const editing = { language: false, brightness: false, coach: false };  // chosen here, not applied yet: not refreshed

async function call(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({}));
  if (response.status === 401 && path !== "/api/login") signedOut("Your session ended: sign in again.");
  if (!response.ok) throw new Error(data.error || `the kiosk answered ${response.status}`);
  return data;
}

function item(content, className) {
  const li = document.createElement("li");
  li.textContent = content;
  if (className) li.className = className;
  return li;
}

function signedOut(message) {
  clearInterval(refresh);
  $("dashboard").hidden = true;
  $("login").hidden = false;
  $("error").textContent = message || "";
  $("pin").value = "";
  $("pin").focus();
}

function show(state) {
  const kiosk = state.kiosk;
  $("seen").textContent = kiosk.seen_seconds_ago === null ? "The kiosk has not reported yet."
    : kiosk.seen_seconds_ago > 150 ? `The kiosk last reported ${Math.round(kiosk.seen_seconds_ago / 60)} min ago: is it running?`
    : "The kiosk is running.";
  $("devices").replaceChildren(...kiosk.devices.map(d =>
    item(`${d.name}: ${d.ok ? "fine" : "NOT WORKING"} (${d.backend})${d.detail ? " · " + d.detail : ""}`, d.ok ? "ok" : "bad")));
  $("reports").replaceChildren(...(kiosk.reports.length ? kiosk.reports.map(r => item(r, "bad")) : [item("none", "dim")]));
  const settings = state.settings;
  if (!$("language").options.length) {
    for (const language of settings.languages) $("language").add(new Option(LANGUAGE_NAMES[language] || language, language));
  }
  if (!editing.language) $("language").value = settings.language;
  if (!editing.brightness) $("brightness").value = Math.round(settings.brightness * 100);
  $("brightness-shown").textContent = `${$("brightness").value} %`;
  if (!editing.coach) $("coach").value = settings.coach ? "on" : "off";
  const applied = kiosk.applied;
  $("applied").textContent = applied ? `The table shows: ${LANGUAGE_NAMES[applied.language] || applied.language}, `
    + `LED brightness ${Math.round(applied.brightness * 100)} %`
    + (applied.coach === undefined ? "." : `, Hint button ${applied.coach ? "offered" : "not offered"}.`) : "";
  const game = state.game;
  if (!game.kind) $("game").textContent = "No game in progress.";
  else {
    const scores = (game.seats || []).map(s => `${COLOUR_NAMES[s.colour] || s.colour} ${s.score}`).join(", ");
    $("game").textContent = `${game.kind}: ${(game.tiles || []).length} tiles placed` + (scores ? ` · ${scores}` : "");
  }
  const games = Object.entries(state.statistics.games);
  const most = Math.max(1, ...games.map(([, n]) => n));
  $("games").replaceChildren(...(games.length ? games.map(([kind, n]) => {
    const row = document.createElement("div");
    row.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${100 * n / most}%`;
    const track = document.createElement("span");
    track.appendChild(fill);
    const label = document.createElement("span");
    label.textContent = kind;
    const count = document.createElement("span");
    count.textContent = n;
    row.append(label, track, count);
    return row;
  }) : [item("No finished games yet.", "dim")]));
  $("robots").replaceChildren(...Object.entries(state.statistics.robots).map(([name, r]) =>
    item(`robot ${name}: won ${r.won}, lost ${r.lost}, drawn ${r.drawn}`)));
  showLadder(state.ladder);
  showClub(state.club);
}

function showLadder(ladder) {
  $("no-players").hidden = ladder.length > 0;
  $("ladder").hidden = ladder.length === 0;
  $("ladder").tBodies[0].replaceChildren(...ladder.map((row, index) => {
    const tr = document.createElement("tr");
    for (const value of [index + 1, row.name, row.points, row.games]) {
      const td = document.createElement("td");
      td.textContent = value;
      tr.appendChild(td);
    }
    return tr;
  }));
}

const CLUB_STATES = { connected: "connected", connecting: "connecting", retrying: "NOT CONNECTED",
                      refused: "REFUSED by the broker", off: "off" };

function showClub(club) {
  if (!club) {
    $("club").textContent = "This table plays alone (no [club] in its configuration).";
    $("club").className = "dim";
    $("club-tables").replaceChildren();
    return;
  }
  const waiting = club.unsent ? ` · ${club.unsent} change(s) waiting to be sent` : " · everything sent";
  $("club").textContent = `${club.table} at ${club.broker}${club.tls ? " (TLS)" : ""}: ${CLUB_STATES[club.state] || club.state}`
    + (club.state === "connected" ? "" : ` · ${club.detail}`) + waiting
    + ` · received ${club.received_games} game(s)` + (club.dropped ? ` · ${club.dropped} bad message(s) dropped` : "");
  $("club").className = club.state === "connected" ? "ok" : "bad";
  $("club-tables").replaceChildren(...Object.entries(club.tables).map(([name, seen]) =>
    item(`${name}: ${seen.online ? "online" : "offline"}`, seen.online ? "ok" : "dim")));
}

async function load() {
  try { show(await call("/api/staff")); $("error").textContent = ""; }
  catch (error) { if (!$("dashboard").hidden) $("error").textContent = error.message; }
}

function signedIn() {
  $("login").hidden = true;
  $("dashboard").hidden = false;
  $("error").textContent = "";
  load();
  refresh = setInterval(load, 3000);
}

async function change(body, what) {
  $("saved").textContent = "";
  try {
    await call("/api/settings", body);
    for (const key of Object.keys(body)) editing[key] = false;
    $("saved").textContent = `${what} sent to the table.`;
    load();
  }
  catch (error) { $("error").textContent = error.message; }
}

$("login-form").addEventListener("submit", async event => {
  event.preventDefault();
  try { await call("/api/login", { pin: $("pin").value }); signedIn(); }
  catch (error) { signedOut(error.message); }
});
$("apply-language").addEventListener("click", () => change({ language: $("language").value }, "Language"));
$("language").addEventListener("change", () => { editing.language = true; });
$("brightness").addEventListener("input", () => {
  editing.brightness = true;
  $("brightness-shown").textContent = `${$("brightness").value} %`;
});
$("apply-brightness").addEventListener("click", () => change({ brightness: Number($("brightness").value) / 100 }, "Brightness"));
$("coach").addEventListener("change", () => { editing.coach = true; });
$("apply-coach").addEventListener("click", () => change({ coach: $("coach").value === "on" }, "Hint button"));
$("restart").addEventListener("click", async () => {
  if (!confirm("Restart the kiosk now?")) return;
  try { await call("/api/restart", {}); $("restarted").textContent = "Restart sent to the table."; }
  catch (error) { $("error").textContent = error.message; }
});
$("sign-out").addEventListener("click", async () => { await call("/api/logout", {}).catch(() => {}); signedOut(); });

fetch("/api/staff").then(response => { if (response.ok) signedIn(); });
