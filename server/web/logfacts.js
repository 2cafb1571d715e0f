// Facts the page reads from the loaded 18xx.games log itself, without a call: what the
// player did in the turn before the run (lays and tokens), shown beside the suggestions
// when the service does not say it itself.

/** The kept actions of a log: undone ones (and their undo/redo) left out, as the replay does. */
export function keptActions(log) {
  const kept = [];
  const undone = [];
  for (const action of log.actions || []) {
    if (action.type === "undo") {
      const target = action.action_id;
      while (kept.length && (target === undefined || kept[kept.length - 1].id > target)) {
        undone.push(kept.pop());
        if (target === undefined) break;
      }
    } else if (action.type === "redo") {
      if (undone.length) kept.push(undone.pop());
    } else {
      undone.length = 0;
      kept.push(action);
    }
  }
  return kept;
}

/** A laid tile's name without the copy number the log gives it ("57-1" → "57"). */
const tileName = (tile) => String(tile || "").replace(/-\d+$/, "");

/** What the company did from the turn's first action up to the run: its tile lays and tokens. */
export function turnMoves(log, fromId, toId, corporation) {
  const moves = [];
  const tileHex = {}; // a laid tile's id ("5-0") → its hex: token actions name the tile, not the hex
  for (const a of keptActions(log)) {
    if (a.type === "lay_tile") tileHex[a.tile] = a.hex;
    if (a.id < fromId || a.id >= toId || a.entity_type === "player") continue;
    if (a.type === "lay_tile") {
      // the tile and hex alone: the service's words for the lay (the exits it connects) follow
      moves.push(`laid tile ${tileName(a.tile)} on ${a.hex}` +
        (a.entity !== corporation ? ` with ${a.entity}` : ""));
    } else if (a.type === "place_token") {
      moves.push(`placed a token in ${tokenPlace(String(a.city || "?"), tileHex)}`);
    }
  }
  return moves;
}

/** The hexes the company laid tiles on from the turn's first action up to the run. */
export function turnLays(log, fromId, toId) {
  return keptActions(log)
    .filter((a) => a.type === "lay_tile" && a.id >= fromId && a.id < toId && a.entity_type !== "player")
    .map((a) => a.hex);
}

/** "5-0-0" (tile 5-0, city 0) → "H14"; a printed hex's own id ("F16-0-0") → "F16". The hex
 * alone: the service's words for the token (its stop by name) follow. */
function tokenPlace(city, tileHex) {
  const m = city.match(/^(.+)-(\d+)$/);
  if (!m) return city;
  return tileHex[m[1]] || (/^[A-Z]\d+/.test(m[1]) ? m[1].replace(/-\d+$/, "") : m[1]);
}
