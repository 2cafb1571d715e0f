// route18xx web page: a game log's operating turns with recorded vs optimal income,
// the board with both routes, and the best tile lays of a turn. Every figure comes
// from the service's HTTP API (Connect protocol: a POST of protobuf JSON per call).
"use strict";

const SERVICE = "/route18xx.v1.RouteService/";
const $ = (id) => document.getElementById(id);

let current = { log: null, text: null };

/** Call a RouteService method; a failed call throws an Error with "code: message". */
async function rpc(method, body, timeoutMs = 60000) {
  let response;
  try {
    response = await fetch(SERVICE + method, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Connect-Protocol-Version": "1",
        "Connect-Timeout-Ms": String(timeoutMs),
      },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new Error("the service cannot be reached (" + err.message + ")");
  }
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error("the service answered " + response.status + " without JSON");
  }
  if (!response.ok) {
    throw new Error((data.code || response.status) + ": " + (data.message || "request failed"));
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  $("status").textContent = "";
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function status(message) {
  $("status").textContent = message;
}

const yen = (n) => "¥" + (n || 0);

/** The income a run shows: revenue, with the mine subsidy beside it when there is one. */
function income(revenue, subsidy) {
  const r = revenue || 0;
  const s = subsidy || 0;
  return s ? `${yen(r)} (+${yen(s)} subsidy)` : yen(r);
}

async function loadText(text, name) {
  clearError();
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    showError(`${name} is not JSON: ${err.message}`);
    return;
  }
  if (data && typeof data === "object" && Array.isArray(data.actions)) {
    await loadLog(text, data, name);
  } else if (data && typeof data === "object" && (data.state || data.tiles || data.phase)) {
    await solveState(data.state && !data.tiles ? data.state : data, name);
  } else {
    showError(`${name} is neither an 18xx.games game log (no "actions" list) nor a state file.`);
  }
}

async function loadLog(text, data, name) {
  status(`Replaying ${name} and solving every run…`);
  $("board-panel").hidden = true;
  let report;
  try {
    report = await rpc("ReplayGame", { gameLog: text }, 120000);
  } catch (err) {
    $("runs-panel").hidden = true;
    showError(`${name}: ${err.message}`);
    return;
  }
  current = { log: data, text };
  const runs = report.runs || [];
  $("game-title").textContent = `${report.title || "1888"} (${report.ruleSet || "?"}): ${runs.length} runs`;
  const left = runs.reduce((sum, r) => sum + gap(r), 0);
  $("game-summary").textContent =
    `Final scores ${report.scoresMatch ? "match" : "do not match"} the log. ` +
    `Income left on the table: ${yen(left)} in ${runs.filter((r) => gap(r) > 0).length} runs.` +
    ((report.errors || []).length ? " Problems: " + report.errors.join("; ") : "");
  const body = $("runs").querySelector("tbody");
  body.replaceChildren();
  for (const run of runs) {
    const row = document.createElement("tr");
    row.dataset.actionId = run.actionId;
    const missed = gap(run);
    if (missed > 0) row.classList.add("gap");
    for (const cell of [
      run.actionId, run.corporation, (run.trains || []).join(" + "),
      income(run.recordedRevenue, run.recordedSubsidy),
      run.optimalRevenue === undefined && run.optimalSubsidy === undefined
        ? "—" : income(run.optimalRevenue, run.optimalSubsidy),
      missed > 0 ? "−" + yen(missed) : "",
    ]) {
      const td = document.createElement("td");
      td.textContent = cell;
      row.appendChild(td);
    }
    row.addEventListener("click", () => showRun(run, row));
    body.appendChild(row);
  }
  $("runs-panel").hidden = false;
  status(`${runs.length} runs. Click one to see its board.`);
}

/** What the recorded run left on the table: optimal minus recorded (revenue + subsidy). */
function gap(run) {
  if (run.optimalRevenue === undefined && run.optimalSubsidy === undefined) return 0;
  const optimal = (run.optimalRevenue || 0) + (run.optimalSubsidy || 0);
  const recorded = (run.recordedRevenue || 0) + (run.recordedSubsidy || 0);
  return Math.max(0, optimal - recorded);
}

async function showRun(run, row) {
  clearError();
  for (const r of $("runs").querySelectorAll("tr.selected")) r.classList.remove("selected");
  row.classList.add("selected");
  $("board-panel").hidden = false;
  $("board-title").textContent =
    `Action ${run.actionId}: ${run.corporation} runs ${(run.trains || []).join(" + ")}`;
  $("incomes").innerHTML = "";
  const incomes = document.createElement("p");
  incomes.id = "income-line";
  incomes.textContent =
    `recorded ${income(run.recordedRevenue, run.recordedSubsidy)} · ` +
    `optimal ${income(run.optimalRevenue, run.optimalSubsidy)}` +
    (gap(run) > 0 ? ` · left on the table ${yen(gap(run))}` : "");
  $("incomes").appendChild(incomes);
  $("board").textContent = "Drawing…";
  $("suggestions").replaceChildren();
  $("after-board").replaceChildren();
  $("suggest-status").textContent = "Ranking every legal tile lay…";
  const source = { gameLog: current.text, actionId: run.actionId };
  try {
    const picture = await rpc("RenderBoard", { ...source, routesMode: "ROUTES_MODE_BOTH" });
    $("board").innerHTML = picture.svg;
  } catch (err) {
    $("board").textContent = "";
    showError(`board of action ${run.actionId}: ${err.message}`);
  }
  await showSuggestions(run);
}

async function showSuggestions(run) {
  const source = { gameLog: current.text, actionId: run.turnStartActionId || run.actionId };
  let report;
  try {
    report = await rpc("SuggestMoves", { ...source, top: 5, timeLimitS: 10 });
  } catch (err) {
    $("suggest-status").textContent = `No suggestions: ${err.message}`;
    return;
  }
  const moves = report.suggestions || [];
  $("suggest-status").textContent = moves.length
    ? `Without a lay: ${yen(report.baseIncome)}. ${report.candidates || 0} legal moves ranked.`
    : "No legal tile lay at the start of this turn.";
  for (const move of moves) {
    const item = document.createElement("li");
    const what = move.tile ? `tile ${move.tile} on ${move.hex}, rotation ${move.rotation || 0}`
      : `token on ${move.hex}`;
    item.textContent = `${what}: ${yen(move.income)} (${(move.gain || 0) >= 0 ? "+" : ""}${yen(move.gain)})`;
    $("suggestions").appendChild(item);
  }
  if (moves.length) {
    try {
      const after = await rpc("RenderBoard", { ...source, suggestion: 1 });
      $("after-board").innerHTML = after.svg;
    } catch (err) {
      $("after-board").textContent = `The board after the best lay could not be drawn: ${err.message}`;
    }
  }
}

async function solveState(state, name) {
  status(`Solving ${name}…`);
  $("runs-panel").hidden = true;
  try {
    const answer = await rpc("SolveRoutes", { state });
    const picture = await rpc("RenderBoard", { state, routesMode: "ROUTES_MODE_OPTIMAL" });
    $("board-panel").hidden = false;
    $("board-title").textContent = `${state.corporation || "?"}: ${(state.trains || []).join(" + ")}, phase ${state.phase || "?"}`;
    $("incomes").textContent = `optimal ${income(answer.revenue, answer.subsidy)}` +
      (answer.provenOptimal ? " (proven)" : " (not proven)");
    $("board").innerHTML = picture.svg;
    $("suggestions").replaceChildren();
    $("after-board").replaceChildren();
    $("suggest-status").textContent = "";
    status(`${name} solved.`);
  } catch (err) {
    showError(`${name}: ${err.message}`);
  }
}

function readFile(file) {
  const reader = new FileReader();
  reader.onload = () => loadText(String(reader.result), file.name);
  reader.onerror = () => showError(`${file.name} could not be read.`);
  reader.readAsText(file);
}

$("file").addEventListener("change", (event) => {
  const file = event.target.files[0];
  if (file) readFile(file);
});
const drop = $("drop");
drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  const file = event.dataTransfer.files[0];
  if (file) readFile(file);
});
$("solve-pasted").addEventListener("click", () => loadText($("paste").value, "the pasted state"));
window.addEventListener("error", (event) => showError(`Something went wrong: ${event.message}`));
window.addEventListener("unhandledrejection", (event) => showError(`Something went wrong: ${event.reason}`));
