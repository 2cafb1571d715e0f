// route18xx web page: a game log's runs with recorded vs optimal figures for the chosen
// objective, a run's board with both routes (pan, zoom, full size), every figure of it, and
// the lays that would have improved the turn. Every figure comes from the service's HTTP
// API. One answer per view (issue 22, item 1): each view (a file, a run, an objective)
// gets an id and an AbortController; leaving it aborts its calls, and an answer for any
// other view is dropped; every panel is cleared before it is filled.

import { readAddress, recall, remember, setAddress } from "./address.js";
import { Aborted, rpc } from "./api.js";
import { mountBoard } from "./board.js";
import { renderBreakdown } from "./details.js";
import { turnLays, turnMoves } from "./logfacts.js";
import { NO_NAMES } from "./names.js";
import { OwnRoute } from "./ownroute.js";
import { RunsList } from "./runs.js";
import { renderCombined, renderPlayer, renderSuggestions } from "./suggestions.js";
import { renderTurn } from "./turnplan.js";
import { OBJECTIVES, describe, figureWord, hasSubsidies, incomeLine, setCurrency, setSubsidies, summary } from "./words.js";

const $ = (id) => document.getElementById(id);

/** Lets the page paint and answer input before the next step of a long piece of work (issue 34,
 * Lighthouse: a log's decoding, the runs' list and a board were one long task). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Resolves once the page has been drawn (its layout done: what follows measures nothing new). */
const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The file on screen: its log (decoded and as text), its name, runs and standing notice. */
let current = { log: null, text: null, name: "", notice: "", runs: [] };
let objective = "total";
/** The view on screen; ``live(v)`` is false once the player has moved on from ``v``. */
let view = { id: 0, controller: new AbortController() };
let boardHandle = null;
/** The board after a move or a plan, below the run's. */
let afterHandle = null;
/** The player's own routes on the run's board (issue 34, item 6). */
let ownRoute = null;
/** A link to a file-loaded game names its file and run; the run opens once that file is given. */
let awaited = null;

function newView() {
  view.controller.abort();
  view = { id: view.id + 1, controller: new AbortController() };
  return view;
}
const live = (v) => v === view;
const signal = (v) => ({ signal: v.controller.signal });

const runs = new RunsList((run) => showRun(run));

/** Each title's money and the default title, from GetInfo (asked once, again after a failure). */
let titlesInfo = null;
function titles() {
  if (!titlesInfo) {
    titlesInfo = rpc("GetInfo", {}).then((info) => {
      const list = info.titles || [];
      return { formats: Object.fromEntries(list.map((t) => [t.title, t.currencyFormat || "%s"])),
        // protobuf JSON leaves a false ``subsidies`` out: absent means the title pays none
        subsidies: Object.fromEntries(list.map((t) => [t.title, t.subsidies === true])),
        fallback: list.length ? list[0].title : "" };
    }).catch((err) => { titlesInfo = null; throw err; });
  }
  return titlesInfo;
}

/** Write money as ``title`` does (issue 25: ¥ for 1888, $ for 1830), a fact of its data;
 * no title is the default one, an unknown one plain numbers. */
async function useCurrencyOf(title) {
  const info = await titles();
  const name = title || info.fallback;
  setCurrency(info.formats[name]);
  // a title without subsidies: no objective to choose, no treasury, no subsidy words
  setSubsidies(name in info.subsidies ? info.subsidies[name] : true);
  $("objective-switch").hidden = !hasSubsidies();
  $("words").hidden = !hasSubsidies();
}

// ---- messages ---------------------------------------------------------------------

/** The error box: the loaded file's standing notice, then ``extra`` (a failed request). */
function renderErrors(extra) {
  const box = $("error");
  const text = [current.notice, extra].filter(Boolean).join("\n");
  box.textContent = text;
  box.hidden = !text;
}
function showError(message) {
  renderErrors(message);
  status("");
}
const clearError = () => renderErrors("");
const status = (message) => { $("status").textContent = message; };

// ---- clearing ---------------------------------------------------------------------

/** Empties the board panel: no board, legend, breakdown or suggestion of an earlier view. */
function clearBoard() {
  if (boardHandle) boardHandle.dispose();
  boardHandle = null;
  if (afterHandle) afterHandle.dispose();
  afterHandle = null;
  if (ownRoute) ownRoute.dispose();
  ownRoute = null;
  $("own-route").hidden = true;
  for (const id of ["own-trains", "own-result"]) $(id).replaceChildren();
  $("own-status").textContent = "";
  $("own-hexes").value = "";
  closeFullSize();
  $("board-panel").hidden = true;
  $("board-title").textContent = "Board";
  for (const id of ["incomes", "board", "board-legend", "breakdown", "suggestions", "combined", "after-board",
    "after-legend", "turn-plans", "turn-trains"]) {
    $(id).replaceChildren();
  }
  $("combined-box").hidden = true;
  $("turn-box").hidden = true;
  $("turn-rank").onclick = null;
  for (const id of ["suggest-status", "player-did", "breakdown-status", "after-caption", "turn-status"]) {
    $(id).textContent = "";
  }
  $("after-box").hidden = true;
}

/** A new file: nothing of the previous one stays on screen, and its pending answers are dropped. */
function clearScreen() {
  newView();
  setSubsidies(true);
  $("objective-switch").hidden = false;
  $("words").hidden = false;
  current = { log: null, text: null, name: "", notice: "", runs: [] };
  clearError();
  status("");
  $("runs-panel").hidden = true;
  runs.clear();
  $("game-title").textContent = "Operating turns";
  $("game-summary").textContent = "";
  $("runs-end").textContent = "";
  $("runs-end").hidden = true;
  clearBoard();
  writeHash(null); // the address names no log until one is shown
}

// ---- the URL (address.js) ---------------------------------------------------------

/** The view in the address: this log, this run, this objective. */
const writeHash = (action) => setAddress(current.name, action, objective);

// ---- loading ----------------------------------------------------------------------

async function loadText(text, name, action = null) {
  clearScreen();
  const v = view;
  await nextTask();
  if (!live(v)) return;
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    showError(`${name} is not JSON: ${err.message}`);
    return;
  }
  if (data && typeof data === "object" && Array.isArray(data.actions)) {
    current = { log: data, text, name, notice: "", runs: [] };
    writeHash(action);
    // this tab's copy for a reload, kept once the page is idle (a large log takes a while)
    setTimeout(() => { if (current.text === text) remember(name, text); }, 0);
    await replay(action);
  } else if (data && typeof data === "object" && (data.state || data.tiles || data.phase)) {
    await solveState(data.state && !data.tiles ? data.state : data, name);
  } else {
    showError(`${name} is neither an 18xx.games game log (no "actions" list) nor a state file.`);
  }
}

/** Replay the current log for the objective, list its runs, and open ``action`` if given. */
async function replay(action) {
  const v = newView();
  const { name, text } = current;
  current.notice = "";
  clearError();
  clearBoard();
  status(`Replaying ${name} and solving every run for ${OBJECTIVES[objective].label}…`);
  let report;
  try {
    report = await rpc("ReplayGame", { gameLog: text, objective: OBJECTIVES[objective].proto },
      { ...signal(v), timeoutMs: 120000 });
    if (live(v)) await useCurrencyOf(report.title);
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    current = { log: null, text: null, name: "", notice: "", runs: [] };
    writeHash(null);
    $("runs-panel").hidden = true;
    runs.clear();
    showError(`${name}: ${err.message}`);
    return;
  }
  if (!live(v)) return;
  await nextTask();
  if (!live(v)) return;
  const list = report.runs || [];
  current.runs = list;
  const errors = report.errors || [];
  // protobuf JSON leaves out a false ``completed``: absent means the replay stopped
  const stopped = report.completed !== true;
  const stoppedAt = report.stoppedAtAction;
  const listEnd = stoppedAt === undefined ? "" : `The replay stopped: the list ends at action ${stoppedAt}.`;
  if (stopped) {
    const what = stoppedAt === undefined ? "the replay is incomplete" : `the replay stopped at action ${stoppedAt}`;
    current.notice = `${name}: ${what}: ${errors.join("; ") || "no reason given"}` +
      (!list.length ? "\nNo run was reached before it."
        : `\n${list.length} runs were reached before it and are listed below` +
          (stoppedAt === undefined ? "." : `: the list ends at action ${stoppedAt}.`));
    renderErrors("");
  }
  if (!list.length && stopped) {
    $("runs-panel").hidden = true;
    runs.clear();
    status("");
    return;
  }
  $("game-title").textContent =
    `${report.title || "?"} (${report.ruleSet || "?"}): ${list.length} runs${stopped ? " reached" : ""}`;
  $("game-summary").textContent = summary(objective, report, list, stopped, stoppedAt, errors);
  runs.setRuns(list, objective);
  $("runs-end").textContent = listEnd;
  $("runs-end").hidden = !listEnd;
  $("runs-panel").hidden = false;
  status(`${list.length} runs${stopped ? " before the replay stopped" : ""}. ` +
    "Click one, or focus the list and use ↑/↓ and Enter, to see its board.");
  if (action !== null && action !== undefined) await afterPaint(); // the list on screen first
  if (!live(v)) return;
  if (action !== null && action !== undefined && !runs.open(action, false)) {
    showError(`action ${action} is not a run of ${name}.`);
  }
}

// ---- one run ----------------------------------------------------------------------

async function showRun(run) {
  const v = newView();
  clearError();
  clearBoard();
  writeHash(run.actionId);
  $("board-panel").hidden = false;
  $("board-title").textContent = `Action ${run.actionId}` + (run.round ? `, ${run.round}` : "") +
    `: ${run.corporation} runs ${(run.trains || []).join(" + ")}` +
    (run.presidentName ? ` (president ${run.presidentName})` : "");
  const line = document.createElement("p");
  line.id = "income-line";
  line.textContent = incomeLine(objective, run);
  $("incomes").appendChild(line);
  $("board").textContent = "Drawing…";
  $("breakdown-status").textContent = "Explaining every figure…";
  $("suggest-status").textContent = "Ranking every legal tile lay…";
  // the run's board in view: on a phone it is below the list, on a desk below the load panel
  const top = $("board-panel").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.4) $("board-panel").scrollIntoView({ block: "start" });
  const source = { gameLog: current.text, actionId: run.actionId };
  const board = drawBoard(v, run, source);
  board.then(async (handle) => {
    if (!live(v) || !handle) return;
    await handle.ready; // the builder after the board's first paint
    if (!live(v)) return;
    $("own-route").hidden = false;
    ownRoute = new OwnRoute({ run, source, objective, signal: v.controller.signal, board: handle,
      boardBox: $("board") });
  });
  // each call sends the whole log: one per task, so that none holds the page for long
  setTimeout(() => { if (live(v)) explain(v, run, source, board); }, 0);
  setTimeout(() => { if (live(v)) suggest(v, run); }, 0);
  $("turn-box").hidden = false;
  $("turn-rank").onclick = () => rankTurn(v, run);
}

async function drawBoard(v, run, source) {
  try {
    const picture = await rpc("RenderBoard", { ...source, routesMode: "ROUTES_MODE_BOTH" }, signal(v));
    if (!live(v)) return null;
    // the tiles the company laid this turn, before this run (read from the log itself)
    const start = run.turnStartActionId || run.actionId;
    const laid = current.log ? turnLays(current.log, start, run.actionId) : [];
    boardHandle = mountBoard($("board"), $("board-legend"), picture.svg, { laid, laidWords: "laid this turn" });
    return boardHandle;
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return null;
    $("board").replaceChildren();
    $("board-legend").replaceChildren();
    showError(`board of action ${run.actionId}: ${err.message}`);
    return null;
  }
}

async function explain(v, run, source, board) {
  let check;
  try {
    // no routes: the service judges the run's own (under the log's train names) beside the optimum
    check = await rpc("ValidateRoutes", { ...source, compare: true,
      objective: OBJECTIVES[objective].proto }, signal(v));
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    $("breakdown-status").textContent = `The breakdown could not be computed: ${err.message}`;
    return;
  }
  const handle = await board;
  if (!live(v)) return;
  $("breakdown-status").textContent = "";
  renderBreakdown($("breakdown"), check, handle ? handle.names : NO_NAMES);
}

async function suggest(v, run) {
  const start = run.turnStartActionId || run.actionId;
  const did = current.log ? turnMoves(current.log, start, run.actionId, run.corporation) : [];
  const word = figureWord(objective);
  renderPlayer($("player-did"), null, did, word, null);
  let report;
  try {
    report = await rpc("SuggestMoves", { gameLog: current.text, actionId: start, top: 8, timeLimitS: 10,
      objective: OBJECTIVES[objective].proto, includeTokens: true, improvingOnly: true, mergeEqual: true,
      includeCombined: true }, signal(v));
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    $("suggest-status").textContent = `No suggestions: ${err.message}`;
    return;
  }
  if (!live(v)) return;
  const draw = (moves, button, caption) => drawAfter(v, start, moves, button, caption);
  renderPlayer($("player-did"), report, did, word, draw);
  renderSuggestions($("suggestions"), $("suggest-status"), report, word, draw, did);
  $("combined-box").hidden = !renderCombined($("combined"), report, word, draw);
}

/** The whole turn ranked (issue 24: SuggestTurn), on demand: it solves many boards. */
async function rankTurn(v, run) {
  if (!live(v)) return;
  const start = run.turnStartActionId || run.actionId;
  $("turn-plans").replaceChildren();
  $("turn-trains").replaceChildren();
  $("turn-status").textContent = "Ranking every plan of the turn…";
  let report;
  try {
    report = await rpc("SuggestTurn", { gameLog: current.text, actionId: start, top: 5, timeLimitS: 20,
      objective: OBJECTIVES[objective].proto }, signal(v));
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    $("turn-status").textContent = `The turn could not be ranked: ${err.message}`;
    return;
  }
  if (!live(v)) return;
  renderTurn($("turn-plans"), $("turn-trains"), $("turn-status"), report, figureWord(objective),
    (ranked, button, caption) => drawPlan(v, ranked, button, caption));
}

/** The board a whole-turn plan leaves, with its optimal routes. */
const drawPlan = (v, ranked, button, caption) =>
  drawPicture(v, { state: ranked.stateAfter, routesMode: "ROUTES_MODE_OPTIMAL" }, button, caption,
    ((ranked.plan || {}).lays || []).map((lay) => lay.hex), "laid by this plan");

/** The board after ``moves`` (a suggestion, a lay and its token, or what the player did). */
const drawAfter = (v, start, moves, button, caption) =>
  drawPicture(v, { gameLog: current.text, actionId: start, moves }, button, caption,
    moves.flatMap((m) => ((m.lays || []).length ? m.lays.map((lay) => lay.hex)
      : m.kind === "MOVE_KIND_TILE" ? [m.hex] : [])), "laid by this move");

/** The board RenderBoard draws for ``request`` (a board after a move or a plan), below the run's. */
async function drawPicture(v, request, button, caption, laid, laidWords) {
  if (!live(v)) return;
  for (const b of $("board-panel").querySelectorAll("button.draw-move")) b.removeAttribute("aria-pressed");
  if (button) button.setAttribute("aria-pressed", "true");
  $("after-box").hidden = false;
  // the picture's routes are the best income's (dividend + treasury), whatever the switch says
  $("after-caption").textContent = `The board after ${caption}, with its optimal routes` +
    (objective === "revenue" && hasSubsidies() ? " (drawn for dividend + treasury):" : ":");
  if (afterHandle) afterHandle.dispose();
  afterHandle = null;
  $("after-board").textContent = "Drawing…";
  $("after-legend").replaceChildren();
  try {
    const after = await rpc("RenderBoard", request, signal(v));
    if (!live(v)) return;
    afterHandle = mountBoard($("after-board"), $("after-legend"), after.svg,
      { laid, laidWords, label: `the board after ${caption}` });
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    $("after-board").textContent = `The board after this could not be drawn: ${err.message}`;
  }
}

// ---- a state file -----------------------------------------------------------------

async function solveState(state, name) {
  const v = newView();
  status(`Solving ${name}…`);
  try {
    const answer = await rpc("SolveRoutes", { state, objective: OBJECTIVES[objective].proto }, signal(v));
    const picture = await rpc("RenderBoard", { state, routesMode: "ROUTES_MODE_OPTIMAL" }, signal(v));
    if (!live(v)) return;
    await useCurrencyOf(state.title);
    if (!live(v)) return;
    $("board-panel").hidden = false;
    $("board-title").textContent = `${state.corporation || "?"}: ${(state.trains || []).join(" + ")}, phase ${state.phase || "?"}`;
    $("incomes").textContent = `optimal ${describe(objective, answer.revenue, answer.subsidy)}` +
      (answer.provenOptimal ? " (proven)" : " (not proven)");
    boardHandle = mountBoard($("board"), $("board-legend"), picture.svg);
    status(`${name} solved.`);
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    clearBoard();
    showError(`${name}: ${err.message}`);
  }
}

// ---- a log from a URL or an 18xx.games game id (through the server) ---------------

async function loadRemote(ref, action = null) {
  clearScreen();
  const v = view;
  status(`Fetching ${ref} through the service…`);
  let answer;
  // a number is an 18xx.games game id; anything else a URL of a game on the server's site
  const request = /^\d+$/.test(ref) ? { gameId: ref } : { url: ref };
  try {
    answer = await rpc("FetchGameLog", request, { ...signal(v), timeoutMs: 30000 });
  } catch (err) {
    if (err instanceof Aborted || !live(v)) return;
    showError(`${ref}: ${err.message}`);
    return;
  }
  if (!live(v)) return;
  // the link names the game by its id, so that anyone opening it fetches the same log
  await loadText(answer.gameLog || "", answer.gameId ? String(answer.gameId) : ref, action);
}

// ---- full size --------------------------------------------------------------------

function openFullSize() {
  $("board-area").classList.add("full");
  $("full-size").textContent = "Close full size";
  $("full-size").setAttribute("aria-pressed", "true");
  if (boardHandle) boardHandle.home(); // the whole window, labels still readable
}
function closeFullSize() {
  if (!$("board-area").classList.contains("full")) return;
  $("board-area").classList.remove("full");
  $("full-size").textContent = "Open full size";
  $("full-size").removeAttribute("aria-pressed");
  if (boardHandle) boardHandle.home();
}

// ---- wiring -----------------------------------------------------------------------

function readFile(file) {
  // the file a link asked for: its run opens (under the link's name, so the address stays)
  const linked = awaited && awaited.log === file.name ? awaited : null;
  awaited = null;
  clearScreen();
  const reader = new FileReader();
  const v = view;
  reader.onload = () => { if (live(v)) loadText(String(reader.result), file.name, linked ? linked.action : null); };
  reader.onerror = () => { if (live(v)) showError(`${file.name} could not be read.`); };
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
$("url-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const ref = $("log-url").value.trim();
  if (ref) loadRemote(ref);
});
for (const radio of document.querySelectorAll('input[name="objective"]')) {
  radio.addEventListener("change", () => {
    if (!radio.checked || radio.value === objective) return;
    objective = radio.value;
    const selected = runs.selected;
    if (current.text) {
      writeHash(selected);
      replay(selected);
    } else {
      writeHash(null);
    }
  });
}
$("zoom-in").addEventListener("click", () => boardHandle && boardHandle.zoomBy(1.4));
$("zoom-out").addEventListener("click", () => boardHandle && boardHandle.zoomBy(1 / 1.4));
$("zoom-fit").addEventListener("click", () => boardHandle && boardHandle.fit());
$("zoom-routes").addEventListener("click", () => boardHandle && boardHandle.home());
$("after-zoom-in").addEventListener("click", () => afterHandle && afterHandle.zoomBy(1.4));
$("after-zoom-out").addEventListener("click", () => afterHandle && afterHandle.zoomBy(1 / 1.4));
$("after-zoom-fit").addEventListener("click", () => afterHandle && afterHandle.fit());
$("after-zoom-routes").addEventListener("click", () => afterHandle && afterHandle.home());
$("full-size").addEventListener("click", () => {
  if ($("board-area").classList.contains("full")) closeFullSize();
  else openFullSize();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeFullSize();
});
window.addEventListener("error", (event) => showError(`Something went wrong: ${event.message}`));
window.addEventListener("unhandledrejection", (event) => {
  if (!(event.reason instanceof Aborted)) showError(`Something went wrong: ${event.reason}`);
});

/** A shared or reloaded URL: the objective, the log (this tab's copy, or fetched), the run. */
function restore() {
  const wanted = readAddress();
  objective = wanted.objective;
  for (const radio of document.querySelectorAll('input[name="objective"]')) {
    radio.checked = radio.value === objective;
  }
  if (!wanted.log) return;
  const text = recall(wanted.log);
  if (text !== null) loadText(text, wanted.log, wanted.action);
  else if (/^\d+$/.test(wanted.log) || /^https?:\/\//.test(wanted.log)) loadRemote(wanted.log, wanted.action);
  else {
    awaited = wanted;
    status(`The link names the log ${wanted.log}` + (wanted.action === null ? "" : `, run ${wanted.action}`) +
      ": load that file to see it.");
  }
}

restore();
