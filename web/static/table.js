// The spectator page: follows the table through server-sent events (/events) and redraws.
"use strict";
const board = document.getElementById("board");
const seats = document.getElementById("seats");
const state = document.getElementById("state");
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

function show(view) {
  const tiles = view.tiles || [];
  drawBoard(board, tiles, 10);
  board.dataset.tiles = tiles.length;
  seats.replaceChildren();
  if (!view.kind) {
    seats.appendChild(text("p", view.waiting ? "Waiting for the table…" : "No game is being played right now.", ""));
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
}

const source = new EventSource("/events");
source.addEventListener("table", event => { state.textContent = "live"; show(JSON.parse(event.data)); });
source.onerror = () => { state.textContent = "reconnecting…"; };
