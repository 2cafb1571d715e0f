// One name per object on screen (issue 34, item 5): every stop and train is written as the
// engine names it ("Qingdao", "Beijing (C9 city 1)", "3-train #2"), never by its id ("H14-0",
// "3-3"). The names come with each board the service draws (RenderBoard's SVG carries them in
// ``<metadata id="names">``: engine.api.stop_names and company_trains); the page holds no rule.

/** No names known (no board yet): ids are shown as they are. */
export const NO_NAMES = Object.freeze({ stops: {}, trains: [] });

/** The names a board carries: ``{stops: {node: name}, trains: [[id, name], …]}``. */
export function readNames(svg) {
  const meta = svg && svg.querySelector("metadata#names");
  if (!meta) return NO_NAMES;
  try {
    const data = JSON.parse(meta.textContent);
    return { stops: data.stops || {}, trains: data.trains || [] };
  } catch (err) {
    return NO_NAMES;
  }
}

/** A stop's one name. */
export const stopName = (names, node) => (names.stops || {})[node] || node;

/** A train's one name. */
export function trainName(names, id) {
  const hit = (names.trains || []).find(([tid]) => tid === id);
  return hit ? hit[1] : id;
}
