// The whole turn (issue 24): SuggestTurn's best plans — the normal lay, the lays the
// company's privates allow and a token, ranked by the proven optimal figure of the board
// each leaves — and its train advice: what each train the company may buy now would earn
// on the board after the best plan, beside its price. Each plan is a button that draws
// the board it leaves (RenderBoard on the plan's `stateAfter`).

import { signedMoney, money } from "./words.js";

/** A plan in words: "tile 57 on G9 (rotation 1), then tile 8 on F10 with HS, then token on H12". */
export function planWords(plan) {
  const parts = (plan.lays || []).map((lay) =>
    `tile ${lay.tile} on ${lay.hex} (rotation ${lay.rotation || 0})` + (lay.private ? ` with ${lay.private}` : ""));
  if (plan.token) parts.push(`token on ${plan.token.hex}` + (plan.token.city ? `, city ${plan.token.city}` : ""));
  return parts.length ? parts.join(", then ") : "no lay and no token";
}

function trainWords(option, figureWord) {
  // the service's source, in words ("trade_in" is the depot's train bought with a trade-in)
  const from = option.seller ? `from ${option.seller}`
    : option.source === "trade_in" ? "from the depot" : `from the ${option.source || "depot"}`;
  const trade = option.tradedIn ? `, trading in a ${option.tradedIn}` : "";
  const price = option.maxPrice && option.maxPrice !== option.price
    ? `${money(option.price || 0)}–${money(option.maxPrice)}` : money(option.price || 0);
  const after = (option.trainsAfter || []).join(" + ") || "no train";
  return `a ${option.train} ${from}${trade} for ${price}: ${figureWord} ${money(option.income || 0)} ` +
    `with ${after}` + (option.provenOptimal ? "" : " (not proven)") +
    (option.affordable ? "" : "; the company cannot pay for it now");
}

/**
 * Fill the plan list, the train list and the status line from a SuggestTurn answer; returns
 * how many plans are listed. ``onDraw(plan, button, caption)`` draws the board after a plan.
 */
export function renderTurn(plans, trains, statusBox, report, figureWord, onDraw) {
  plans.replaceChildren();
  trains.replaceChildren();
  const base = report.baseIncome || 0;
  const listed = report.plans || [];
  const pruned = (report.prunedByLayBound || 0) + (report.prunedByTokenBound || 0);
  statusBox.textContent = `Without a lay or a token the best ${figureWord} is ${money(base)}; ` +
    `${report.candidates || 0} plans ranked (${report.plansSolved || 0} solved, ${pruned} pruned by ` +
    `bounds)` + ((report.unranked || []).length ? `, ${report.unranked.length} left unranked by the time limit` : "") +
    ". Press a plan to draw the board it leaves.";
  for (const ranked of listed) {
    const item = document.createElement("li");
    const words = planWords(ranked.plan || {});
    const button = document.createElement("button");
    button.type = "button";
    button.className = "draw-move draw-plan";
    button.textContent = `${words}: ${figureWord} ${money(ranked.income || 0)} (${signedMoney(ranked.gain || 0)})` +
      (ranked.provenOptimal ? "" : " (not proven)") + ((ranked.plan || {}).cost ? `; costs ${money(ranked.plan.cost)}` : "");
    button.addEventListener("click", () => onDraw(ranked, button, `the plan: ${words}`));
    item.appendChild(button);
    plans.appendChild(item);
  }
  const advice = report.trains;
  if (advice && (advice.options || []).length) {
    const head = document.createElement("li");
    head.className = "trains-now";
    head.textContent = `Trains to buy after the best plan (now ${figureWord} ${money(advice.incomeNow || 0)}` +
      (advice.marketKnown ? "" : "; the depot is assumed from the phase") + "):";
    trains.appendChild(head);
    for (const option of advice.options) {
      const item = document.createElement("li");
      item.textContent = trainWords(option, figureWord);
      trains.appendChild(item);
    }
  }
  return listed.length;
}
