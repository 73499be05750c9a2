// Live locations (GET /api/v1/live, server-sent events): appended to the drawn path and the list,
// the current position moved (and the map panned to it when "Follow live position" is on), the
// journal and the distance asked for again a little later.
import { api, rangeQuery } from './api.js';
import { localDay } from './dates.js';
import { $ } from './dom.js';
import { loadJournal } from './journal.js';
import { addToList } from './locations.js';
import { appendToPath, followLive, fromFeature, knowDevice, showCurrent } from './map.js';
import { state, update } from './state.js';

/** Wait this long after live locations before asking the server for the new distance. */
const DISTANCE_REFRESH_MILLISECONDS = 5000;
/** Milliseconds after live fixes before the journal is asked for again. */
const JOURNAL_REFRESH_MILLISECONDS = 3000;

const live = { events: null, journalTimer: null, distanceTimer: null, onReconnect: () => {}, paused: false, pauseTimer: null };

/** A tab in the background keeps its stream this long before closing it. */
const BACKGROUND_CLOSE_MILLISECONDS = 30000;

/** Opens the stream; `onReconnect` catches up with what arrived while it was down. */
export function connectLive(onReconnect) {
  closeLive();
  if (onReconnect) live.onReconnect = onReconnect;
  const events = new EventSource('/api/v1/live');
  live.events = events;
  let dropped = false;
  events.addEventListener('open', () => {
    $('live-state').textContent = 'Live: new locations appear as they arrive.';
    if (dropped) {
      dropped = false;
      live.onReconnect();
    }
  });
  events.addEventListener('error', () => {
    dropped = true;
    if (events.readyState === EventSource.CLOSED) {
      $('live-state').textContent = 'Live updates stopped.';
      live.events = null;
      // The stream is refused when the session has ended: this shows the login form then.
      api('/api/v1/session').then(() => window.setTimeout(() => { if (state.session && !live.events) connectLive(); }, 5000),
        () => {});
    } else {
      $('live-state').textContent = 'Live updates interrupted; reconnecting…';
    }
  });
  events.addEventListener('locations', (event) => {
    let received;
    try {
      received = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    receive(received);
  });
}

export function closeLive() {
  if (live.events) live.events.close();
  live.events = null;
  live.paused = false;
  window.clearTimeout(live.pauseTimer);
}

// A browser opens at most six HTTP/1.1 connections to one server, and an open stream holds one: a
// page left for another (kept in the back/forward cache) or a tab in the background would hold
// theirs, and the seventh page would wait for a free connection (a minute, at times). The stream is
// closed when the page is left or has been in the background for a while, and opened again, catching
// up with what arrived meanwhile, when the page is shown.
function pauseLive() {
  window.clearTimeout(live.pauseTimer);
  if (!live.events) return;
  live.events.close();
  live.events = null;
  live.paused = true;
}

function resumeLive() {
  window.clearTimeout(live.pauseTimer);
  if (!live.paused || live.events || !state.session) return;
  live.paused = false;
  $('live-state').textContent = 'Live: catching up…';
  connectLive();
  live.onReconnect();
}

window.addEventListener('pagehide', pauseLive);
window.addEventListener('pageshow', (event) => { if (event.persisted) resumeLive(); });
document.addEventListener('visibilitychange', () => {
  if (document.hidden) {
    window.clearTimeout(live.pauseTimer);
    live.pauseTimer = window.setTimeout(pauseLive, BACKGROUND_CLOSE_MILLISECONDS);
  } else {
    resumeLive();
  }
});

/** Whether a time falls on the chosen days (in the browser's time zone). */
function inRange(time) {
  const day = localDay(new Date(time));
  return state.range && day >= state.range.from && day <= state.range.to;
}

function receive(received) {
  let added = false;
  knowDevice(received.device);
  const hidden = state.hiddenDevices.has(received.device);
  for (const feature of received.locations) {
    const location = fromFeature(feature);
    const time = Date.parse(location.timestamp);
    if (Number.isNaN(time)) continue;
    if (hidden) continue;
    showCurrent(received.device, location);
    followLive(location);
    if (!inRange(time)) continue;
    added = true;
    appendToPath(received.device, location);
    addToList({
      time, device: received.device, source: received.source,
      latitude: location.latitude, longitude: location.longitude, accuracy: location.accuracy,
    }, true);
    if (state.locationCount !== null) update({ locationCount: state.locationCount + 1 });
  }
  if (added) {
    TravelogLayers.refresh();  // the history tiles the new fixes landed in (the others answer 304)
    // The server re-detects visits as fixes arrive: ask for the journal again a little later.
    window.clearTimeout(live.journalTimer);
    live.journalTimer = window.setTimeout(loadJournal, JOURNAL_REFRESH_MILLISECONDS);
    window.clearTimeout(live.distanceTimer);
    live.distanceTimer = window.setTimeout(refreshDistance, DISTANCE_REFRESH_MILLISECONDS);
  }
}

/** Asks the server for the range's distance again (its jitter filter decides what new fixes add). */
async function refreshDistance() {
  if (!state.range) return;
  const range = state.range;
  try {
    const statistics = await api(`/api/v1/stats?${rangeQuery({ by: 'year' })}`);
    if (range !== state.range) return;
    update({ distanceMeters: statistics.total.distanceMeters, locationCount: statistics.total.locations });
  } catch (_) { /* the figure shown stays */ }
}

/** The "Follow live position" switch. */
export function bindFollow() {
  const box = $('follow-live');
  box.checked = state.followLive;
  box.addEventListener('change', () => update({ followLive: box.checked }));
}
