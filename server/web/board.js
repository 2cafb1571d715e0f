// A board picture on the page: the service's SVG, made pannable and zoomable with the
// vendored panzoom library (mouse wheel and drag, arrow keys and +/- when focused, touch
// pinch), with its legend moved beside it (one line and a toggle per train) and an
// "open full size" view. Every board (a run's, the board after a move or a plan) opens
// fitted to its routes (issue 34); on a phone it opens on its routes with names readable
// (labels are 11 SVG units: READABLE keeps them at 11 CSS px). The hexes laid this turn,
// or by the move or plan drawn, are marked.

import { readNames, trainName } from "./names.js";

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
 *
 * Nothing here measures the picture (issue 34, Lighthouse): the frame is measured before the
 * picture goes in, the map's box is its viewBox and the routes' box the service's
 * (``#routes[data-box]``), so the opening view is set without a forced layout; panzoom, which
 * measures, is attached in a later task, once the picture has been laid out and painted.
 */
export function mountBoard(container, legendBox, svgText, { laid = [], laidWords = "laid this turn", label = "the board" } = {}) {
  // measured before the picture goes in (window.innerWidth too: read later, it lays the picture out)
  const frame = container.getBoundingClientRect();
  const narrow = window.innerWidth < NARROW;
  container.replaceChildren();
  legendBox.replaceChildren();
  container.innerHTML = svgText;
  const svg = container.querySelector("svg");
  if (!svg) return null;
  const legend = svg.querySelector("#legend");
  const lines = legend ? extractLegend(legend) : [];
  if (legend) legend.remove();
  // every stop and train by the engine's one name for it (names.js)
  const names = readNames(svg);
  const marked = markLaid(svg, laid, laidWords);
  // the whole picture (its background spans it): the legend now lives beside it
  const world = boxOf(svg.getAttribute("viewBox")) || bbox(svg);
  renderLegend(legendBox, lines, svg, marked ? laidWords : "", names);
  if (typeof window.panzoom !== "function") {
    svg.setAttribute("viewBox", `${world.x} ${world.y} ${world.width} ${world.height}`);
    svg.setAttribute("width", "100%");
    svg.removeAttribute("height");
    return { svg, names, home() {}, fit() {}, zoomBy() {}, dispose() {} };
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
  const routes = svg.querySelector("#routes");
  const routesBox = routes && (boxOf(routes.getAttribute("data-box")) || bbox(routes));
  let disposed = false;
  const handle = {
    svg, names, zoom: null,
    /** The opening view: fitted to the routes (on a phone: on them, names readable). */
    home() { show(handle, viewport, view(container.getBoundingClientRect(), world, routesBox, false, window.innerWidth < NARROW)); },
    /** The whole map. */
    fit() { show(handle, viewport, view(container.getBoundingClientRect(), world, routesBox, true, window.innerWidth < NARROW)); },
    zoomBy(factor) {
      if (!handle.zoom) return;
      const r = container.getBoundingClientRect();
      handle.zoom.smoothZoom(r.width / 2, r.height / 2, factor);
    },
    dispose() {
      disposed = true;
      if (handle.zoom) handle.zoom.dispose();
    },
  };
  show(handle, viewport, view(frame, world, routesBox, false, narrow));
  // pan and zoom once the picture is on screen (panzoom reads the transform set above)
  handle.ready = afterPaint().then(() => {
    if (disposed) return;
    handle.zoom = window.panzoom(viewport, {
      // no double-click zoom: two quick presses pick two hexes of a route (ownroute.js)
      maxZoom: 6, minZoom: 0.15, zoomDoubleClickSpeed: 1, smoothScroll: false,
      // a wheel over the board zooms it; the page scrolls elsewhere
      beforeWheel: () => false,
    });
  });
  return handle;
}

/** Resolves in the task after the next frame is drawn (layout done, nothing left to measure). */
const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** "x y w h" → a box; null when absent or malformed. */
function boxOf(text) {
  const v = String(text || "").trim().split(/[\s,]+/).map(Number);
  return v.length === 4 && v.every(Number.isFinite) && v[2] > 0 && v[3] > 0
    ? { x: v[0], y: v[1], width: v[2], height: v[3] } : null;
}

/** A measured box (a picture from a service that does not send its boxes). */
function bbox(el) {
  const b = el.getBBox();
  return b.width ? { x: b.x, y: b.y, width: b.width, height: b.height } : null;
}

/** Sets the view: through panzoom once attached, else as the viewport's own transform. */
function show(handle, viewport, v) {
  if (!v) return;
  if (handle.zoom) {
    handle.zoom.zoomAbs(0, 0, v.scale);
    handle.zoom.moveTo(v.x, v.y);
  } else {
    viewport.setAttribute("transform", `matrix(${v.scale} 0 0 ${v.scale} ${v.x} ${v.y})`);
  }
}

/** The scale and offset that show the whole map (``whole``), or the routes with room around
 * them, on a phone (``narrow``) never below READABLE, in a frame of size ``r``. */
function view(r, world, routesBox, whole, narrow) {
  if (!r.width || !r.height || !world) return null;
  const fitted = Math.min(r.width / world.width, r.height / world.height);
  let scale = fitted;
  let cx = world.x + world.width / 2;
  let cy = world.y + world.height / 2;
  const b = whole ? null : routesBox;
  if (b && b.width) {
    const onRoutes = Math.min(r.width / (b.width + 2 * PAD), r.height / (b.height + 2 * PAD));
    scale = Math.min(MOST, Math.max(fitted, narrow ? Math.max(onRoutes, READABLE) : onRoutes));
    cx = b.x + b.width / 2;
    cy = b.y + b.height / 2;
  } else if (!whole && narrow) {
    scale = Math.max(fitted, READABLE);
  }
  if (scale > fitted) {
    // keep the map's edge at the panel's edge rather than empty space
    cx = clamp(cx, world.x + r.width / scale / 2, world.x + world.width - r.width / scale / 2);
    cy = clamp(cy, world.y + r.height / scale / 2, world.y + world.height - r.height / scale / 2);
  }
  return { scale, x: r.width / 2 - cx * scale, y: r.height / 2 - cy * scale };
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
function renderLegend(box, lines, svg, laidWords, names) {
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
      toggle.setAttribute("aria-label", `show the ${line.route.kind} route of the ${trainName(names, line.route.train)}`);
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
