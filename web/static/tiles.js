// Draws Tantrix tiles in SVG from the server's view: each tile's six side colours ("face") and its
// links as [colour, side, side], sides numbered clockwise from east (rules.md section 2).
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
const LINK_COLOURS = { R: "#e8262d", Y: "#ffd21a", G: "#2fbf4f", B: "#3d7cf2" };

function svg(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  return element;
}

// The centre of cell (q, r) for hexagons of circumradius `size`, pointy-top, y down.
function centre(q, r, size) { return [size * SQRT3 * (q + r / 2), size * 1.5 * r]; }

function polar(cx, cy, radius, degrees) {
  const a = degrees * Math.PI / 180;
  return [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
}

// One tile as an SVG group centred on (cx, cy).
function tileGroup(tile, cx, cy, size) {
  const group = svg("g", { "data-tile": tile.n });
  const corners = [];
  for (let i = 0; i < 6; i++) corners.push(polar(cx, cy, size * 0.97, 30 + 60 * i).map(v => v.toFixed(2)).join(","));
  group.appendChild(svg("polygon", { points: corners.join(" "), fill: "#17171c", stroke: "#3a3f47", "stroke-width": size * 0.04 }));
  const side = size * SQRT3 / 2;
  for (const [colour, a, b] of tile.links) {
    const [x0, y0] = polar(cx, cy, side, 60 * a);
    const [x1, y1] = polar(cx, cy, side, 60 * b);
    const gap = Math.min(Math.abs(a - b), 6 - Math.abs(a - b));
    let d = `M${x0.toFixed(2)},${y0.toFixed(2)} `;
    if (gap === 3) {
      d += `L${x1.toFixed(2)},${y1.toFixed(2)}`;
    } else {
      // a corner bends around the corner the two sides share; a curve bends around the centre
      const vertex = (a + 1) % 6 === b ? 60 * a + 30 : (b + 1) % 6 === a ? 60 * b + 30 : null;
      const [qx, qy] = vertex === null ? [cx, cy] : polar(cx, cy, size * 0.25, vertex);
      d += `Q${qx.toFixed(2)},${qy.toFixed(2)} ${x1.toFixed(2)},${y1.toFixed(2)}`;
    }
    group.appendChild(svg("path", { d, fill: "none", stroke: LINK_COLOURS[colour] || "#888", "stroke-width": size * 0.26 }));
  }
  return group;
}

// Replaces the content of `target` (an <svg>) with `tiles` on their cells, fitted to the view.
function drawBoard(target, tiles, size) {
  target.replaceChildren();
  if (!tiles.length) { target.removeAttribute("viewBox"); return; }
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const tile of tiles) {
    const [x, y] = centre(tile.q, tile.r, size);
    target.appendChild(tileGroup(tile, x, y, size));
    minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
  }
  const m = size * 1.2;
  target.setAttribute("viewBox", `${minX - m} ${minY - m} ${maxX - minX + 2 * m} ${maxY - minY + 2 * m}`);
}

// A hand: its tiles in one row.
function drawHand(target, tiles, size) {
  target.replaceChildren();
  const step = size * SQRT3 * 1.05;
  tiles.forEach((tile, i) => target.appendChild(tileGroup(tile, size + i * step, size, size)));
  target.setAttribute("viewBox", `0 0 ${6 * step + size} ${2 * size}`);  // room for a full hand of six
  target.setAttribute("preserveAspectRatio", "xMinYMid meet");
}
