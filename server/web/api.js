// The service's HTTP API (Connect protocol: a POST of protobuf JSON per call).
// Every call of a view carries that view's AbortSignal: when the player moves on,
// the view's calls are aborted and their late answers never reach the screen.

const SERVICE = "/route18xx.v1.RouteService/";

/** A call that was aborted because its view was left (not an error to show). */
export class Aborted extends Error {}

/** Call a RouteService method; a failed call throws an Error with "code: message". */
export async function rpc(method, body, { signal, timeoutMs = 60000 } = {}) {
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
    throw error;
  }
  return data;
}
