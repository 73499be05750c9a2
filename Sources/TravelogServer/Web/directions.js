// The Directions panel (GET /api/v1/directions, MapKit's MKDirections), opened by the Directions
// button in the search box, by "Directions from / to here" on a search result's pin and on a
// journal entry: From and To take a search (search.js's suggestions), a point chosen on the map
// ("Choose on the map": the next click or tap on the map) or a place handed over; a swap button;
// driving, walking or cycling as a radio group. Once both ends are known the route is asked for
// and drawn in its own pane over the path, fitted into view, with its time and distance on top
// and its steps listed: a step hovered or focused lights up its part of the line, a click zooms to
// it. An answer that names an end (outside the extracts' coverage, no road near, no connection:
// 422) is said in words beside that end. Closing the panel takes the route away.
//
// For tests: `#directions[data-state]` is idle, loading, route or error; `[data-step-count]` the
// steps listed; `[data-highlighted-step]` the step lit up; `#map[data-directions-route]` the drawn
// route's "distance,points" while one is drawn.
import { api } from './api.js';
import { $, element } from './dom.js';
import { durationText, formatDistanceAway } from './format.js';
import { drawn } from './map.js';
import { addCalloutAction, placeSuggestions } from './search.js';

const MODES = [['driving', 'Driving'], ['walking', 'Walking'], ['cycling', 'Cycling']];
const MODE_KEY = 'travelog.directionsMode';
const ENDS = { from: { label: 'From', name: 'the start' }, to: { label: 'To', name: 'the destination' } };
/** The route's pane: above the path (the overlay pane, 400), under markers (600) and the journal's pins (650). */
const ROUTE_PANE = 'directions-route';
const ROUTE_PANE_Z_INDEX = 450;
/** Apart from the devices' colours (colors.js) and the trips' dashes. */
const ROUTE_COLOR = '#5e35b1';
const HIGHLIGHT_COLOR = '#ff8f00';
const ROUTE_ATTRIBUTION = 'Routes: <a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>';
/** A step zoomed to is shown at most this close. */
const STEP_MAX_ZOOM = 18;
/** "60.1699, 24.9384" (typed into From or To). */
const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
/** Arrows for a step's maneuver, by its modifier (decoration: the instruction says it in words). */
const ARROWS = {
  left: '↰', 'slight left': '↖', 'sharp left': '↰', right: '↱', 'slight right': '↗', 'sharp right': '↱',
  straight: '↑', uturn: '↶',
};

/** `ends`: {latitude, longitude, label} or null each; `picking`: the end a map click sets, or null. */
const directions = {
  ends: { from: null, to: null }, mode: 'driving', picking: null, abort: null, sequence: 0,
  layer: null, routeLayer: null, renderer: null, highlight: null, stepSpans: [], suggestions: {}, attributed: false,
};

function panel() { return $('directions'); }
function field(end) { return $(`directions-${end}-input`); }

// MARK: The panel

/** One end's row: label, a field with its suggestions, "Choose on the map". */
function endRow(end) {
  const row = element('div', 'directions-end');
  const label = element('label', 'directions-end-label', ENDS[end].label);
  label.htmlFor = `directions-${end}-input`;
  const combobox = element('div', 'directions-combobox');
  combobox.id = `directions-${end}-combobox`;
  combobox.setAttribute('role', 'combobox');
  combobox.setAttribute('aria-haspopup', 'listbox');
  combobox.setAttribute('aria-owns', `directions-${end}-results`);
  combobox.setAttribute('aria-expanded', 'false');
  const input = element('input');
  input.id = `directions-${end}-input`;
  input.type = 'text';
  input.inputMode = 'search';
  input.maxLength = 200;
  input.placeholder = 'Search, or choose on the map';
  input.autocapitalize = 'none';
  input.spellcheck = false;
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', `directions-${end}-results`);
  input.setAttribute('aria-describedby', `directions-${end}-error`);
  combobox.append(input);
  const pick = element('button', 'directions-pick');
  pick.type = 'button';
  pick.id = `directions-${end}-pick`;
  pick.setAttribute('aria-pressed', 'false');
  pick.setAttribute('aria-label', `Choose ${ENDS[end].name} on the map`);
  pick.title = `Choose ${ENDS[end].name} on the map`;
  pick.append(element('span', 'directions-pick-icon'), element('span', 'directions-pick-text', 'Map'));
  pick.firstChild.setAttribute('aria-hidden', 'true');
  const suggestions = element('div', 'search-panel directions-suggestions');
  suggestions.id = `directions-${end}-panel`;
  suggestions.hidden = true;
  const list = element('ul', 'search-results');
  list.id = `directions-${end}-results`;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', `Places for ${ENDS[end].name}`);
  const footer = element('p', 'search-footer');
  footer.setAttribute('role', 'status');
  footer.hidden = true;
  suggestions.append(list, footer);
  const error = element('p', 'directions-end-error');
  error.id = `directions-${end}-error`;
  row.append(label, combobox, pick, suggestions, error);
  directions.suggestions[end] = placeSuggestions({
    field: input, combobox, panel: suggestions, list, footer, container: row, idPrefix: `directions-${end}-result`,
    onChoose: (result) => setEnd(end, { latitude: result.latitude, longitude: result.longitude, label: result.name }),
    onEdit: () => { directions.ends[end] = null; showEndError(end, ''); drawEnds(); },
  });
  // Coordinates typed in ("60.1699, 24.9384") are an end as they are.
  input.addEventListener('change', () => {
    const match = COORDINATES.exec(input.value);
    if (match && !directions.ends[end]) {
      const latitude = Number(match[1]), longitude = Number(match[2]);
      if (Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) setEnd(end, { latitude, longitude, label: input.value.trim() });
    }
  });
  pick.addEventListener('click', () => setPicking(directions.picking === end ? null : end));
  return row;
}

function build() {
  const box = panel();
  const head = element('div', 'directions-head');
  const title = element('h2', '', 'Directions');
  title.id = 'directions-title';
  const close = element('button', 'directions-close', '×');
  close.type = 'button';
  close.id = 'directions-close';
  close.setAttribute('aria-label', 'Close directions');
  head.append(title, close);

  // A fieldset of the radios alone (axe's radiogroup rule: nothing else inside it).
  const modes = element('fieldset', 'directions-modes');
  modes.id = 'directions-modes';
  const legend = element('legend', 'visually-hidden', 'Travel mode');
  modes.append(legend);
  for (const [value, text] of MODES) {
    const label = element('label', 'directions-mode');
    const radio = element('input');
    radio.type = 'radio';
    radio.name = 'directions-mode';
    radio.value = value;
    radio.checked = value === directions.mode;
    radio.addEventListener('change', () => { if (radio.checked) { directions.mode = value; localStorage.setItem(MODE_KEY, value); requestRoute(); } });
    label.append(radio, element('span', '', text));
    modes.append(label);
  }

  const ends = element('div', 'directions-ends');
  const swap = element('button', 'directions-swap', '⇅');
  swap.type = 'button';
  swap.id = 'directions-swap';
  swap.setAttribute('aria-label', 'Swap start and destination');
  swap.title = 'Swap start and destination';
  ends.append(endRow('from'), endRow('to'), swap);

  const hint = element('p', 'directions-hint');
  hint.id = 'directions-hint';
  hint.setAttribute('role', 'status');
  const summary = element('div', 'directions-summary');
  summary.id = 'directions-summary';
  summary.setAttribute('aria-live', 'polite');
  const error = element('p', 'directions-error');
  error.id = 'directions-error';
  error.setAttribute('role', 'alert');
  const steps = element('ol', 'directions-steps');
  steps.id = 'directions-steps';
  steps.setAttribute('aria-label', 'Steps of the route');
  const credit = element('p', 'directions-credit muted');
  credit.id = 'directions-credit';
  credit.hidden = true;
  const link = element('a', '', '© OpenStreetMap contributors');
  link.href = 'https://www.openstreetmap.org/copyright';
  link.target = '_blank';
  link.rel = 'noopener';
  credit.append('Route data: ', link);
  box.replaceChildren(head, modes, ends, hint, summary, error, steps, credit);

  close.addEventListener('click', closeDirections);
  swap.addEventListener('click', swapEnds);
}

function setState(name) {
  panel().dataset.state = name;
  panel().setAttribute('aria-busy', name === 'loading' ? 'true' : 'false');
}

/** Shows the panel; `from` and `to` ({latitude, longitude, label}) set those ends. The empty end
 * (From first) gets the focus. */
export function openDirections({ from = null, to = null } = {}) {
  const box = panel();
  const wasHidden = box.hidden;
  box.hidden = false;
  $('directions-open').setAttribute('aria-expanded', 'true');
  if (drawn.map) drawn.map.closePopup();
  ensureLayer();
  if (from) setEnd('from', from, { request: false });
  if (to) setEnd('to', to, { request: false });
  box.scrollIntoView({ block: 'start', behavior: 'instant' });
  const empty = ['from', 'to'].find((end) => !directions.ends[end]);
  if (empty) field(empty).focus({ preventScroll: true });
  else if (wasHidden || from || to) requestRoute();
}

/** Hides the panel and takes the route and the ends' markers off the map. */
export function closeDirections() {
  setPicking(null);
  if (directions.abort) directions.abort.abort();
  directions.sequence += 1;
  clearRoute();
  if (directions.layer) directions.layer.clearLayers();
  panel().hidden = true;
  $('directions-open').setAttribute('aria-expanded', 'false');
  setState('idle');
  $('directions-open').focus({ preventScroll: true });
}

/** Two buttons, "Directions from here" and "Directions to here", for a place ({latitude, longitude, label}). */
export function directionsButtons(place) {
  const box = element('div', 'directions-actions');
  for (const [end, text] of [['from', 'Directions from here'], ['to', 'Directions to here']]) {
    const button = element('button', '', text);
    button.type = 'button';
    button.dataset.directions = end;
    button.addEventListener('click', () => openDirections({ [end]: place }));
    box.append(button);
  }
  return box;
}

// MARK: The ends

function setEnd(end, place, { request = true } = {}) {
  directions.ends[end] = { latitude: place.latitude, longitude: place.longitude, label: place.label };
  field(end).value = place.label;
  showEndError(end, '');
  drawEnds();
  if (request) requestRoute();
}

function showEndError(end, message) {
  $(`directions-${end}-error`).textContent = message;
  if (message) field(end).setAttribute('aria-invalid', 'true');
  else field(end).removeAttribute('aria-invalid');
}

function swapEnds() {
  const { from, to } = directions.ends;
  const [fromText, toText] = [field('from').value, field('to').value];
  directions.ends = { from: to, to: from };
  field('from').value = toText;
  field('to').value = fromText;
  showEndError('from', '');
  showEndError('to', '');
  drawEnds();
  requestRoute();
}

/** "Choose on the map": the next click on the map sets `end` (null: no longer choosing). */
function setPicking(end) {
  directions.picking = end;
  for (const name of ['from', 'to']) $(`directions-${name}-pick`).setAttribute('aria-pressed', String(name === end));
  $('map').classList.toggle('picking-directions', Boolean(end));
  $('directions-hint').textContent = end
    ? `Click or tap the map where ${ENDS[end].name} is (Escape to cancel).` : '';
}

function onMapClick(event) {
  const end = directions.picking;
  if (!end || panel().hidden) return;
  const { lat, lng } = event.latlng.wrap();
  const label = `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
  setPicking(null);
  setEnd(end, { latitude: lat, longitude: lng, label });
  nameChosenPoint(end, label);
}

/** Names a point chosen on the map after the place there, when the server can say (its point of
 * interest or street address); the coordinates stay otherwise. */
async function nameChosenPoint(end, label) {
  const chosen = directions.ends[end];
  try {
    const place = await api(`/api/v1/geocode/reverse?lat=${chosen.latitude}&lon=${chosen.longitude}`);
    const street = [place.thoroughfare, place.subThoroughfare].filter(Boolean).join(' ');
    const name = place.poi || street;
    if (name && directions.ends[end] === chosen && field(end).value === label) {
      chosen.label = name;
      field(end).value = name;
    }
  } catch (_) { /* no gazetteer, or nothing there: the coordinates name the point */ }
}

// MARK: The route

function ensureLayer() {
  const map = drawn.map;
  if (directions.layer || !map) return;
  if (!map.getPane(ROUTE_PANE)) map.createPane(ROUTE_PANE).style.zIndex = String(ROUTE_PANE_Z_INDEX);
  // SVG (the page's path is on a canvas): a line of its own the pointer and the tests can find.
  directions.renderer = L.svg({ pane: ROUTE_PANE });
  directions.layer = L.featureGroup().addTo(map);
  directions.routeLayer = L.featureGroup().addTo(map);
  // "Choose on the map": the map's clicks may set an end.
  map.on('click', onMapClick);
}

/** The ends as markers (green start, red destination), whether or not a route joins them. */
function drawEnds() {
  ensureLayer();
  if (!directions.layer) return;
  directions.layer.clearLayers();
  for (const [end, color] of [['from', '#2e7d32'], ['to', '#c62828']]) {
    const place = directions.ends[end];
    if (!place) continue;
    L.circleMarker([place.latitude, place.longitude], {
      renderer: directions.renderer, pane: ROUTE_PANE, radius: 7, color: '#fff', weight: 3, fillColor: color, fillOpacity: 1,
      className: `directions-end-marker directions-${end}-marker`, interactive: false,
    }).addTo(directions.layer);
  }
}

function clearRoute() {
  if (directions.routeLayer) directions.routeLayer.clearLayers();
  directions.highlight = null;
  directions.stepSpans = [];
  $('directions-summary').replaceChildren();
  $('directions-error').textContent = '';
  $('directions-steps').replaceChildren();
  $('directions-credit').hidden = true;
  delete panel().dataset.stepCount;
  delete panel().dataset.highlightedStep;
  delete $('map').dataset.directionsRoute;
  if (directions.attributed && drawn.map) {
    drawn.map.attributionControl.removeAttribution(ROUTE_ATTRIBUTION);
    directions.attributed = false;
  }
}

/** Asks for the route between the two ends in the chosen mode (the latest request wins). */
async function requestRoute() {
  if (panel().hidden) return;
  const { from, to } = directions.ends;
  if (directions.abort) directions.abort.abort();
  if (!from || !to) { clearRoute(); setState('idle'); return; }
  const abort = new AbortController();
  directions.abort = abort;
  const sequence = ++directions.sequence;
  setState('loading');
  const point = (place) => `${place.latitude.toFixed(6)},${place.longitude.toFixed(6)}`;
  const query = new URLSearchParams({ from: point(from), to: point(to), mode: directions.mode });
  try {
    const route = await api(`/api/v1/directions?${query}`, { signal: abort.signal });
    if (sequence !== directions.sequence) return;
    showRoute(route);
    setState('route');
  } catch (error) {
    if (error.name === 'AbortError' || sequence !== directions.sequence) return;
    clearRoute();
    if (error.status === 401) { setState('idle'); return; }
    showRouteError(error);
    setState('error');
  } finally {
    if (directions.abort === abort) directions.abort = null;
  }
}

/** The server's reason in words, the end it names marked beside its field. */
function showRouteError(error) {
  let message = error.message;
  let end = null;
  if (error.status === 422) {
    // "from (60.1,24.9) is outside the coverage…", "no route by walking: to lies on roads cut off…"
    const leading = /^(from|to)\b/.exec(message);
    const inner = /: (from|to) lies\b/.exec(message);
    end = leading ? leading[1] : inner ? inner[1] : null;
    if (leading) message = `${capitalized(ENDS[end].name)}${message.slice(end.length)}`;
    else if (inner) message = message.replace(`: ${end} lies`, `: ${ENDS[end].name} lies`);
    message = `No route: ${message}.`;
  } else if (error.status === 404) {
    message = `This server gives no directions: ${message}.`;
  } else if (error.status === 0) {
    message = 'No route: the server cannot be reached.';
  } else {
    message = `No route: ${message}`;
  }
  $('directions-error').textContent = message;
  if (end) showEndError(end, endProblem(error.message));
}

/** The short note beside the end an answer names. */
function endProblem(message) {
  if (message.includes('outside the coverage')) return 'Outside the area the road data covers.';
  if (message.includes('from any road')) return `No road open to ${directions.mode} near here.`;
  return `Not connected to the other end by roads open to ${directions.mode}.`;
}

function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function showRoute(route) {
  clearRoute();
  ensureLayer();
  const latlngs = route.polyline.coordinates.map(([longitude, latitude]) => [latitude, longitude]);
  const options = { renderer: directions.renderer, pane: ROUTE_PANE, interactive: false };
  L.polyline(latlngs, { ...options, color: '#fff', weight: 9, opacity: 0.9, className: 'directions-casing' }).addTo(directions.routeLayer);
  const line = L.polyline(latlngs, { ...options, color: ROUTE_COLOR, weight: 5, opacity: 1, className: 'directions-line' })
    .addTo(directions.routeLayer);
  $('map').dataset.directionsRoute = `${route.distance},${latlngs.length}`;
  drawn.map.attributionControl.addAttribution(ROUTE_ATTRIBUTION);
  directions.attributed = true;
  fitRoute(line.getBounds());

  const summary = $('directions-summary');
  const time = element('strong', 'directions-time', durationText(Math.max(60, route.expectedTravelTime)));
  const distance = element('span', 'directions-distance', formatDistanceAway(route.distance));
  summary.append(time, distance);
  if (route.name) summary.append(element('span', 'directions-via muted', `via ${route.name}`));

  directions.stepSpans = stepSpans(route.steps, latlngs);
  const list = $('directions-steps');
  route.steps.forEach((step, index) => list.append(stepRow(step, index, latlngs)));
  panel().dataset.stepCount = String(route.steps.length);
  $('directions-credit').hidden = false;
}

/** Fits a part of the map into view: on a phone clear of the search box over the map's top. */
function fitRoute(bounds) {
  if (!bounds.isValid()) return;
  drawn.map.fitBounds(bounds, { paddingTopLeft: [24, 64], paddingBottomRight: [24, 24], maxZoom: STEP_MAX_ZOOM });
}

/** For each step, the first and last index of the polyline's points it covers: from the point
 * where it starts (searched forward along the line) to where the next one starts. */
function stepSpans(steps, latlngs) {
  const starts = [];
  let from = 0;
  for (const step of steps) {
    let best = from, bestDistance = Infinity;
    for (let index = from; index < latlngs.length; index += 1) {
      const distance = Math.abs(latlngs[index][0] - step.start.latitude) + Math.abs(latlngs[index][1] - step.start.longitude);
      if (distance < bestDistance) { best = index; bestDistance = distance; }
      if (distance === 0) break;
    }
    starts.push(best);
    from = best;
  }
  return starts.map((start, index) => [start, Math.max(start, index + 1 < starts.length ? starts[index + 1] : latlngs.length - 1)]);
}

function stepRow(step, index, latlngs) {
  const item = element('li');
  const button = element('button', 'directions-step');
  button.type = 'button';
  button.dataset.step = String(index);
  const arrow = step.maneuver === 'arrive' ? '◉' : step.maneuver === 'depart' ? '↑' : (ARROWS[step.modifier] || '↑');
  const icon = element('span', 'directions-maneuver', arrow);
  icon.setAttribute('aria-hidden', 'true');
  button.append(icon, element('span', 'directions-instruction', step.instruction));
  if (step.distance > 0) button.append(element('span', 'directions-step-distance', formatDistanceAway(step.distance)));
  const part = () => {
    const [first, last] = directions.stepSpans[index];
    return latlngs.slice(first, Math.max(first + 2, last + 1));
  };
  button.addEventListener('mouseenter', () => highlightStep(index, part()));
  button.addEventListener('focus', () => highlightStep(index, part()));
  button.addEventListener('mouseleave', () => { if (document.activeElement !== button) highlightStep(null); });
  button.addEventListener('blur', () => highlightStep(null));
  button.addEventListener('click', () => {
    highlightStep(index, part());
    const points = part();
    if (points.length > 1) fitRoute(L.latLngBounds(points));
    else drawn.map.setView(points[0] || [step.start.latitude, step.start.longitude], STEP_MAX_ZOOM);
  });
  item.append(button);
  return item;
}

/** Lights up a step's part of the line (null: none). */
function highlightStep(index, points) {
  if (directions.highlight) { directions.highlight.remove(); directions.highlight = null; }
  for (const row of $('directions-steps').querySelectorAll('.directions-step.is-highlighted')) row.classList.remove('is-highlighted');
  if (index === null || !directions.routeLayer) { delete panel().dataset.highlightedStep; return; }
  const row = $('directions-steps').querySelector(`[data-step="${index}"]`);
  if (row) row.classList.add('is-highlighted');
  panel().dataset.highlightedStep = String(index);
  const latlngs = points.length > 1 ? points : [points[0], points[0]];
  directions.highlight = L.polyline(latlngs, {
    renderer: directions.renderer, pane: ROUTE_PANE, interactive: false, color: HIGHLIGHT_COLOR, weight: 8, opacity: 1,
    className: 'directions-highlight',
  }).addTo(directions.routeLayer);
}

export function bindDirections() {
  const saved = localStorage.getItem(MODE_KEY);
  if (MODES.some(([value]) => value === saved)) directions.mode = saved;
  build();
  setState('idle');
  $('directions-open').addEventListener('click', () => (panel().hidden ? openDirections() : closeDirections()));
  // A search result's pin offers it as either end.
  addCalloutAction((result) => directionsButtons({ latitude: result.latitude, longitude: result.longitude, label: result.name }));
  // Escape anywhere stops choosing on the map.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && directions.picking) { setPicking(null); event.preventDefault(); }
  });
}
