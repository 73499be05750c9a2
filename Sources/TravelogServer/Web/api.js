// The server's JSON API as the page calls it.
import { state } from './state.js';

/** The zone days are counted in: the one chosen in Settings (settings.js, kept in this browser), else the browser's. */
export const timeZone = (() => {
  const chosen = localStorage.getItem('travelog.timeZone');
  try {
    if (chosen) return new Intl.DateTimeFormat(undefined, { timeZone: chosen }).resolvedOptions().timeZone;
  } catch (_) { /* a zone this browser does not know: the browser's own */ }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
})();

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let unauthorized = () => {};
/** What a 401 does (app.js shows the login form). */
export function onUnauthorized(handler) { unauthorized = handler; }

/** A JSON request; a 401 shows the login form, other failures throw the server's message. */
export async function api(path, options = {}) {
  // X-Requested-With: the server then answers 401 without a Basic challenge (no browser dialog).
  const headers = { Accept: 'application/json', 'X-Requested-With': 'fetch', ...(options.headers || {}) };
  let response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...options, headers });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server cannot be reached.');
  }
  if (response.status === 401 && !options.allowUnauthorized) {
    unauthorized('Please log in again.');
    throw new ApiError(401, 'Not logged in.');
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = await response.json();
      if (body && body.error) message = body.error;
    } catch (_) { /* not JSON */ }
    throw new ApiError(response.status, message);
  }
  if (response.status === 204) return null;
  return response.json();
}

export function jsonRequest(method, body) {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** The chosen dates (and the devices shown, as repeated `device=`, when some are hidden) as a query. */
export function rangeQuery(extra = {}, { devices = true } = {}) {
  const parameters = new URLSearchParams({ from: state.range.from, to: state.range.to, timezone: timeZone });
  for (const [key, value] of Object.entries(extra)) parameters.set(key, String(value));
  if (devices && state.hiddenDevices.size > 0) {
    for (const device of state.devices) if (!state.hiddenDevices.has(device)) parameters.append('device', device);
  }
  return parameters.toString();
}
