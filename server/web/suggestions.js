// Suggestions a player acts on (issue 22, item 7): the moves that improve the turn's best
// figure (tile lays and tokens, in words: the exits a tile connects), equal results merged,
// the best lays each followed by a token, and what the player actually did; "no lay
// improves this run" instead of +¥0 lines. Each one is a button that draws the board
// after it (RenderBoard with the move itself, so any listed move can be drawn).

import { signedMoney, money } from "./words.js";

const MOVE_FIELDS = ["kind", "hex", "tile", "rotation", "city", "private", "lays", "cost"];

/** The Move a suggestion stands for, as RenderBoard's `moves` takes it. */
export function moveOf(suggestion) {
  const move = {};
  for (const key of MOVE_FIELDS) if (suggestion[key] !== undefined) move[key] = suggestion[key];
  return move;
}

/** Two moves are the same when they lay the same tiles the same way or token the same city. */
const sameMove = (a, b) => ["kind", "hex", "tile", "rotation", "city"].every((k) => (a[k] ?? null) === (b[k] ?? null));

/** Moves with the same hex, tile and figures are one suggestion (equal rotations merged),
 * unless the service merged them already (its `alternatives`). */
export function mergeMoves(moves) {
  const merged = [];
  for (const move of moves) {
    const token = move.thenToken || {};
    const key = [move.kind, move.hex, move.tile || "", move.city ?? "", token.hex || "", token.city ?? "",
      move.income || 0, move.gain || 0, move.cost || 0].join("|");
    const same = merged.find((m) => m.key === key);
    if (same) same.others.push(move);
    else merged.push({ key, move, others: [...(move.alternatives || [])] });
  }
  return merged;
}

/** How a move reads: the service's words ("tile 57 on H12 connects W–E (city)"), else ours. */
function words(move) {
  if (move.text) return move.text;
  if (move.kind === "MOVE_KIND_TOKEN") return `token on ${move.hex}` + (move.city ? `, city ${move.city}` : "");
  const exits = ((move.lays || [])[0] || {}).exits;
  return `tile ${move.tile} on ${move.hex} ` +
    (exits && exits.length ? `connects ${exits.join(", ")}` : `(rotation ${move.rotation || 0})`);
}

export function describeMove(entry, withCost = true) {
  const others = entry.others.map(words);
  const cost = withCost && entry.move.cost ? `, costs ${money(entry.move.cost)}` : "";
  return words(entry.move) + (others.length ? ` (or, the same: ${others.join("; ")})` : "") + cost;
}

function moveButton(text, onDraw, moves, caption) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "draw-move";
  button.textContent = text;
  button.addEventListener("click", () => onDraw(moves, button, caption || text));
  return button;
}

/**
 * Fill the list of improving moves and the status line; returns how many improve the run.
 * ``onDraw(moves, button, caption)`` draws the board after ``moves``.
 */
export function renderSuggestions(list, statusBox, report, figureWord, onDraw, fromLog) {
  list.replaceChildren();
  const recorded = ((report.recorded || {}).moves || []);
  const better = mergeMoves(report.suggestions || []).filter((e) => (e.move.gain || 0) > 0);
  const base = `Without a move the best ${figureWord} is ${money(report.baseIncome)}`;
  if (!better.length) {
    const verdict = report.verdict ? report.verdict[0].toUpperCase() + report.verdict.slice(1)
      : "No lay improves this run";
    statusBox.textContent = `${verdict}. ${base} (${report.candidates || 0} legal moves ranked).`;
  } else {
    statusBox.textContent = `${base}; ${report.candidates || 0} legal moves ranked. Press one to draw the board after it.`;
  }
  for (const entry of better) {
    const item = document.createElement("li");
    const move = entry.move;
    const text = `${describeMove(entry)}: ${figureWord} ${money(move.income)} (${signedMoney(move.gain)})`;
    item.appendChild(moveButton(text, onDraw, [moveOf(move)]));
    const did = recorded.length ? recorded.some((r) => sameMove(r, move) || entry.others.some((o) => sameMove(r, o)))
      : fromLog.some((t) => t.includes(`tile ${move.tile} on ${move.hex}`));
    if (did) {
      const mark = document.createElement("span");
      mark.className = "did";
      mark.textContent = " — what the player did";
      item.appendChild(mark);
    }
    list.appendChild(item);
  }
  return better.length;
}

/** The best lays each followed by a token (`combined`), each drawable; returns how many. */
export function renderCombined(list, report, figureWord, onDraw) {
  list.replaceChildren();
  for (const entry of mergeMoves(report.combined || [])) {
    const move = entry.move;
    if ((move.gain || 0) <= 0 || !move.thenToken) continue;
    const item = document.createElement("li");
    const text = `${describeMove(entry, false)}, then ${words(move.thenToken)}: ${figureWord} ${money(move.income)} ` +
      `(${signedMoney(move.gain)})` + (move.cost ? `; the two cost ${money(move.cost)}` : "");
    item.appendChild(moveButton(text, onDraw, [moveOf(move), moveOf(move.thenToken)]));
    list.appendChild(item);
  }
  return list.children.length;
}

/** What the player did at the turn, in the service's words (`recorded`), else as read from the
 * log; with what it allowed, and a button drawing the board after it. */
export function renderPlayer(box, report, fromLog, figureWord, onDraw) {
  box.replaceChildren();
  const recorded = report && report.recorded;
  const moves = recorded && recorded.moves && recorded.moves.length ? recorded.moves : null;
  const said = moves ? moves.map(words) : fromLog;
  if (!said.length) {
    box.textContent = "The player laid no tile and placed no token this turn.";
    return;
  }
  box.append(`What the player did this turn: ${said.join("; ")}.`);
  if (recorded && recorded.income !== undefined) {
    box.append(` It allows ${figureWord} ${money(recorded.income)} (${signedMoney(recorded.gain || 0)} over no move). `);
  }
  if (moves && onDraw) {
    box.appendChild(moveButton("Draw the board after it", onDraw, moves.map(moveOf), `what the player did: ${said.join("; ")}`));
  }
}
