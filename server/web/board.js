// A board picture on the page: the service's SVG, made pannable and zoomable with the
// vendored panzoom library (mouse wheel and drag, arrow keys and +/- when focused, touch
// pinch), with its legend moved beside it (one line and a toggle per train) and an
// "open full size" view. Every board (a run's, the board after a move or a plan) opens
// fitted to its routes (issue 34); on a phone it opens on its routes with names readable
// (labels are 11 SVG units: READABLE keeps them at 11 CSS px). The hexes laid this turn,
// or by the move or plan drawn, are marked.

/** CSS px per SVG unit at which a label (11 units) is 11 px: names readable. */
const READABLE = 1.0;
/** Below this window width (a phone) a board opens readable on its routes, not all of them. */
const NARROW = 700;
/** Room kept around the routes when a board is fitted to them (SVG units: a hex's radius). */
const PAD = 50;
/** A board never opens larger than this (a short route is not blown up). */
const MOST = 2.0;

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Replaces ``container``'s content by the picture; returns a handle (home, fit, zoom, dispose).
 * ``laid``: hexes to mark (with ``laidWords`` in the legend: "laid this turn").
 */
export function mountBoard(container, legendBox, svgText, { laid = [], laidWords = "laid this turn", label = "the board" } = {}) {
  container.replaceChildren();
  legendBox.replaceChildren();
  container.innerHTML = svgText;
  const svg = container.querySelector("svg");
  if (!svg) return null;
  const legend = svg.querySelector("#legend");
  const lines = legend ? extractLegend(legend) : [];
  if (legend) legend.remove();
  // the trains of the drawn recorded routes, under the log's own ids ("3-3")
  const trains = lines.filter((l) => l.route && l.route.kind === "recorded").map((l) => l.route.train);
  const marked = markLaid(svg, laid, laidWords);
  // the map alone (title, grid and names included): the legend now lives beside it
  const box = svg.getBBox();
  const world = { x: box.x, y: box.y, width: box.width, height: box.height };
  renderLegend(legendBox, lines, svg, marked ? laidWords : "");
  if (typeof window.panzoom !== "function") {
    svg.setAttribute("viewBox", `${world.x} ${world.y} ${world.width} ${world.height}`);
    svg.setAttribute("width", "100%");
    svg.removeAttribute("height");
    return { svg, trains, home() {}, fit() {}, zoomBy() {}, dispose() {} };
  }
  svg.removeAttribute("viewBox");
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${label}; drag or use the arrow keys to move, + and − to zoom`);
  const viewport = document.createElementNS(SVG_NS, "g");
  viewport.setAttribute("class", "viewport");
  for (const child of [...svg.childNodes]) viewport.appendChild(child);
  svg.appendChild(viewport);
  const zoom = window.panzoom(viewport, {
    // no double-click zoom: two quick presses pick two hexes of a route (ownroute.js)
    maxZoom: 6, minZoom: 0.15, zoomDoubleClickSpeed: 1, smoothScroll: false,
    // a wheel over the board zooms it; the page scrolls elsewhere
    beforeWheel: () => false,
  });
  const handle = {
    svg, zoom, trains,
    /** The opening view: fitted to the routes (on a phone: on them, names readable). */
    home() { place(container, zoom, world, false); },
    /** The whole map. */
    fit() { place(container, zoom, world, true); },
    zoomBy(factor) {
      const r = container.getBoundingClientRect();
      zoom.smoothZoom(r.width / 2, r.height / 2, factor);
    },
    dispose() { zoom.dispose(); },
  };
  handle.home();
  return handle;
}

/** Scale and centre the map: the whole map (``whole``), or the routes with room around them,
 * on a phone never below READABLE. */
function place(container, zoom, world, whole) {
  const r = container.getBoundingClientRect();
  if (!r.width || !r.height) return;
  const fitted = Math.min(r.width / world.width, r.height / world.height);
  let scale = fitted;
  let cx = world.x + world.width / 2;
  let cy = world.y + world.height / 2;
  const routes = whole ? null : container.querySelector("#routes");
  const b = routes && routes.getBBox();
  if (b && b.width) {
    const onRoutes = Math.min(r.width / (b.width + 2 * PAD), r.height / (b.height + 2 * PAD));
    scale = Math.min(MOST, Math.max(fitted, window.innerWidth < NARROW ? Math.max(onRoutes, READABLE) : onRoutes));
    cx = b.x + b.width / 2;
    cy = b.y + b.height / 2;
  } else if (!whole && window.innerWidth < NARROW) {
    scale = Math.max(fitted, READABLE);
  }
  if (scale > fitted) {
    // keep the map's edge at the panel's edge rather than empty space
    cx = clamp(cx, world.x + r.width / scale / 2, world.x + world.width - r.width / scale / 2);
    cy = clamp(cy, world.y + r.height / scale / 2, world.y + world.height - r.height / scale / 2);
  }
  zoom.zoomAbs(0, 0, scale);
  zoom.moveTo(r.width / 2 - cx * scale, r.height / 2 - cy * scale);
}

const clamp = (v, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.min(hi, Math.max(lo, v)));

/** An outline over each hex of ``hexes`` (under the routes): the hexes laid. Returns how many. */
function markLaid(svg, hexes, words) {
  const shapes = [];
  for (const hex of new Set(hexes)) {
    const ground = svg.querySelector(`g.hex[data-hex="${CSS.escape(hex)}"] > polygon`);
    if (!ground) continue;
    const mark = document.createElementNS(SVG_NS, "polygon");
    mark.setAttribute("points", ground.getAttribute("points"));
    mark.setAttribute("class", "laid");
    mark.setAttribute("data-hex", hex);
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = `${hex}: ${words}`;
    mark.appendChild(title);
    shapes.push(mark);
  }
  if (!shapes.length) return 0;
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "laid-marks");
  group.append(...shapes);
  const routes = svg.querySelector("#routes");
  if (routes) routes.before(group);
  else svg.appendChild(group);
  return shapes.length;
}

/** The legend's lines as data: text, and the route (kind, train, colour, dashed) it keys. */
function extractLegend(legend) {
  const lines = [];
  let pending = null;
  for (const el of legend.children) {
    if (el.classList.contains("swatch")) {
      pending = {
        kind: el.getAttribute("data-kind"), train: el.getAttribute("data-train"),
        color: el.getAttribute("stroke"), dashed: el.hasAttribute("stroke-dasharray"),
      };
    } else if (el.tagName.toLowerCase() === "text") {
      lines.push({ text: el.textContent, route: pending,
        bold: el.getAttribute("font-weight") === "bold", note: el.classList.contains("note") });
      pending = null;
    }
  }
  return lines;
}

/** The legend beside the board: a key for the symbols, then a toggle per drawn route. */
function renderLegend(box, lines, svg, laidWords) {
  const key = document.createElement("ul");
  key.className = "key";
  for (const [cls, words] of [
    ["solid", "solid line: the optimal route"],
    ["dashed", "dashed line: the recorded route"],
    ["token", "filled circle: a station token (company letters)"],
    ["reserved", "dashed ring: a home slot reserved for a company"],
    ["stop", "ring on a city or town: a stop of that route"],
    ...(laidWords ? [["laid", `purple outline: a hex ${laidWords}`]] : []),
  ]) {
    const item = document.createElement("li");
    const mark = document.createElement("span");
    mark.className = "mark " + cls;
    item.append(mark, words);
    key.appendChild(item);
  }
  box.appendChild(key);
  const list = document.createElement("ul");
  list.className = "legend-lines";
  for (const line of lines) {
    const item = document.createElement("li");
    if (line.bold) item.classList.add("total");
    if (line.note) item.classList.add("note");
    if (line.route) {
      const label = document.createElement("label");
      const toggle = document.createElement("input");
      toggle.type = "checkbox";
      toggle.checked = true;
      toggle.dataset.kind = line.route.kind;
      toggle.dataset.train = line.route.train;
      toggle.setAttribute("aria-label", `show the ${line.route.kind} route of train ${line.route.train}`);
      toggle.addEventListener("change", () => showRoute(svg, line.route, toggle.checked));
      const swatch = document.createElement("span");
      swatch.className = "swatch" + (line.route.dashed ? " dashed" : "");
      swatch.style.borderTopColor = line.route.color; // CSSOM: allowed by the page's CSP
      label.append(toggle, swatch, line.text);
      item.appendChild(label);
    } else {
      item.textContent = line.text;
    }
    list.appendChild(item);
  }
  box.appendChild(list);
}

function showRoute(svg, route, on) {
  const sel = `[data-kind="${route.kind}"][data-train="${route.train}"]`;
  for (const el of svg.querySelectorAll(`path.route${sel}, path.route-casing${sel}, circle.stop${sel}`)) {
    el.classList.toggle("off", !on);
  }
}

/** The names the board prints, by hex (to name the stops of a breakdown). */
export function placeNames(svg) {
  const names = {};
  if (!svg) return names;
  for (const el of svg.querySelectorAll("text.location[data-hex]")) {
    const hex = el.getAttribute("data-hex");
    names[hex] = names[hex] ? names[hex] + " " + el.textContent : el.textContent;
  }
  return names;
}
