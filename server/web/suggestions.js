// Suggestions a player acts on (issue 22, item 7): the tile lays that improve the turn's
// best income, equal results merged (the same tile on the same hex in several rotations),
// each one a button that draws the board after it; "no lay improves this run" instead of
// a list of +¥0 lines; what the player actually did in that turn shown beside.

import { signedYen, yen } from "./words.js";

/** Moves with the same hex, tile and income are one suggestion (equal rotations merged). */
export function mergeMoves(moves) {
  const merged = [];
  moves.forEach((move, i) => {
    const key = [move.kind, move.hex, move.tile || "", move.city ?? "", move.income || 0,
      move.gain || 0, move.cost || 0].join("|");
    const same = merged.find((m) => m.key === key);
    const rank = i + 1; // RenderBoard's `suggestion` is this 1-based rank
    if (same) same.variants.push({ move, rank });
    else merged.push({ key, move, rank, variants: [{ move, rank }] });
  });
  return merged;
}

/** How a rotation reads: the exits it connects (when the service says), else its number. */
function rotationWords(move) {
  const exits = move.exits || ((move.lays || [])[0] || {}).exits;
  if (exits && exits.length) return `connects ${exits.join(", ")}`;
  return `rotation ${move.rotation || 0}`;
}

export function describeMove(entry) {
  const move = entry.move;
  // the service's own words ("tile 57 on H12 connects W–E (city)"), each equal way listed
  if (move.text) {
    const others = entry.variants.slice(1).map((v) => v.move.text).filter(Boolean)
      .concat((move.alternatives || []).map((a) => a.text).filter(Boolean));
    return move.text + (others.length ? ` (or the same: ${others.join("; ")})` : "");
  }
  if (move.kind === "MOVE_KIND_TOKEN") {
    return `token in ${move.hex}` + (move.city ? ` city ${move.city}` : "") +
      (move.cost ? ` (costs ${yen(move.cost)})` : "");
  }
  const lays = (move.lays || []).length > 1
    ? move.lays.map((l) => `tile ${l.tile} on ${l.hex}`).join(" and ")
    : `tile ${move.tile} on ${move.hex}`;
  const ways = entry.variants.map((v) => rotationWords(v.move));
  const how = ways.length > 1 ? ` (${ways.length} equal ways: ${ways.join("; ")})` : ` (${ways[0]})`;
  return lays + how + (move.private ? ` with ${move.private}` : "") +
    (move.cost ? `, costs ${yen(move.cost)}` : "");
}

/**
 * Fill the list; returns the entries that improve the run. ``onDraw(entry)`` is called when
 * a suggestion's button is pressed (null when the picture cannot show that ranking).
 */
export function renderSuggestions(list, statusBox, report, figureWord, onDraw, playerDid) {
  list.replaceChildren();
  const moves = report.suggestions || [];
  const better = mergeMoves(moves).filter((e) => (e.move.gain || 0) > 0);
  const base = `Without a lay the best ${figureWord} is ${yen(report.baseIncome)}`;
  if (!better.length) {
    const verdict = report.verdict ? report.verdict[0].toUpperCase() + report.verdict.slice(1)
      : "No lay improves this run";
    statusBox.textContent = moves.length || report.candidates
      ? `${verdict}. ${base} (${report.candidates || 0} legal moves ranked).`
      : `No legal tile lay at the start of this turn. ${base}.`;
  } else {
    statusBox.textContent = `${base}; ${report.candidates || 0} legal moves ranked.`;
  }
  for (const entry of better) {
    const item = document.createElement("li");
    const move = entry.move;
    const words = `${describeMove(entry)}: ${figureWord} ${yen(move.income)} (${signedYen(move.gain)})`;
    const did = playerDid.some((text) => text.includes(`tile ${move.tile} on ${move.hex}`)
      || (move.text && text.startsWith(move.text)));
    if (onDraw) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "draw-move";
      button.textContent = words;
      button.dataset.rank = entry.rank;
      button.addEventListener("click", () => onDraw(entry, button));
      item.appendChild(button);
    } else {
      item.textContent = words;
    }
    if (did) {
      const mark = document.createElement("span");
      mark.className = "did";
      mark.textContent = " — what the player did";
      item.appendChild(mark);
    }
    list.appendChild(item);
  }
  return better;
}

/** The best lays each followed by a token (the service's `combined`, when it sends them). */
export function renderCombined(list, report, figureWord) {
  list.replaceChildren();
  for (const move of report.combined || []) {
    if ((move.gain || 0) <= 0) continue;
    const item = document.createElement("li");
    const token = move.thenToken ? ` then ${move.thenToken.text || `a token on ${move.thenToken.hex}`}` : "";
    item.textContent = `${move.text || `tile ${move.tile} on ${move.hex}`}${token}: ` +
      `${figureWord} ${yen(move.income)} (${signedYen(move.gain)})` + (move.cost ? `, costs ${yen(move.cost)}` : "");
    list.appendChild(item);
  }
  return list.children.length;
}

/** What the player did at the turn, in the service's words when it sends them (`recorded`),
 * else as read from the log; with what it allowed. */
export function playerWords(report, fromLog, figureWord) {
  const recorded = report && report.recorded;
  const moves = recorded && recorded.moves && recorded.moves.length
    ? recorded.moves.map((m) => m.text || `${m.tile ? `tile ${m.tile}` : "token"} on ${m.hex}`) : fromLog;
  if (!moves.length) return "The player laid no tile and placed no token this turn.";
  const allows = recorded && recorded.income !== undefined
    ? ` It allows ${figureWord} ${yen(recorded.income)} (${signedYen(recorded.gain || 0)} over no move).` : "";
  return `What the player did this turn: ${moves.join("; ")}.${allows}`;
}
