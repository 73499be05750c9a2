// The list of locations of the chosen dates, newest first: the newest LIST_LIMIT are fetched and
// shown LIST_PAGE_SIZE to a page (Older / Newer); live locations are inserted in their place. Times
// are the place's, as the journal's timeline writes them (the server names each fix's zone); a live
// location takes the zone of its device's newest listed fix.
import { api, rangeQuery } from './api.js';
import { $, showStatus } from './dom.js';
import { formatTime } from './format.js';
import { showOnMap } from './map.js';
import { state } from './state.js';

/** Locations listed (newest first). */
const LIST_LIMIT = 200;
/** Locations shown on one page of the list. */
const LIST_PAGE_SIZE = 50;

const list = {
  abort: null,
  /** Live locations that arrived while the list was being requested. */
  backlog: null,
  /** Newest first: {time, key, element, device, zone}. */
  entries: [],
  keys: new Set(),
  /** The page shown, 0 for the newest. */
  page: 0,
};

export function clearList() {
  $('locations').replaceChildren();
  list.entries = [];
  list.keys.clear();
  list.page = 0;
  $('list-note').textContent = '';
  showListPage();
}

/** Shows one page of LIST_PAGE_SIZE rows (the others stay in the list, hidden). */
function showListPage() {
  const count = list.entries.length;
  const pages = Math.max(1, Math.ceil(count / LIST_PAGE_SIZE));
  list.page = Math.min(Math.max(0, list.page), pages - 1);
  list.entries.forEach((entry, index) => {
    entry.element.hidden = Math.floor(index / LIST_PAGE_SIZE) !== list.page;
  });
  const first = list.page * LIST_PAGE_SIZE;
  $('locations-page').textContent = count === 0 ? ''
    : `${first + 1}–${Math.min(count, first + LIST_PAGE_SIZE)} of ${count}`;
  $('locations-previous').disabled = list.page === 0;
  $('locations-next').disabled = list.page >= pages - 1;
  $('locations-page').closest('.pager').hidden = count <= LIST_PAGE_SIZE;
}

function listItem(time, device, source, latitude, longitude, accuracy, fresh, zone) {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  const when = document.createElement('span');
  when.className = 'when';
  when.textContent = formatTime(time, state.range.from !== state.range.to, zone);
  if (zone) when.title = zone.replace(/_/g, ' ');
  const what = document.createElement('span');
  what.className = 'what';
  const parts = [device, source === 'manual' ? 'logged by hand' : source,
    `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`];
  if (typeof accuracy === 'number' && accuracy >= 0) parts.push(`±${Math.round(accuracy)} m`);
  what.textContent = parts.join(' · ');
  button.append(when, what);
  button.setAttribute('aria-label', `${when.textContent}, ${what.textContent}: show on the map`);
  button.addEventListener('click', () => showOnMap(latitude, longitude));
  item.append(button);
  if (fresh) item.classList.add('is-new');
  return item;
}

/** Adds a location in its place (newest first), once, keeping at most LIST_LIMIT. */
export function addToList(entry, fresh) {
  if (list.backlog) { list.backlog.push(entry); return; }
  if (state.hiddenDevices.has(entry.device)) return;
  const key = `${entry.device}|${entry.time}`;
  if (list.keys.has(key)) return;
  let index = list.entries.findIndex((other) => other.time < entry.time);
  if (index < 0) index = list.entries.length;
  if (index >= LIST_LIMIT) return;
  const zone = entry.zone || (list.entries.find((other) => other.device === entry.device && other.zone) || {}).zone;
  const element = listItem(entry.time, entry.device, entry.source, entry.latitude, entry.longitude, entry.accuracy, fresh, zone);
  const before = list.entries[index];
  $('locations').insertBefore(element, before ? before.element : null);
  list.entries.splice(index, 0, { time: entry.time, key, element, device: entry.device, zone });
  list.keys.add(key);
  while (list.entries.length > LIST_LIMIT) {
    const dropped = list.entries.pop();
    dropped.element.remove();
    list.keys.delete(dropped.key);
  }
  showListNote();
}

export function showListNote() {
  showListPage();
  const shown = list.entries.length;
  $('list-note').textContent = shown === 0 ? 'No locations on these dates.'
    : (state.locationCount !== null && state.locationCount > shown ? `The newest ${shown} of ${state.locationCount}.` : '');
}

export async function loadList() {
  if (list.abort) list.abort.abort();
  const abort = new AbortController();
  list.abort = abort;
  list.backlog = [];
  try {
    const collection = await api(`/api/v1/locations?${rangeQuery({ order: 'newest', limit: LIST_LIMIT, placeTime: true })}`,
      { signal: abort.signal });
    if (abort.signal.aborted) return;
    const backlog = list.backlog;
    list.backlog = null;
    clearList();
    const fragment = document.createDocumentFragment();
    for (const feature of collection.features) {
      const [longitude, latitude] = feature.geometry.coordinates;
      const properties = feature.properties;
      const time = Date.parse(properties.timestamp);
      const key = `${properties.device}|${time}`;
      if (list.keys.has(key)) continue;
      const zone = properties.timeZone || undefined;
      const element = listItem(time, properties.device, properties.source, latitude, longitude,
        properties.accuracy, false, zone);
      fragment.append(element);
      list.entries.push({ time, key, element, device: properties.device, zone });
      list.keys.add(key);
    }
    $('locations').append(fragment);
    list.abort = null;
    for (const entry of backlog) addToList(entry, true);
    showListNote();
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (list.abort === abort) {
      list.abort = null;
      list.backlog = null;
    }
    if (error.status !== 401) showStatus(`The locations could not be loaded: ${error.message}`, true);
  }
}

export function bindList() {
  $('locations-previous').addEventListener('click', () => { list.page -= 1; showListPage(); });
  $('locations-next').addEventListener('click', () => { list.page += 1; showListPage(); });
}
