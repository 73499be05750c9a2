// The search box over the map (GET /api/v1/search, MapKit's MKLocalSearch): results as the person
// types, asked for near the map's centre within the span it shows, the person's own places first;
// arrows, Enter and Escape work as in a combobox. Choosing a result moves the map there and drops a
// pin whose callout names the place (address, category, opening hours, website, phone) and credits
// OpenStreetMap for its data. A new search, Escape or the × takes the pin away.
//
// `#map[data-search-pin]` is the pin's "latitude,longitude" while one is shown, for tests.
import { api } from './api.js';
import { $, element } from './dom.js';
import { formatDay, formatDistanceAway } from './format.js';
import { drawn } from './map.js';

/** Typing pauses this long before a request goes out. */
const DEBOUNCE_MILLISECONDS = 150;
/** Shorter queries ask nothing (one Latin letter matches half a city; one Chinese or Japanese
 * character can be a whole name, so any character beyond Latin is enough). */
const MINIMUM_QUERY_LENGTH = 2;
const BEYOND_LATIN = /[^\u0000-\u024f]/u;
/** Results asked for. */
const RESULT_LIMIT = 8;
/** The zoom a chosen result is shown at, by its kind: a town whole, a street along a few blocks, a door. */
const ZOOM_BY_KIND = { town: 13, street: 16, address: 18, poi: 18, place: 17, visit: 17 };
const DEFAULT_ZOOM = 16;
/** The pin's pane: above the journal's pins (journal-map.js, 650). */
const PIN_PANE = 'search-pin';
const PIN_PANE_Z_INDEX = 660;
/** What a result's kind is called when it has no category of its own. */
const KIND_LABELS = { poi: 'Place', address: 'Address', street: 'Street', town: 'Town', place: 'Your place', visit: 'Visit' };
const OSM_COPYRIGHT = 'https://www.openstreetmap.org/copyright';

/** `chosen`: a result of the list shown was chosen (focusing the field again does not reopen the list). */
const search = { timer: null, abort: null, results: [], active: -1, pin: null, chosen: false };

/** The query's parameters: the text, and the map's centre and the span it shows (degrees). */
function searchQuery(text) {
  const parameters = new URLSearchParams({ q: text, limit: String(RESULT_LIMIT) });
  const map = drawn.map;
  if (map) {
    const center = map.getCenter().wrap();
    const bounds = map.getBounds();
    const span = Math.min(180, Math.max(bounds.getNorth() - bounds.getSouth(), bounds.getEast() - bounds.getWest()));
    const latitude = center.lat.toFixed(6);
    const longitude = center.lng.toFixed(6);
    parameters.set('near', `${latitude},${longitude}`);
    if (span > 0) parameters.set('region', `${latitude},${longitude},${span.toFixed(6)}`);
  }
  return parameters.toString();
}

function input() { return $('search-input'); }

/** Shows or hides the results' box, as the combobox says. */
function setOpen(open) {
  $('search-panel').hidden = !open;
  // The ARIA 1.1 combobox: the wrapper is expanded and owns the list; the field points at the active row.
  $('search-combobox').setAttribute('aria-expanded', open ? 'true' : 'false');
  if (!open) setActive(-1);
}

function setActive(index) {
  search.active = index;
  const rows = [...$('search-results').children];
  rows.forEach((row, position) => row.setAttribute('aria-selected', position === index ? 'true' : 'false'));
  if (index >= 0 && rows[index]) {
    input().setAttribute('aria-activedescendant', rows[index].id);
    rows[index].scrollIntoView({ block: 'nearest' });
  } else {
    input().removeAttribute('aria-activedescendant');
  }
}

/** "Café", else what the kind is called. */
function categoryLabel(result) {
  return result.categoryName || KIND_LABELS[result.kind] || '';
}

/** "yours · last there 3 May 2025" for the person's own places; '' for others. */
function ownNote(result) {
  if (!result.own) return '';
  const lastVisit = result.lastVisit ? Date.parse(result.lastVisit) : NaN;
  return Number.isNaN(lastVisit) ? 'yours' : `yours · last there ${formatDay(lastVisit)}`;
}

function resultRow(result, index) {
  const row = element('li', 'search-result');
  row.id = `search-result-${index}`;
  row.setAttribute('role', 'option');
  row.setAttribute('aria-selected', 'false');
  row.dataset.kind = result.kind;
  if (result.own) row.classList.add('is-own');
  const head = element('span', 'search-result-head');
  head.append(element('span', 'search-result-name', result.name));
  if (typeof result.distanceMeters === 'number') {
    head.append(element('span', 'search-result-distance', formatDistanceAway(result.distanceMeters)));
  }
  const details = [categoryLabel(result), result.address].filter(Boolean).join(' · ');
  row.append(head);
  if (result.own) row.append(element('span', 'search-result-own', ownNote(result)));
  if (details) row.append(element('span', 'search-result-details', details));
  // mousedown: the field keeps the focus (and the list stays) until the click chooses.
  row.addEventListener('mousedown', (event) => event.preventDefault());
  // A tap or a click: the field lets go of the focus, so a phone's keyboard leaves the map in view.
  row.addEventListener('click', () => { choose(index); input().blur(); });
  return row;
}

function osmCredit() {
  const credit = element('span', 'osm-credit');
  const link = element('a', '', '© OpenStreetMap contributors');
  link.href = OSM_COPYRIGHT;
  link.target = '_blank';
  link.rel = 'noopener';
  credit.append(link);
  return credit;
}

/** The results, the person's own places first (in the server's order otherwise), and the footer. */
function showResults(answer) {
  const results = [...answer.results].sort((a, b) => Number(Boolean(b.own)) - Number(Boolean(a.own)));
  search.results = results;
  $('search-results').replaceChildren(...results.map(resultRow));
  const footer = $('search-footer');
  footer.classList.remove('is-error');
  footer.replaceChildren();
  if (results.length === 0) footer.append(element('span', '', `Nothing found for ‘${answer.query}’.`));
  if (answer.attribution) footer.append(osmCredit());
  footer.hidden = footer.childElementCount === 0;
  setOpen(true);
  setActive(-1);
}

function showError(message) {
  search.results = [];
  $('search-results').replaceChildren();
  const footer = $('search-footer');
  footer.replaceChildren(element('span', '', message));
  footer.classList.add('is-error');
  footer.hidden = false;
  setOpen(true);
}

async function runSearch(text) {
  if (search.abort) search.abort.abort();
  const abort = new AbortController();
  search.abort = abort;
  $('map-search').setAttribute('aria-busy', 'true');
  try {
    const answer = await api(`/api/v1/search?${searchQuery(text)}`, { signal: abort.signal });
    if (abort.signal.aborted || input().value.trim() !== text) return;
    showResults(answer);
  } catch (error) {
    if (error.name === 'AbortError' || error.status === 401) return;
    showError(error.status === 404 ? 'This server does not offer search.' : `Search failed: ${error.message}`);
  } finally {
    if (search.abort === abort) {
      search.abort = null;
      $('map-search').setAttribute('aria-busy', 'false');
    }
  }
}

/** A change of the text: a new search (the pin of the last one goes), after a pause in the typing. */
function onInput() {
  const text = input().value.trim();
  window.clearTimeout(search.timer);
  removePin();
  search.chosen = false;
  $('search-clear').hidden = input().value === '';
  if (text.length < MINIMUM_QUERY_LENGTH && !BEYOND_LATIN.test(text)) {
    if (search.abort) search.abort.abort();
    search.results = [];
    setOpen(false);
    return;
  }
  search.timer = window.setTimeout(() => runSearch(text), DEBOUNCE_MILLISECONDS);
}

function onKeyDown(event) {
  const count = search.results.length;
  const open = !$('search-panel').hidden;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    if (!open && count > 0) setOpen(true);
    if (count === 0) return;
    const step = event.key === 'ArrowDown' ? 1 : -1;
    setActive(search.active < 0 ? (step > 0 ? 0 : count - 1) : (search.active + step + count) % count);
    event.preventDefault();
  } else if (event.key === 'Enter') {
    event.preventDefault();
    if (open && count > 0) choose(search.active >= 0 ? search.active : 0);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    if (open) setOpen(false);
    else clearSearch();
  }
}

/** Empties the box, closes the list and takes the pin away. */
function clearSearch() {
  window.clearTimeout(search.timer);
  if (search.abort) search.abort.abort();
  input().value = '';
  search.results = [];
  $('search-clear').hidden = true;
  setOpen(false);
  removePin();
}

// MARK: The pin

function removePin() {
  if (!search.pin) return;
  search.pin.remove();
  search.pin = null;
  delete $('map').dataset.searchPin;
}

/** A website as a link: http(s) only (OSM's `website` is typed by people; a bare host gets https). */
function websiteLink(website) {
  let url;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(website) ? website : `https://${website}`);
  } catch (_) {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const link = element('a', '', url.host + (url.pathname === '/' ? '' : url.pathname));
  link.href = url.href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  return link;
}

/** Each of OSM's `phone` numbers (separated by ";") as a tel: link. */
function phoneLinks(phone) {
  return phone.split(';').map((number) => number.trim()).filter(Boolean).map((number) => {
    const link = element('a', '', number);
    link.href = `tel:${number.replace(/[^+\d]/g, '')}`;
    return link;
  });
}

/** The pin's callout: name, category, address, opening hours, links, the person's own note, the credit. */
function callout(result) {
  const box = element('div', 'callout search-callout');
  box.append(element('strong', '', result.name));
  const category = categoryLabel(result);
  if (category) box.append(element('div', 'search-callout-category', category));
  if (result.address) box.append(element('div', 'search-callout-address', result.address));
  if (result.openingHours) box.append(element('div', 'search-callout-hours', `Opening hours: ${result.openingHours}`));
  const links = [];
  if (result.website) { const link = websiteLink(result.website); if (link) links.push(link); }
  if (result.phone) links.push(...phoneLinks(result.phone));
  if (links.length) {
    const line = element('div', 'search-callout-links');
    links.forEach((link, index) => line.append(...(index ? [' · ', link] : [link])));
    box.append(line);
  }
  if (result.own) {
    const visits = typeof result.visitCount === 'number' ? ` · ${result.visitCount} ${result.visitCount === 1 ? 'visit' : 'visits'}` : '';
    box.append(element('div', 'search-callout-own', `${ownNote(result)}${visits}`));
  }
  if (result.source === 'osm') box.append(osmCredit());
  return box;
}

/** Moves the map to a result (at a zoom for its kind) and drops a pin with its callout. */
function choose(index) {
  const result = search.results[index];
  if (!result || !drawn.map) return;
  const map = drawn.map;
  removePin();
  if (!map.getPane(PIN_PANE)) map.createPane(PIN_PANE).style.zIndex = String(PIN_PANE_Z_INDEX);
  const latlng = [result.latitude, result.longitude];
  map.setView(latlng, ZOOM_BY_KIND[result.kind] || DEFAULT_ZOOM, { animate: false });
  const icon = L.divIcon({ className: 'search-pin', iconSize: [22, 22], iconAnchor: [11, 20], popupAnchor: [0, -18] });
  const title = result.address && result.address !== result.name ? `${result.name} · ${result.address}` : result.name;
  search.pin = L.marker(latlng, { icon, pane: PIN_PANE, title, keyboard: true })
    .bindPopup(() => callout(result), { maxWidth: 280, autoPanPaddingTopLeft: L.point(12, 72) })
    .addTo(map);
  search.pin.openPopup();
  $('map').dataset.searchPin = `${result.latitude},${result.longitude}`;
  input().value = result.name;
  search.chosen = true;
  $('search-clear').hidden = false;
  setOpen(false);
}

export function bindSearch() {
  const field = input();
  field.addEventListener('input', onInput);
  field.addEventListener('keydown', onKeyDown);
  field.addEventListener('focus', () => { if (search.results.length && !search.chosen && field.value.trim()) setOpen(true); });
  $('map-search').addEventListener('submit', (event) => event.preventDefault());
  $('map-search').addEventListener('focusout', (event) => {
    if (!$('map-search').contains(event.relatedTarget)) setOpen(false);
  });
  $('search-clear').addEventListener('click', () => { clearSearch(); field.focus(); });
}
