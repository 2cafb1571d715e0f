// The view in the address (issue 22, item 6): #log=<name>&action=<id>&objective=<total|revenue>,
// so that a reload or a shared link restores it. A file's text is kept in this tab's storage
// under its name (a reload finds it); a game id or URL is fetched again by whoever opens it.

const STORE = "route18xx.log.";

/** The view the address asks for. */
export function readAddress() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ""));
  const action = Number.parseInt(p.get("action") || "", 10);
  return { log: p.get("log") || "", action: Number.isFinite(action) ? action : null,
    objective: p.get("objective") === "revenue" ? "revenue" : "total" };
}

/** Put the view in the address (replacing the entry: moving between runs adds no history). */
export function setAddress(log, action, objective) {
  const p = new URLSearchParams();
  if (log) p.set("log", log);
  if (action !== null && action !== undefined) p.set("action", String(action));
  p.set("objective", objective);
  history.replaceState(null, "", "#" + p.toString());
}

export function remember(name, text) {
  try {
    sessionStorage.setItem(STORE + name, text);
  } catch (err) {
    // a log too big for the tab's storage: a reload asks for the file again
  }
}

/** This tab's copy of the log ``name``, or null. */
export function recall(name) {
  try {
    return sessionStorage.getItem(STORE + name);
  } catch (err) {
    return null;
  }
}
