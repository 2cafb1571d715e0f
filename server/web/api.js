// The service's HTTP API (Connect protocol: a POST of protobuf JSON per call).
// Every call of a view carries that view's AbortSignal: when the player moves on,
// the view's calls are aborted (the server drops them when their connection closes)
// and their late answers never reach the screen. A busy answer (resource_exhausted:
// a lane is full) is tried again, with backoff, for as long as its view is on screen.

const SERVICE = "/route18xx.v1.RouteService/";
/** Waits before trying a busy call again (ms); the last one repeats until the view is left. */
const BACKOFF = [250, 500, 1000, 2000, 4000];

/** A call that was aborted because its view was left (not an error to show). */
export class Aborted extends Error {}

/** The wait before try ``attempt`` (0-based), with a little jitter so that tabs spread out. */
const backoff = (attempt) => BACKOFF[Math.min(attempt, BACKOFF.length - 1)] * (0.8 + 0.4 * Math.random());

/** Resolves after ``ms``, or throws ``Aborted`` as soon as ``signal`` aborts. */
function pause(ms, signal, method) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) { reject(new Aborted(method)); return; }
    const timer = setTimeout(resolve, ms);
    if (signal) signal.addEventListener("abort", () => { clearTimeout(timer); reject(new Aborted(method)); },
      { once: true });
  });
}

/** Call a RouteService method; a failed call throws an Error with "code: message". A busy
 * service is asked again while ``signal`` holds (``onBusy(attempt)`` is told of each wait). */
export async function rpc(method, body, { signal, timeoutMs = 60000, onBusy } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(method, body, signal, timeoutMs);
    } catch (err) {
      if (!err.busy || !signal) throw err;
      if (onBusy) onBusy(attempt);
      await pause(backoff(attempt), signal, method);
    }
  }
}

async function once(method, body, signal, timeoutMs) {
  let response;
  let text;
  try {
    response = await fetch(SERVICE + method, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Connect-Protocol-Version": "1",
        "Connect-Timeout-Ms": String(timeoutMs),
      },
      body: JSON.stringify(body),
      signal,
    });
    text = await response.text();
  } catch (err) {
    if (signal && signal.aborted) throw new Aborted(method);
    throw new Error("the service cannot be reached (" + err.message + ")");
  }
  if (signal && signal.aborted) throw new Aborted(method);
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error("the service answered " + response.status + " without JSON");
  }
  if (!response.ok) {
    const error = new Error((data.code || response.status) + ": " + (data.message || "request failed"));
    error.code = data.code;
    // the service is busy (a lane is full) when it says when to try again: RetryInfo
    error.busy = data.code === "resource_exhausted" &&
      (data.details || []).some((d) => /RetryInfo$/.test(String(d.type || "")));
    throw error;
  }
  return data;
}
