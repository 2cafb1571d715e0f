// route18xx web page: a game log's operating turns with recorded vs optimal income,
// the board with both routes, and the best tile lays of a turn. Every figure comes
// from the service's HTTP API (Connect protocol: a POST of protobuf JSON per call).
"use strict";

const SERVICE = "/route18xx.v1.RouteService/";
const $ = (id) => document.getElementById(id);

/** The file on screen: its log (decoded and as text) and its standing notice (a stopped replay). */
let current = { log: null, text: null, notice: "" };
/** Bumped on every load: an answer that comes back for an earlier file is dropped. */
let generation = 0;

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

/** The error box: the loaded file's standing notice, then ``extra`` (a failed request). */
function renderErrors(extra) {
  const box = $("error");
  const text = [current.notice, extra].filter(Boolean).join("\n");
  box.textContent = text;
  box.hidden = !text;
}

function showError(message) {
  renderErrors(message);
  $("status").textContent = "";
}

/** Clears a failed request's message; a stopped replay's notice stays while its runs are shown. */
function clearError() {
  renderErrors("");
}

/** Empties the board panel: no board, routes or suggestions of an earlier run or file. */
function clearBoard() {
  $("board-panel").hidden = true;
  $("board-title").textContent = "Board";
  $("incomes").replaceChildren();
  $("board").replaceChildren();
  $("suggestions").replaceChildren();
  $("after-board").replaceChildren();
  $("suggest-status").textContent = "";
}

/** A new file: nothing of the previous one stays on screen, and its pending answers are dropped. */
function clearScreen() {
  generation += 1;
  current = { log: null, text: null, notice: "" };
  clearError();
  status("");
  $("runs-panel").hidden = true;
  $("runs").querySelector("tbody").replaceChildren();
  $("game-title").textContent = "Operating turns";
  $("game-summary").textContent = "";
  $("runs-end").textContent = "";
  $("runs-end").hidden = true;
  clearBoard();
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
  clearScreen();
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
  const loading = generation;
  status(`Replaying ${name} and solving every run…`);
  let report;
  try {
    report = await rpc("ReplayGame", { gameLog: text }, 120000);
  } catch (err) {
    if (loading === generation) showError(`${name}: ${err.message}`);
    return;
  }
  if (loading !== generation) return;
  current = { log: data, text, notice: "" };
  const runs = report.runs || [];
  const errors = report.errors || [];
  // protobuf JSON leaves out a false ``completed``: absent means the replay stopped
  const stopped = report.completed !== true;
  const stoppedAt = report.stoppedAtAction;
  const listEnd = stoppedAt === undefined ? "" : `The replay stopped: the list ends at action ${stoppedAt}.`;
  if (stopped) {
    // without an action: the log and the game disagree on where the game ends
    const what = stoppedAt === undefined ? "the replay is incomplete"
      : `the replay stopped at action ${stoppedAt}`;
    current.notice = `${name}: ${what}: ${errors.join("; ") || "no reason given"}` +
      (!runs.length ? "\nNo run was reached before it."
        : `\n${runs.length} runs were reached before it and are listed below` +
          (stoppedAt === undefined ? "." : `: the list ends at action ${stoppedAt}.`));
    renderErrors("");
  }
  if (!runs.length && stopped) {
    status("");
    return;
  }
  $("game-title").textContent =
    `${report.title || "1888"} (${report.ruleSet || "?"}): ${runs.length} runs${stopped ? " reached" : ""}`;
  const left = runs.reduce((sum, r) => sum + gap(r), 0);
  $("game-summary").textContent =
    (stoppedAt !== undefined ? "The replay did not reach the end of the game: no final scores. "
      : `Final scores ${report.scoresMatch ? "match" : "do not match"} the log. `) +
    `Income left on the table: ${yen(left)} in ${runs.filter((r) => gap(r) > 0).length} runs.` +
    (errors.length && !stopped ? " Problems: " + errors.join("; ") : "");
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
  $("runs-end").textContent = listEnd;
  $("runs-end").hidden = !listEnd;
  $("runs-panel").hidden = false;
  status(stopped ? `${runs.length} runs before the replay stopped. Click one to see its board.`
    : `${runs.length} runs. Click one to see its board.`);
}

/** What the recorded run left on the table: optimal minus recorded (revenue + subsidy). */
function gap(run) {
  if (run.optimalRevenue === undefined && run.optimalSubsidy === undefined) return 0;
  const optimal = (run.optimalRevenue || 0) + (run.optimalSubsidy || 0);
  const recorded = (run.recordedRevenue || 0) + (run.recordedSubsidy || 0);
  return Math.max(0, optimal - recorded);
}

async function showRun(run, row) {
  const showing = generation;
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
    if (showing !== generation) return;
    $("board").innerHTML = picture.svg;
  } catch (err) {
    if (showing !== generation) return;
    $("board").textContent = "";
    showError(`board of action ${run.actionId}: ${err.message}`);
  }
  await showSuggestions(run, showing);
}

async function showSuggestions(run, showing) {
  const source = { gameLog: current.text, actionId: run.turnStartActionId || run.actionId };
  let report;
  try {
    report = await rpc("SuggestMoves", { ...source, top: 5, timeLimitS: 10 });
  } catch (err) {
    if (showing === generation) $("suggest-status").textContent = `No suggestions: ${err.message}`;
    return;
  }
  if (showing !== generation) return;
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
      if (showing !== generation) return;
      $("after-board").innerHTML = after.svg;
    } catch (err) {
      if (showing !== generation) return;
      $("after-board").textContent = `The board after the best lay could not be drawn: ${err.message}`;
    }
  }
}

async function solveState(state, name) {
  const solving = generation;
  status(`Solving ${name}…`);
  try {
    const answer = await rpc("SolveRoutes", { state });
    const picture = await rpc("RenderBoard", { state, routesMode: "ROUTES_MODE_OPTIMAL" });
    if (solving !== generation) return;
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
    if (solving === generation) showError(`${name}: ${err.message}`);
  }
}

function readFile(file) {
  clearScreen();
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
