// The page's one state object and a tiny subscribe/render loop: modules change the state through
// update(), and every view that subscribed renders from the state it is handed. Nothing else holds
// what the page shows (the dates, the devices shown, the units, the sections).

const UNITS_KEY = 'travelog.units';

/** What the page shows. `range` is {from, to} (local days, YYYY-MM-DD); `hiddenDevices` the devices
 * the person chose not to see. */
export const state = {
  session: null,
  range: null,
  units: localStorage.getItem(UNITS_KEY) === 'imperial' ? 'imperial' : 'metric',
  /** Device names of the user (from the path, the tiles' bounds and /api/v1/devices). */
  devices: [],
  hiddenDevices: new Set(JSON.parse(localStorage.getItem('travelog.hiddenDevices') || '[]')),
  followLive: localStorage.getItem('travelog.followLive') === 'on',
  distanceMeters: null,
  locationCount: null,
};

const listeners = new Set();

/** Calls `listener(state, changed)` after every update; `changed` holds the keys that changed. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies `patch` to the state, then lets every subscriber render. */
export function update(patch, detail = {}) {
  Object.assign(state, patch);
  if ('units' in patch) localStorage.setItem(UNITS_KEY, state.units);
  if ('hiddenDevices' in patch) localStorage.setItem('travelog.hiddenDevices', JSON.stringify([...state.hiddenDevices]));
  if ('followLive' in patch) localStorage.setItem('travelog.followLive', state.followLive ? 'on' : 'off');
  const changed = { ...patch, ...detail };
  for (const listener of [...listeners]) listener(state, changed);
}
