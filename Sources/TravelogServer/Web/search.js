// The search box over the map (GET /api/v1/search, MapKit's MKLocalSearch): results as the person
// types, asked for near the map's centre within the span it shows, the person's own places first;
// arrows, Enter and Escape work as in a combobox. Choosing a result moves the map there and drops a
// pin whose callout names the place (address, category, opening hours, website, phone) and credits
// OpenStreetMap for its data. A new search, Escape or the × takes the pin away. Its suggestions
// (placeSuggestions) serve the Directions panel's From and To as well (directions.js), and a pin's
// callout carries what other modules add (addCalloutAction: Directions from / to here).
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

/** The search box's pin, and what else a pin's callout offers (directions.js adds its buttons). */
const search = { pin: null, suggestions: null, calloutActions: [] };

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

function osmCredit() {
  const credit = element('span', 'osm-credit');
  const link = element('a', '', '© OpenStreetMap contributors');
  link.href = OSM_COPYRIGHT;
  link.target = '_blank';
  link.rel = 'noopener';
  credit.append(link);
  return credit;
}

/**
 * Suggestions of places for a text field, as an ARIA 1.1 combobox: results as the person types
 * (after a pause), asked for near the map's centre, the person's own places first; arrows, Enter
 * and Escape as in a combobox, a tap or a click chooses. The search box over the map and the
 * Directions panel's From and To (directions.js) each have one.
 * @param parts.field the text input; `combobox` its wrapper (role combobox); `panel` the box that
 *   opens; `list` its listbox; `footer` the line under it; `container` the element whose focus keeps
 *   the list open and that is aria-busy while a request is under way
 * @param parts.idPrefix the rows' ids are `${idPrefix}-${index}`
 * @param parts.onChoose called with the result chosen
 * @param parts.onEdit called when the text changes (the choice made before no longer holds)
 * @param parts.onEscape called by Escape when the list is closed (after the field is emptied)
 * @param parts.ignore text for which nothing is asked (the Directions panel's typed coordinates)
 * @returns {{clear: function(): void, close: function(): void}}
 */
export function placeSuggestions({
  field, combobox, panel, list, footer, container, idPrefix, onChoose, onEdit = () => {}, onEscape = () => {}, ignore = () => false,
}) {
  /** `chosen`: a result of the list shown was chosen (focusing the field again does not reopen the list). */
  const suggest = { timer: null, abort: null, results: [], active: -1, chosen: false };

  /** Shows or hides the results' box, as the combobox says. */
  function setOpen(open) {
    panel.hidden = !open;
    // The ARIA 1.1 combobox: the wrapper is expanded and owns the list; the field points at the active row.
    combobox.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (!open) setActive(-1);
  }

  function setActive(index) {
    suggest.active = index;
    const rows = [...list.children];
    rows.forEach((row, position) => row.setAttribute('aria-selected', position === index ? 'true' : 'false'));
    if (index >= 0 && rows[index]) {
      field.setAttribute('aria-activedescendant', rows[index].id);
      rows[index].scrollIntoView({ block: 'nearest' });
    } else {
      field.removeAttribute('aria-activedescendant');
    }
  }

  function resultRow(result, index) {
    const row = element('li', 'search-result');
    row.id = `${idPrefix}-${index}`;
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
    row.addEventListener('click', () => { choose(index); field.blur(); });
    return row;
  }

  /** The results, the person's own places first (in the server's order otherwise), and the footer. */
  function showResults(answer) {
    const results = [...answer.results].sort((a, b) => Number(Boolean(b.own)) - Number(Boolean(a.own)));
    suggest.results = results;
    list.replaceChildren(...results.map(resultRow));
    footer.classList.remove('is-error');
    footer.replaceChildren();
    if (results.length === 0) footer.append(element('span', '', `Nothing found for ‘${answer.query}’.`));
    if (answer.attribution) footer.append(osmCredit());
    footer.hidden = footer.childElementCount === 0;
    setOpen(true);
    setActive(-1);
  }

  function showError(message) {
    suggest.results = [];
    list.replaceChildren();
    footer.replaceChildren(element('span', '', message));
    footer.classList.add('is-error');
    footer.hidden = false;
    setOpen(true);
  }

  async function runSearch(text) {
    if (suggest.abort) suggest.abort.abort();
    const abort = new AbortController();
    suggest.abort = abort;
    container.setAttribute('aria-busy', 'true');
    try {
      const answer = await api(`/api/v1/search?${searchQuery(text)}`, { signal: abort.signal });
      if (abort.signal.aborted || field.value.trim() !== text) return;
      showResults(answer);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      showError(error.status === 404 ? 'This server does not offer search.' : `Search failed: ${error.message}`);
    } finally {
      if (suggest.abort === abort) {
        suggest.abort = null;
        container.setAttribute('aria-busy', 'false');
      }
    }
  }

  /** A change of the text: a new search, after a pause in the typing. */
  function onInput() {
    const text = field.value.trim();
    window.clearTimeout(suggest.timer);
    suggest.chosen = false;
    onEdit();
    if ((text.length < MINIMUM_QUERY_LENGTH && !BEYOND_LATIN.test(text)) || ignore(text)) {
      if (suggest.abort) suggest.abort.abort();
      suggest.results = [];
      setOpen(false);
      return;
    }
    suggest.timer = window.setTimeout(() => runSearch(text), DEBOUNCE_MILLISECONDS);
  }

  function onKeyDown(event) {
    const count = suggest.results.length;
    const open = !panel.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!open && count > 0) setOpen(true);
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(suggest.active < 0 ? (step > 0 ? 0 : count - 1) : (suggest.active + step + count) % count);
      event.preventDefault();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (open && count > 0) choose(suggest.active >= 0 ? suggest.active : 0);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (open) setOpen(false);
      else { clear(); onEscape(); }
    }
  }

  function choose(index) {
    const result = suggest.results[index];
    if (!result) return;
    field.value = result.name;
    suggest.chosen = true;
    setOpen(false);
    onChoose(result);
  }

  /** Empties the field and closes the list. */
  function clear() {
    window.clearTimeout(suggest.timer);
    if (suggest.abort) suggest.abort.abort();
    field.value = '';
    suggest.results = [];
    setOpen(false);
  }

  field.addEventListener('input', onInput);
  field.addEventListener('keydown', onKeyDown);
  field.addEventListener('focus', () => { if (suggest.results.length && !suggest.chosen && field.value.trim()) setOpen(true); });
  container.addEventListener('focusout', (event) => {
    if (!container.contains(event.relatedTarget)) setOpen(false);
  });
  return { clear, close: () => setOpen(false) };
}

/** Empties the search box, closes the list and takes the pin away. */
function clearSearch() {
  search.suggestions.clear();
  $('search-clear').hidden = true;
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
  for (const make of search.calloutActions) {
    const action = make(result);
    if (action) box.append(action);
  }
  if (result.source === 'osm') box.append(osmCredit());
  return box;
}

/** What a pin's callout offers beside the place's facts: `make(result)` gives an element (or null). */
export function addCalloutAction(make) {
  search.calloutActions.push(make);
}

/** Moves the map to a result (at a zoom for its kind) and drops a pin with its callout. */
function showResult(result) {
  if (!drawn.map) return;
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
  $('search-clear').hidden = false;
}

export function bindSearch() {
  const field = $('search-input');
  search.suggestions = placeSuggestions({
    field, combobox: $('search-combobox'), panel: $('search-panel'), list: $('search-results'), footer: $('search-footer'),
    container: $('map-search'), idPrefix: 'search-result', onChoose: showResult,
    // A new search: the pin of the last one goes.
    onEdit: () => { removePin(); $('search-clear').hidden = field.value === ''; },
    onEscape: clearSearch,
  });
  $('map-search').addEventListener('submit', (event) => event.preventDefault());
  $('search-clear').addEventListener('click', () => { clearSearch(); field.focus(); });
}
