// Try your own route (issue 34, item 6): on a run's board the player picks a train, then
// the hexes of its route in travel order — pressed on the board or typed — and, as the route
// grows, the service judges it (ValidateRoutes, the engine's one checker: legality with every
// violation by name, revenue and subsidy) beside the run's proven optimum (the same call's
// comparison, asked once). The page holds no rule: it only writes the hexes as 18xx.games
// writes a route, one connection from stop to stop, a stop being what the board drew on a hex
// (a city, a town, an off-board). Trailing hexes that reach no stop yet are not sent.

import { Aborted, rpc } from "./api.js";
import { trainName } from "./names.js";
import { OBJECTIVES, describe, money } from "./words.js";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
/** Each train's line on the board (the board's own route colours stay the routes'). */
const COLORS = ["#111111", "#8a5a00", "#5b3cc4", "#0b6e99"];
/** A press that moves the board more than this (px) is a drag, not a pick. */
const DRAG = 6;

/** "VIOLATION_CODE_TOO_LONG" → "too long". */
export const violationName = (code) => String(code || "").replace(/^VIOLATION_CODE_/, "").toLowerCase()
  .replace(/_/g, " ");

/** The builder of one run's own routes; ``dispose()`` when the run is left. */
export class OwnRoute {
  /** ``source``: the run's board (game log and action id); ``board``: its mounted handle. */
  constructor({ run, source, objective, signal, board, boardBox, after }) {
    this.run = run;
    this.source = source;
    this.objective = objective;
    this.signal = signal;
    this.board = board;
    this.boardBox = boardBox;
    this.after = after || (() => {});
    // the company's trains as the engine lists and names them (the log's own ids: "3-3")
    this.names = (board && board.names) || { stops: {}, trains: [] };
    this.trains = this.names.trains.map(([id]) => ({ id, hexes: [] }));
    this.current = 0;
    this.optimum = null;
    this.asked = 0;
    this.timer = null;
    this.listeners = [];
    this.render();
    this.listen();
    this.judge(); // no route yet: says how to build one
  }

  dispose() {
    clearTimeout(this.timer);
    for (const [el, type, fn, opts] of this.listeners) el.removeEventListener(type, fn, opts);
    this.listeners = [];
    if (this.controller) this.controller.abort();
  }

  on(el, type, fn, opts) {
    el.addEventListener(type, fn, opts);
    this.listeners.push([el, type, fn, opts]);
  }

  listen() {
    // a press on the board without a drag picks the hex under it
    let down = null;
    this.on(this.boardBox, "pointerdown", (e) => { down = { x: e.clientX, y: e.clientY }; }, true);
    this.on(this.boardBox, "click", (e) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > DRAG) return;
      const hex = hexAt(e.clientX, e.clientY);
      if (hex) this.add(hex);
    });
    this.on($("own-hexes"), "input", () => {
      this.trains[this.current].hexes = ($("own-hexes").value.toUpperCase().match(/[A-Z]+\d+/g) || []);
      this.changed(false);
    });
    this.on($("own-undo"), "click", () => {
      this.trains[this.current].hexes.pop();
      this.changed(true);
    });
    this.on($("own-clear"), "click", () => {
      this.trains[this.current].hexes = [];
      this.changed(true);
    });
  }

  add(hex) {
    const hexes = this.trains[this.current].hexes;
    if (hexes[hexes.length - 1] === hex) return; // a double press picks a hex once
    hexes.push(hex);
    this.changed(true);
  }

  choose(i) {
    this.current = i;
    this.render();
  }

  /** The route changed: redraw it, and ask the service again once the presses rest. */
  changed(writeField) {
    if (writeField) $("own-hexes").value = this.trains[this.current].hexes.join(" ");
    this.draw();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.judge(), 150);
  }

  render() {
    const box = $("own-trains");
    box.replaceChildren();
    this.trains.forEach((train, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.train = train.id;
      button.setAttribute("aria-pressed", String(i === this.current));
      const swatch = document.createElement("span");
      swatch.className = "own-swatch";
      swatch.style.borderTopColor = COLORS[i % COLORS.length];
      button.append(swatch, this.label(train));
      button.addEventListener("click", () => this.choose(i));
      box.appendChild(button);
    });
    $("own-hexes").value = this.trains[this.current] ? this.trains[this.current].hexes.join(" ") : "";
    $("own-hexes-label").textContent = this.trains.length
      ? `hexes of the ${box.children[this.current].textContent}, in order` : "hexes, in order";
    this.draw();
  }

  /** A train by its one name, as the breakdown and the legend write it: "3-train #2". */
  label(train) {
    return trainName(this.names, train.id);
  }

  /** Each train's picked hexes as a line over the board, joining the hexes' centres. */
  draw() {
    const svg = this.board && this.board.svg;
    if (!svg) return;
    let layer = svg.querySelector("g.own-routes");
    if (!layer) {
      layer = document.createElementNS(SVG_NS, "g");
      layer.setAttribute("class", "own-routes");
      (svg.querySelector("g.viewport") || svg).appendChild(layer);
    }
    layer.replaceChildren();
    this.trains.forEach((train, i) => {
      const points = train.hexes.map((hex) => centre(svg, hex)).filter(Boolean);
      if (!points.length) return;
      const line = document.createElementNS(SVG_NS, "polyline");
      line.setAttribute("points", points.map((p) => `${p.x},${p.y}`).join(" "));
      line.setAttribute("class", "own-route");
      line.setAttribute("data-train", train.id);
      line.setAttribute("stroke", COLORS[i % COLORS.length]);
      layer.appendChild(line);
      for (const p of points) {
        const dot = document.createElementNS(SVG_NS, "circle");
        dot.setAttribute("cx", p.x);
        dot.setAttribute("cy", p.y);
        dot.setAttribute("r", 7);
        dot.setAttribute("class", "own-pick");
        dot.setAttribute("fill", COLORS[i % COLORS.length]);
        layer.appendChild(dot);
      }
    });
  }

  /** Ask the service about the routes built so far (the optimum with the first answer). */
  async judge() {
    const svg = this.board && this.board.svg;
    const built = this.trains.map((t) => ({ train: t.id, ...connections(svg, t.hexes) }));
    const routes = built.filter((r) => r.connections.length)
      .map((r) => ({ train: r.train, connections: r.connections.map((hexes) => ({ hexes })) }));
    const open = built.filter((r) => r.open.length);
    if (this.controller) this.controller.abort();
    if (!routes.length) {
      $("own-result").replaceChildren();
      $("own-status").textContent = open.length ? "Go on to a stop: a route runs from stop to stop."
        : "Pick a train, then press the hexes of its route on the board in order (or type them).";
      return;
    }
    this.controller = new AbortController();
    const abort = () => this.controller.abort();
    this.signal.addEventListener("abort", abort, { once: true });
    const ask = ++this.asked;
    $("own-status").textContent = "Judging your route…";
    let check;
    try {
      check = await rpc("ValidateRoutes", { ...this.source, routes, compare: this.optimum === null,
        objective: OBJECTIVES[this.objective].proto }, { signal: this.controller.signal });
    } catch (err) {
      if (err instanceof Aborted || ask !== this.asked) return;
      $("own-status").textContent = `Your route could not be judged: ${err.message}`;
      $("own-result").replaceChildren();
      return;
    } finally {
      this.signal.removeEventListener("abort", abort);
    }
    if (ask !== this.asked) return;
    if (check.comparison) this.optimum = check.comparison;
    this.show(check, open);
    this.after();
  }

  show(check, open) {
    const list = $("own-result");
    list.replaceChildren();
    const details = check.violationDetails || [];
    (check.routes || []).forEach((route, i) => {
      const item = document.createElement("li");
      item.dataset.train = route.train;
      item.className = route.legal ? "legal" : "illegal";
      const head = `${this.label({ id: route.train })}: `;
      if (route.legal) {
        item.textContent = head + `legal, ${describe(this.objective, route.revenue, route.subsidy)}`;
      } else {
        item.append(head + "illegal");
        const why = document.createElement("ul");
        for (const v of details.filter((d) => (d.route || 0) === i)) {
          const li = document.createElement("li");
          li.className = "violation";
          li.dataset.code = v.code;
          const name = document.createElement("b");
          name.textContent = violationName(v.code);
          li.append(name, `: ${v.text}`);
          why.appendChild(li);
        }
        item.appendChild(why);
      }
      list.appendChild(item);
    });
    const opt = this.optimum || {};
    const yours = describe(this.objective, check.revenue, check.subsidy);
    const best = describe(this.objective, opt.optimalRevenue, opt.optimalSubsidy);
    $("own-status").textContent = `Your routes: ${check.legal ? yours : `illegal (an illegal route earns ${money(0)})`}` +
      ` · the proven optimum: ${best}` + (opt.provenOptimal === false ? " (not proven)" : "") +
      (open.length ? `. Not yet a stop: ${open.map((r) => r.open.join(" ")).join("; ")}.` : ".");
  }
}

/** The hex under a point of the screen (under the routes and names drawn over it). */
function hexAt(x, y) {
  for (const el of document.elementsFromPoint(x, y)) {
    const hex = el.closest && el.closest("g.hex[data-hex]");
    if (hex) return hex.getAttribute("data-hex");
  }
  return null;
}

/** Whether the board drew a stop on ``hex`` (a city, a town or an off-board). */
function hasStop(svg, hex) {
  const g = svg && svg.querySelector(`g.hex[data-hex="${CSS.escape(hex)}"]`);
  return !!(g && g.querySelector("g.city, .town, .offboard"));
}

/** The centre of a hex in the map's units (its drawn ground's box). */
function centre(svg, hex) {
  const ground = svg.querySelector(`g.hex[data-hex="${CSS.escape(hex)}"] > polygon`);
  if (!ground) return null;
  const b = ground.getBBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Hexes in travel order as 18xx.games' connections: cut at each hex with a stop; the hexes
 * after the last stop reached are ``open`` (not sent). */
export function connections(svg, hexes) {
  const out = [];
  let from = -1;
  hexes.forEach((hex, i) => {
    if (!hasStop(svg, hex)) return;
    if (from >= 0 && i > from) out.push(hexes.slice(from, i + 1));
    from = i;
  });
  const open = from < 0 ? [...hexes] : hexes.slice(from + 1);
  return { connections: out, open };
}
