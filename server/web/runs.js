// The runs list: one row per run_routes of the log (OR, company, president, trains,
// recorded and optimal figures for the objective, dividend and treasury lost), sortable by
// any column, filtered by company, OR and "gaps only"; rows are one tab stop: ↑/↓ (and
// Home/End) move the selection, Enter opens it, as do the prev/next buttons.

import { NEGATIVE, figure, hasSubsidies, shortfall, solved, money } from "./words.js";

const $ = (id) => document.getElementById(id);

const ALL_COLUMNS = [
  // the OR as players name it ("OR 8.1"), in the log's order (the action id), the id beside
  { key: "round", label: "OR · action", value: (r) => r.actionId },
  { key: "company", label: "company", value: (r) => r.corporation || "" },
  { key: "president", label: "president", value: (r) => r.presidentName || "" },
  { key: "trains", label: "trains", value: (r) => (r.trains || []).join("+") },
  { key: "recorded", label: "recorded", value: (r, o) => figure(o, r.recordedRevenue, r.recordedSubsidy) },
  { key: "optimal", label: "optimal", value: (r, o) => (solved(r) ? figure(o, r.optimalRevenue, r.optimalSubsidy) : -1) },
  { key: "dividend", label: "dividend lost", value: (r, o) => (shortfall(o, r) || { dividend: 0 }).dividend },
  { key: "treasury", label: "treasury lost", value: (r, o) => (shortfall(o, r) || { treasury: 0 }).treasury },
];
/** The columns for the shown title: no treasury column where no stop pays a subsidy (1830);
 * there the dividend lost is the revenue lost, and says so. */
let COLUMNS = ALL_COLUMNS;
function columnsFor(subsidies) {
  return subsidies ? ALL_COLUMNS : ALL_COLUMNS.filter((c) => c.key !== "treasury")
    .map((c) => (c.key === "dividend" ? { ...c, label: "revenue lost" } : c));
}

/** The list's state: the runs, the objective, the sort and filters, the selected run. */
export class RunsList {
  constructor(onOpen) {
    this.onOpen = onOpen;
    this.runs = [];
    this.objective = "total";
    this.sort = { key: "round", dir: 1 };
    this.selected = null;
    this.body = $("runs").querySelector("tbody");
    this.buildHead();
    for (const id of ["filter-company", "filter-round", "gaps-only"]) {
      $(id).addEventListener("change", () => this.render());
    }
    $("sort-by").addEventListener("change", () => {
      const [key, dir] = $("sort-by").value.split(":");
      this.sort = { key, dir: Number(dir) };
      this.render();
    });
    $("prev-run").addEventListener("click", () => this.step(-1, true));
    $("next-run").addEventListener("click", () => this.step(1, true));
    this.body.addEventListener("keydown", (event) => this.key(event));
  }

  buildHead() {
    const row = $("runs").querySelector("thead tr");
    row.replaceChildren();
    for (const col of COLUMNS) {
      const th = document.createElement("th");
      th.scope = "col";
      th.dataset.key = col.key;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = col.label;
      // one tab stop less per column: the keyboard sorts with "sort by", after the list
      button.tabIndex = -1;
      button.addEventListener("click", () => {
        this.sort = { key: col.key, dir: this.sort.key === col.key ? -this.sort.dir : 1 };
        this.render();
      });
      th.appendChild(button);
      row.appendChild(th);
    }
    const options = [];
    for (const col of COLUMNS) {
      for (const dir of [1, -1]) {
        options.push(new Option(`${col.label} ${dir > 0 ? "▲" : "▼"}`, `${col.key}:${dir}`));
      }
    }
    $("sort-by").replaceChildren(...options);
  }

  /** New runs (a new file or objective): filters keep their choice when it still exists. */
  setRuns(runs, objective) {
    this.runs = runs;
    this.objective = objective;
    COLUMNS = columnsFor(hasSubsidies());
    this.buildHead();
    fillSelect($("filter-company"), "every company", [...new Set(runs.map((r) => r.corporation))].sort());
    fillSelect($("filter-round"), "every OR", [...new Set(runs.map((r) => r.round).filter(Boolean))]);
    this.render();
  }

  clear() {
    this.runs = [];
    this.selected = null;
    this.body.replaceChildren();
    $("runs-note").hidden = true;
  }

  /** The runs shown, in the order shown. */
  visible() {
    const company = $("filter-company").value;
    const round = $("filter-round").value;
    const gapsOnly = $("gaps-only").checked;
    const col = COLUMNS.find((c) => c.key === this.sort.key) || COLUMNS[0];
    const o = this.objective;
    return this.runs
      .filter((r) => (!company || r.corporation === company) && (!round || r.round === round)
        && (!gapsOnly || (shortfall(o, r) || { left: 0 }).left > 0))
      .map((r, i) => ({ r, i }))
      .sort((a, b) => {
        const x = col.value(a.r, o);
        const y = col.value(b.r, o);
        const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return c * this.sort.dir || a.i - b.i;
      })
      .map((e) => e.r);
  }

  render() {
    const o = this.objective;
    $("sort-by").value = `${this.sort.key}:${this.sort.dir}`;
    for (const th of $("runs").querySelectorAll("thead th")) {
      th.setAttribute("aria-sort", th.dataset.key === this.sort.key
        ? (this.sort.dir > 0 ? "ascending" : "descending") : "none");
    }
    const rows = [];
    let negative = false;
    for (const run of this.visible()) {
      const row = document.createElement("tr");
      row.dataset.actionId = run.actionId;
      row.dataset.turnStart = run.turnStartActionId || run.actionId;
      row.tabIndex = -1;
      const short = shortfall(o, run);
      if (short && short.left > 0) row.classList.add("gap");
      if (this.selected === run.actionId) {
        row.classList.add("selected");
        row.setAttribute("aria-selected", "true");
      }
      const cells = [
        run.round ? `${run.round.replace(/^OR /, "")} · ${run.actionId}` : `#${run.actionId}`, run.corporation,
        run.presidentName || "—", (run.trains || []).join("+"),
        money(figure(o, run.recordedRevenue, run.recordedSubsidy)),
        solved(run) ? money(figure(o, run.optimalRevenue, run.optimalSubsidy)) : "—",
        // what the optimum earns more (a loss, red) or less (a gain the player took, grey)
        short && short.dividend ? lost(short.dividend) : "",
        short && short.treasury ? lost(short.treasury) : "",
      ].slice(0, COLUMNS.length);
      cells.forEach((text, i) => {
        const td = document.createElement("td");
        td.textContent = text;
        td.dataset.key = COLUMNS[i].key;
        if (i === 0 && run.round) {
          // "8.1 · 530": a phone shows the OR alone (the action id stays in the row's title)
          const id = document.createElement("span");
          id.className = "action-id";
          id.textContent = ` · ${run.actionId}`;
          td.replaceChildren(run.round.replace(/^OR /, ""), id);
        }
        if (i >= 6 && text) {
          td.classList.add(text.startsWith("−") ? "gained" : "lost");
          if (text.startsWith("−")) negative = true;
        }
        row.appendChild(td);
      });
      row.title = `${run.round || ""} action ${run.actionId}` +
        (short && short.left > 0 ? `: left on the table ${money(short.left)}` : "");
      row.addEventListener("click", () => this.open(run.actionId, false));
      rows.push(row);
    }
    this.body.replaceChildren(...rows);
    // the body is the list's one tab stop: ↑/↓ move inside it
    this.body.tabIndex = 0;
    $("runs-count").textContent = `${rows.length} of ${this.runs.length} runs shown`;
    // a negative figure lost, explained where it shows
    $("runs-note").textContent = negative ? `−: ${NEGATIVE}` : "";
    $("runs-note").hidden = !negative;
  }

  rowOf(actionId) {
    return this.body.querySelector(`tr[data-action-id="${actionId}"]`);
  }

  /** Select a run (highlight) and open it; ``focus`` moves the keyboard focus along;
   * ``settle`` waits for the keys to rest (holding ↓ does not open every run on the way). */
  open(actionId, focus, settle = false) {
    const run = this.runs.find((r) => r.actionId === actionId);
    if (!run) return false;
    this.selected = actionId;
    for (const r of this.body.querySelectorAll("tr.selected")) {
      r.classList.remove("selected");
      r.removeAttribute("aria-selected");
    }
    const row = this.rowOf(actionId);
    if (row) {
      row.classList.add("selected");
      row.setAttribute("aria-selected", "true");
      row.scrollIntoView({ block: "nearest" });
      if (focus) this.body.focus({ preventScroll: true });
    }
    clearTimeout(this.pending);
    if (settle) this.pending = setTimeout(() => this.onOpen(run), 200);
    else this.onOpen(run);
    return true;
  }

  /** The next (+1) or previous (−1) visible run from the selected one. */
  step(delta, open, settle = false) {
    const shown = this.visible();
    if (!shown.length) return;
    let i = shown.findIndex((r) => r.actionId === this.selected);
    i = i < 0 ? (delta > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, i + delta));
    if (open) this.open(shown[i].actionId, true, settle);
    return shown[i];
  }

  key(event) {
    const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    if (event.key in moves) {
      event.preventDefault();
      this.step(moves[event.key], true, true);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const shown = this.visible();
      if (shown.length) this.open(shown[event.key === "Home" ? 0 : shown.length - 1].actionId, true, true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.selected === null) this.step(1, true);
      else this.open(this.selected, true);
    }
  }
}

/** A lost amount: "¥20" lost, or "−¥10" (the player got ¥10 more than the optimum). */
const lost = (n) => (n < 0 ? "−" : "") + money(Math.abs(n));

function fillSelect(select, all, values) {
  const keep = select.value;
  const options = [new Option(all, "")];
  for (const v of values) options.push(new Option(v, v));
  select.replaceChildren(...options);
  select.value = values.includes(keep) ? keep : "";
  select.disabled = values.length === 0;
}
