// Every figure of a run (issue 22, item 3): per train, the recorded and the optimal route's
// stops by name with their values, the destination bonus and the mine subsidy (the
// service's `breakdown`), and what the optimum adds and drops against the recorded route
// (ValidateRoutes with `compare`, the same as `route18xx check --compare`).

import { stopName, trainName } from "./names.js";
import { hasSubsidies, signedMoney, money } from "./words.js";

/** The breakdown panel for a checked run: ``check`` is ValidateRoutesResponse JSON; ``names``
 * the engine's names of its stops and trains (names.js), each written one way. */
export function renderBreakdown(box, check, names) {
  box.replaceChildren();
  const comparison = check.comparison || {};
  const optimal = [...(comparison.optimalRoutes || [])];
  const trains = comparison.trains || [];
  const recorded = check.routes || [];
  const count = Math.max(recorded.length, trains.length, optimal.length);
  for (let i = 0; i < count; i++) {
    const rec = recorded[i];
    const cmp = trains[i] || {};
    const trainId = (rec && rec.train) || cmp.train || (optimal[i] && optimal[i].train);
    // the optimum's route of this train: same id when the engine kept it, else in order
    let j = optimal.findIndex((r) => r.train === trainId);
    if (j < 0) j = 0;
    const opt = optimal.splice(j, 1)[0];
    const section = document.createElement("section");
    section.className = "train";
    section.dataset.train = trainId;
    const title = document.createElement("h4");
    title.textContent = trainName(names, trainId);
    section.appendChild(title);
    const pair = document.createElement("div");
    pair.className = "pair";
    pair.appendChild(routeTable("recorded", rec, names));
    pair.appendChild(routeTable("optimal", opt, names));
    section.appendChild(pair);
    if (cmp.train !== undefined) section.appendChild(differences(cmp, names));
    box.appendChild(section);
  }
  if (!count) {
    const none = document.createElement("p");
    none.textContent = "No train ran.";
    box.appendChild(none);
  }
}

function routeTable(kind, route, names) {
  const table = document.createElement("table");
  table.className = "route-breakdown " + kind;
  table.dataset.kind = kind;
  const caption = document.createElement("caption");
  table.appendChild(caption);
  if (!route) {
    caption.textContent = `${kind}: the train does not run`;
    return table;
  }
  const b = route.breakdown || {};
  const legal = route.legal === undefined || route.legal;
  caption.textContent = `${kind}: ${money(route.revenue)} revenue` +
    (route.subsidy ? ` + ${money(route.subsidy)} subsidy` : "") + (legal ? "" : " — illegal");
  const body = document.createElement("tbody");
  for (const stop of b.stops || []) {
    body.appendChild(row(stopName(names, stop.node), stop.kind, money(stop.value), stop.rule, "stop"));
  }
  if (b.destinationBonus) {
    const d = b.destinationBonus;
    body.appendChild(row("destination bonus",
      `${d.home ? stopName(names, d.home) : "home"} ↔ ${d.destination ? stopName(names, d.destination) : "destination"}`,
      money(d.value), d.rule, "bonus"));
  }
  if (b.mineSubsidy) {
    body.appendChild(row("mine subsidy (treasury)", b.mineSubsidy.node ? stopName(names, b.mineSubsidy.node) : "",
      money(b.mineSubsidy.value),
      b.mineSubsidy.rule, "subsidy"));
  }
  const limit = b.distanceLimit === undefined ? "unlimited" : b.distanceLimit;
  body.appendChild(row("distance", "", `${b.distanceUsed || 0} of ${limit}`, "", "distance"));
  table.appendChild(body);
  for (const v of route.violations || []) {
    const tr = row("violation", "", "", v, "violation");
    body.appendChild(tr);
  }
  return table;
}

function row(what, kind, value, rule, cls) {
  const tr = document.createElement("tr");
  tr.className = cls;
  for (const text of [what, kind, value]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  if (rule) tr.title = rule;
  return tr;
}

function differences(cmp, names) {
  const p = document.createElement("p");
  p.className = "difference";
  const list = (nodes) => nodes.map((n) => stopName(names, n)).join(", ");
  const parts = [];
  if ((cmp.added || []).length) parts.push(`adds ${list(cmp.added)}`);
  if ((cmp.dropped || []).length) parts.push(`drops ${list(cmp.dropped)}`);
  const amounts = `revenue ${signedMoney(cmp.revenueDifference || 0)}` +
    (hasSubsidies() ? `, subsidy ${signedMoney(cmp.subsidyDifference || 0)}` : "");
  p.textContent = parts.length ? `The optimum ${parts.join(" and ")}: ${amounts}.`
    : "The optimum runs the same stops.";
  return p;
}
