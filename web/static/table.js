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

function describeResult(result) {
  if (!result) return "";
  const scores = Object.entries(result.scores).map(([c, s]) => `${COLOUR_NAMES[c] || c} ${s}`).join(", ");
  return (result.winner ? `${COLOUR_NAMES[result.winner] || result.winner} wins` : "A draw") + ` (${scores})`;
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
  const title = shown.finished ? "final standings" : `round ${shown.round} of ${shown.rounds}`;
  evening.appendChild(text("h2", `Club evening${shown.table ? ` at ${shown.table}` : ""}: ${title}`));
  const pairings = document.createElement("ul");
  pairings.className = "pairings";
  let round = shown.round;
  for (const pairing of shown.pairings) {
    if (pairing.round !== round) {
      round = pairing.round;
      pairings.appendChild(text("li", `Round ${round}`, "dim"));
    }
    const line = document.createElement("li");
    line.appendChild(text("span", pairing.second === null ? `${pairing.first}: a bye` : `${pairing.first} – ${pairing.second}`, "names"));
    let where = "";
    if (pairing.scores) where = `${pairing.scores[0]} : ${pairing.scores[1]}`;
    else if (pairing.forfeit) where = `forfeit (${pairing.forfeit} left)`;
    else if (pairing.at === "") where = "playing here";
    else if (pairing.at) where = `playing at ${pairing.at}`;
    else if (pairing.second !== null) where = "to play";
    line.appendChild(text("span", where, pairing.scores ? "result" : pairing.forfeit ? "dim" : "where"));
    pairings.appendChild(line);
  }
  const table = document.createElement("table");
  table.className = "ladder standings";
  const head = document.createElement("tr");
  for (const name of ["#", "Player", "Points", "Buchholz", "S-B"]) head.appendChild(text("th", name));
  table.appendChild(head);
  for (const row of shown.standings) {
    const line = document.createElement("tr");
    if (row.left) line.className = "dim";
    const name = row.left ? `${row.name} (left)` : row.name;
    for (const cell of [row.place, name, points(row.points), points(row.buchholz), points(row.sonneborn_berger)]) {
      line.appendChild(text("td", String(cell)));
    }
    table.appendChild(line);
  }
  evening.append(pairings, table);
}

function show(view) {
  const tiles = view.tiles || [];
  drawBoard(board, tiles, 10);
  board.dataset.tiles = tiles.length;
  seats.replaceChildren();
  if (!view.kind) {
    seats.appendChild(text("p", view.waiting ? "Waiting for the table…" : view.evening ? "No game is being played at this table right now." : "No game is being played right now.", ""));
    seats.firstChild.id = "message";
  } else if (view.error) {
    seats.appendChild(text("p", view.error, "bad"));
  }
  (view.seats || []).forEach((seat, i) => {
    const card = document.createElement("section");
    card.className = "seat" + (view.turn === i && !view.finished ? " turn" : "");
    card.style.borderLeftColor = LINK_COLOURS[seat.colour] || "";
    card.dataset.score = seat.score;
    const top = document.createElement("div");
    top.className = "top";
    const label = text("div", COLOUR_NAMES[seat.colour] || seat.colour, "name");
    const toPlay = view.turn === i && !view.finished ? " · to play" : "";
    label.appendChild(text("span", (seat.robot ? `robot, ${seat.robot}` : "player") + toPlay, "who"));
    top.append(label, text("span", String(seat.score), "score"));
    const hand = svg("svg", { class: "hand", role: "img", "aria-label": `${seat.hand.length} tiles in hand` });
    drawHand(hand, seat.hand, 10);
    card.append(top, hand);
    seats.appendChild(card);
  });
  if (view.result) seats.appendChild(text("p", describeResult(view.result), "ok"));
  if (view.bag !== undefined && !view.finished) seats.appendChild(text("p", `${view.bag} tiles in the bag`, "dim"));
  if (typeof view.updated === "number") window.latencies.push(Date.now() / 1000 - view.updated);
  document.body.dataset.kind = view.kind || "";
  seats.appendChild(evening);
  showEvening(view.evening);
}

const source = new EventSource("/events");
source.addEventListener("table", event => { state.textContent = "live"; show(JSON.parse(event.data)); });
source.onerror = () => { state.textContent = "reconnecting…"; };
