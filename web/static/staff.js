// The staff page: sign in with the staff PIN, then the kiosk's health, settings, game and statistics.
"use strict";
const $ = id => document.getElementById(id);
let refresh = null;
let shownState = null;
const editing = { language: false, brightness: false, coach: false };  // chosen here, not applied yet: not refreshed

async function call(path, body) {
  const options = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await ask(path, options);
  return response.json().catch(() => ({}));
}

// The table's answer to `path`, asked in the page's language (for its own messages: a refused PIN,
// a refused setting); a refusal throws, in its words.
async function ask(path, options) {
  options.headers = { ...(options.headers || {}), "accept-language": pageLanguage };
  const response = await fetch(path, options);
  if (response.ok) return response;
  const data = await response.json().catch(() => ({}));
  if (response.status === 401 && path !== "/api/login") signedOut(t("Your session ended: sign in again."));
  throw new Error(data.error || t("The kiosk answered {status}.", { status: response.status }));
}

// The finished games' export, read whole before it is saved: one the table breaks off part-way (its
// database failed) was only the browser's "download failed"; staff are told why, and nothing is saved.
async function exportRecords() {
  $("export-said").textContent = "";
  try {
    const response = await ask("/api/records", {});
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const chunks = [];
    let tail = "";  // the end of what came, where the table says why it broke the export off
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        chunks.push(read.value);
        tail = (tail + decoder.decode(read.value, { stream: true })).slice(-8192);
      }
    } catch {
      throw new Error(brokenOff(tail));
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
    const link = Object.assign(document.createElement("a"), {
      href: URL.createObjectURL(new Blob(chunks, { type: "application/x-ndjson" })),
      download: name ? name[1] : "tantrix-records.jsonl" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);  // the download has its copy by then
  } catch (error) {
    $("export-said").textContent = error.message;
  }
}

// Why an export was broken off: the table's last line says it ({"error": ...}), if it got through.
function brokenOff(tail) {
  const last = tail.trimEnd().split("\n").pop();
  let why = "";
  try { why = JSON.parse(last).error || ""; } catch { /* cut before the table could say why */ }
  return (why || t("The export was broken off before its end.")) + " " + t("No file was saved.");
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
  shownState = state;
  const kiosk = state.kiosk;
  $("seen").textContent = kiosk.seen_seconds_ago === null ? t("The kiosk has not reported yet.")
    : kiosk.seen_seconds_ago > 150 ? t("The kiosk last reported {minutes} min ago: is it running?",
                                       { minutes: Math.round(kiosk.seen_seconds_ago / 60) })
    : t("The kiosk is running.");
  $("devices").replaceChildren(...kiosk.devices.map(d => {
    const state = d.ok ? t("working") : t("NOT WORKING");
    return item(t("{name}: {state}", { name: named(DEVICE_NAMES, d.name), state })
                + ` (${d.backend})${d.detail ? " · " + d.detail : ""}`, d.ok ? "ok" : "bad");
  }));
  $("reports").replaceChildren(...(kiosk.reports.length ? kiosk.reports.map(r => item(r, "bad")) : [item(t("none"), "dim")]));
  const settings = state.settings;
  if (!$("language").options.length) {
    for (const language of settings.languages) $("language").add(new Option(pageLanguages[language] || language, language));
  }
  if (!editing.language) $("language").value = settings.language;
  if (!editing.brightness) $("brightness").value = Math.round(settings.brightness * 100);
  $("brightness-shown").textContent = `${$("brightness").value} %`;
  if (!editing.coach) $("coach").value = settings.coach ? "on" : "off";
  const applied = kiosk.applied;
  const shows = applied && { language: pageLanguages[applied.language] || applied.language,
                             brightness: Math.round(applied.brightness * 100), hint: applied.coach ? t("offered") : t("not offered") };
  $("applied").textContent = !applied ? "" : applied.coach === undefined
    ? t("The table shows: {language}, LED brightness {brightness} %.", shows)
    : t("The table shows: {language}, LED brightness {brightness} %, Hint button {hint}.", shows);
  const game = state.game;
  if (!game.kind) $("game").textContent = t("No game in progress.");
  else {
    // each colour's score once: in Doubles two seats (partners) share one
    const scored = new Map((game.seats || []).map(s => [s.colour, s.score]));
    const scores = [...scored].map(([colour, score]) => `${colourName(colour, game.doubles)} ${score}`).join(", ");
    $("game").textContent = t("{mode} · tiles placed: {count}", { mode: named(MODE_NAMES, game.kind), count: (game.tiles || []).length })
      + (scores ? ` · ${scores}` : "");
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
    label.textContent = named(MODE_NAMES, kind);
    const count = document.createElement("span");
    count.textContent = n;
    row.append(label, track, count);
    return row;
  }) : [Object.assign(document.createElement("p"), { className: "dim", textContent: t("No finished games yet.") })]));
  $("robots").replaceChildren(...Object.entries(state.statistics.robots).map(([name, r]) =>
    item(t("Robot {level}: won {won}, lost {lost}, drawn {drawn}",
           { level: named(LEVEL_NAMES, name), won: r.won, lost: r.lost, drawn: r.drawn }))));
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

const CLUB_STATES = { connected: N_("connected"), connecting: N_("connecting"), retrying: N_("NOT CONNECTED"),
                      refused: N_("REFUSED by the broker"), off: N_("off") };

function showClub(club) {
  if (!club) {
    $("club").textContent = t("This table plays alone (no [club] in its configuration).");
    $("club").className = "dim";
    $("club-tables").replaceChildren();
    return;
  }
  const parts = [t("{table} at {broker}: {state}", { table: club.table, broker: club.broker + (club.tls ? " (TLS)" : ""),
                                                      state: named(CLUB_STATES, club.state) })];
  if (club.state !== "connected") parts.push(club.detail);
  parts.push(club.unsent ? t("changes waiting to be sent: {count}", { count: club.unsent }) : t("everything sent"));
  parts.push(t("games received: {count}", { count: club.received_games }));
  if (club.dropped) parts.push(t("bad messages dropped: {count}", { count: club.dropped }));
  $("club").textContent = parts.join(" · ");
  $("club").className = club.state === "connected" ? "ok" : "bad";
  $("club-tables").replaceChildren(...Object.entries(club.tables).map(([name, seen]) => {
    const state = seen.online ? t("online") : t("offline");
    return item(t("{name}: {state}", { name, state }), seen.online ? "ok" : "dim");
  }));
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
    $("saved").textContent = t("{setting} sent to the table.", { setting: t(what) });
    load();
  }
  catch (error) { $("error").textContent = error.message; }
}

$("login-form").addEventListener("submit", async event => {
  event.preventDefault();
  try { await call("/api/login", { pin: $("pin").value }); signedIn(); }
  catch (error) { signedOut(error.message); }
});
$("apply-language").addEventListener("click", () => change({ language: $("language").value }, N_("Language")));
$("language").addEventListener("change", () => { editing.language = true; });
$("brightness").addEventListener("input", () => {
  editing.brightness = true;
  $("brightness-shown").textContent = `${$("brightness").value} %`;
});
$("apply-brightness").addEventListener("click", () => change({ brightness: Number($("brightness").value) / 100 }, N_("LED brightness")));
$("coach").addEventListener("change", () => { editing.coach = true; });
$("apply-coach").addEventListener("click", () => change({ coach: $("coach").value === "on" }, N_("Hint button")));
$("restart").addEventListener("click", async () => {
  if (!confirm(t("Restart the kiosk now?"))) return;
  try { await call("/api/restart", {}); $("restarted").textContent = t("Restart sent to the table."); }
  catch (error) { $("error").textContent = error.message; }
});
$("export").addEventListener("click", event => { event.preventDefault(); exportRecords(); });
$("sign-out").addEventListener("click", async () => { await call("/api/logout", {}).catch(() => {}); signedOut(); });

redraw = () => { if (shownState) show(shownState); };
// Neither the PIN form nor the dashboard shows before the table says whether this browser's session
// is live: a form shown at once was there for staff still signed in too, until the table answered.
wordsReady.then(() => fetch("/api/staff"))
  .then(response => (response.ok ? signedIn() : signedOut()), () => signedOut());
