// The spectator page: follows the table through server-sent events (/events) and redraws.
"use strict";
const board = document.getElementById("board");
const seats = document.getElementById("seats");
const state = document.getElementById("state");
const evening = document.getElementById("evening");
window.latencies = [];  // seconds from the kiosk's save to this page's drawing (bench/web_latency.py)

function text(tag, content, className) {
  const element = document.createElement(tag);
  element.textContent = content;
  if (className) element.className = className;
  return element;
}

function describeResult(result, doubles) {
  if (!result) return "";
  const scores = Object.entries(result.scores).map(([c, s]) => `${colourName(c, doubles)} ${s}`).join(", ");
  return (result.winner ? t("{name} wins", { name: colourName(result.winner, doubles) }) : t("A draw"))
    + ` (${scores})`;
}

// A player of the evening: their name, a robot by its level, or one no table knows any more.
function playerName(player) {
  if (player.robot) return t("Robot: {level}", { level: named(LEVEL_NAMES, player.robot) });
  return player.name === null ? t("(deleted player)") : player.name;
}

function points(value) {
  return String(Math.round(value * 2) / 2);  // 1, 1.5, 2: no needless ".0"
}

function showEvening(shown) {
  // The club evening: the round's pairings (where each is played, or its result), then the standings.
  evening.replaceChildren();
  evening.hidden = !shown;
  document.body.classList.toggle("evening-only", Boolean(shown) && !document.body.dataset.kind);
  if (!shown) return;
  const title = shown.finished ? t("Final standings") : t("Round {round} of {rounds}", { round: shown.round, rounds: shown.rounds });
  evening.appendChild(text("h2", shown.table ? t("Club evening at {table}: {title}", { table: shown.table, title })
    : t("Club evening: {title}", { title })));
  const pairings = document.createElement("ul");
  pairings.className = "pairings";
  let round = shown.round;
  for (const pairing of shown.pairings) {
    if (pairing.round !== round) {
      round = pairing.round;
      pairings.appendChild(text("li", t("Round {round}", { round }), "dim"));
    }
    const line = document.createElement("li");
    const first = playerName(pairing.first);
    line.appendChild(text("span", pairing.second === null ? t("{name}: a bye", { name: first })
      : `${first} – ${playerName(pairing.second)}`, "names"));
    let where = "";
    if (pairing.scores) where = `${pairing.scores[0]} : ${pairing.scores[1]}`;
    else if (pairing.forfeit) where = t("forfeit ({name} left)", { name: playerName(pairing.forfeit) });
    else if (pairing.at === "") where = t("playing here");
    else if (pairing.at) where = t("playing at {table}", { table: pairing.at });
    else if (pairing.second !== null) where = t("to play");
    line.appendChild(text("span", where, pairing.scores ? "result" : pairing.forfeit ? "dim" : "where"));
    pairings.appendChild(line);
  }
  const table = document.createElement("table");
  table.className = "ladder standings";
  const head = document.createElement("tr");
  for (const name of ["#", t("Player"), t("Points"), t("Buchholz"), t("S-B")]) head.appendChild(text("th", name));
  table.appendChild(head);
  for (const row of shown.standings) {
    const line = document.createElement("tr");
    if (row.left) line.className = "dim";
    const name = row.left ? t("{name} (left)", { name: playerName(row.name) }) : playerName(row.name);
    for (const cell of [row.place, name, points(row.points), points(row.buchholz), points(row.sonneborn_berger)]) {
      line.appendChild(text("td", String(cell)));
    }
    table.appendChild(line);
  }
  evening.append(pairings, table);
}

let shownView = null;

function show(view) {
  shownView = view;
  const tiles = view.tiles || [];
  drawBoard(board, tiles, 10);
  board.dataset.tiles = tiles.length;
  seats.replaceChildren();
  if (!view.kind) {
    seats.appendChild(text("p", view.waiting ? t("Waiting for the table…") : view.evening
      ? t("No game is being played at this table right now.") : t("No game is being played right now."), ""));
    seats.firstChild.id = "message";
  } else if (view.error) {
    seats.appendChild(text("p", t("The game at the table cannot be shown ({detail}).", { detail: view.error }), "bad"));
  }
  (view.seats || []).forEach((seat, i) => {
    const card = document.createElement("section");
    card.className = "seat" + (view.turn === i && !view.finished ? " turn" : "");
    card.style.borderLeftColor = LINK_COLOURS[seat.colour] || "";
    card.dataset.score = seat.score;
    const top = document.createElement("div");
    top.className = "top";
    const label = text("div", colourName(seat.colour, view.doubles), "name");
    const who = seat.robot ? t("Robot: {level}", { level: named(LEVEL_NAMES, seat.robot) }) : t("Person");
    label.appendChild(text("span", view.turn === i && !view.finished ? t("{who} · to play", { who }) : who, "who"));
    top.append(label, text("span", String(seat.score), "score"));
    const hand = svg("svg", { class: "hand", role: "img", "aria-label": t("Tiles in hand: {count}", { count: seat.hand.length }) });
    drawHand(hand, seat.hand, 10);
    card.append(top, hand);
    seats.appendChild(card);
  });
  if (view.result) seats.appendChild(text("p", describeResult(view.result, view.doubles), "ok"));
  if (view.bag !== undefined && !view.finished) seats.appendChild(text("p", t("Tiles in the bag: {count}", { count: view.bag }), "dim"));
  if (typeof view.updated === "number") window.latencies.push(Date.now() / 1000 - view.updated);
  document.body.dataset.kind = view.kind || "";
  seats.appendChild(evening);
  showEvening(view.evening);
}

let connection = N_("connecting…");

function showConnection(message) {
  connection = message;
  state.textContent = t(message);
}

// A stream refused (503: every place taken by the crowd) is final to the browser's EventSource,
// which then never asks again: the page asks again itself, at a random moment of the next
// seconds, so a crowd turned away together does not come back together.
const ASK_AGAIN_SECONDS = [5, 20];

function follow() {
  const source = new EventSource("/events");
  source.addEventListener("table", event => { showConnection(N_("live")); show(JSON.parse(event.data)); });
  source.onerror = () => {
    showConnection(N_("reconnecting…"));
    if (source.readyState === EventSource.CLOSED) {
      const [least, most] = ASK_AGAIN_SECONDS;
      setTimeout(follow, 1000 * (least + Math.random() * (most - least)));
    }
  };
}

redraw = () => { showConnection(connection); if (shownView) show(shownView); };
wordsReady.then(follow);  // the first view drawn already in the visitor's language
