// The Directions panel (GET /api/v1/directions, MapKit's MKDirections), opened by the Directions
// button in the search box, by "Directions from / to here" on a search result's pin and on a
// journal entry: From and To take a search (search.js's suggestions), a point chosen on the map
// ("Choose on the map": the next click or tap on the map) or a place handed over; a swap button;
// driving, walking or cycling as a radio group. Once both ends are known the route is asked for
// and drawn in its own pane over the path, fitted into view, with its time and distance on top
// and its steps listed: a step hovered or focused lights up its part of the line, a click zooms to
// it. An answer that names an end (outside the extracts' coverage, no road near, no connection:
// 422) is said in words beside that end. Closing the panel takes the route away. The same panel
// shows a journal trip on roads ("Show on roads", GET /api/v1/match): the matched line, the roads
// in order, the matched beside the recorded distance.
//
// For tests: `#directions[data-state]` is idle, loading, route or error; `[data-step-count]` the
// steps listed; `[data-highlighted-step]` the step lit up; `[data-view]` route or trip;
// `#map[data-directions-route]` the drawn route's "distance,points" while one is drawn,
// `#map[data-matched-route]` a matched trip's "distance,pieces".
import { api } from './api.js';
import { $, element } from './dom.js';
import {
  CLOSEST_ZOOM, attachLayer, clearAll, clearLine, drawCoverage, drawEnds as drawEndDots, drawLine, fitIntoView, highlight,
} from './directions-layer.js';
import { ENDS, MODES, buildPanel } from './directions-panel.js';
import { count, durationText, formatDistanceAway } from './format.js';
import { drawn } from './map.js';
import { addCalloutAction, placeSuggestions } from './search.js';
import { subscribe } from './state.js';

const MODE_KEY = 'travelog.directionsMode';
/** "60.1699, 24.9384" (typed into From or To). */
const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
/** Arrows for a step's maneuver, by its modifier (decoration: the instruction says it in words). */
const ARROWS = {
  left: '↰', 'slight left': '↖', 'sharp left': '↰', right: '↱', 'slight right': '↗', 'sharp right': '↱',
  straight: '↑', uturn: '↶',
};

/** `ends`: {latitude, longitude, label} or null each; `picking`: the end a map click sets, or null;
 * `view`: 'route' (From and To) or 'trip' (a journal trip on roads, `trip`). */
const directions = {
  ends: { from: null, to: null }, mode: 'driving', picking: null, abort: null, sequence: 0, view: 'route', trip: null,
  stepSpans: [], suggestions: {}, coverage: null, coverageBounds: null,
  /** Writes what the panel says of the line drawn, again when the units change. */
  describe: null,
};

function panel() { return $('directions'); }
function field(end) { return $(`directions-${end}-input`); }

// MARK: The panel

/** Builds the panel (directions-panel.js) and gives its controls their behaviour. */
function build() {
  const parts = buildPanel(panel(), directions.mode);
  for (const end of ['from', 'to']) {
    const input = parts[end].field;
    directions.suggestions[end] = placeSuggestions({
      ...parts[end], idPrefix: `directions-${end}-result`,
      onChoose: (result) => setEnd(end, { latitude: result.latitude, longitude: result.longitude, label: result.name }),
      // A change of the text: the end chosen before, and the route to it, no longer hold.
      onEdit: () => {
        const had = directions.ends[end] !== null;
        directions.ends[end] = null;
        showEndError(end, '');
        drawEnds();
        if (had) requestRoute();
      },
      ignore: (text) => COORDINATES.test(text),
    });
    // Coordinates typed in ("60.1699, 24.9384") are an end as they are, on Enter or leaving the field.
    const acceptCoordinates = () => {
      const match = COORDINATES.exec(input.value);
      if (match && !directions.ends[end]) {
        const latitude = Number(match[1]), longitude = Number(match[2]);
        if (Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) setEnd(end, { latitude, longitude, label: input.value.trim() });
      }
    };
    input.addEventListener('change', acceptCoordinates);
    input.addEventListener('keydown', (event) => { if (event.key === 'Enter') acceptCoordinates(); });
    $(`directions-${end}-pick`).addEventListener('click', () => setPicking(directions.picking === end ? null : end));
  }
  for (const radio of document.querySelectorAll('input[name="directions-mode"]')) {
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      directions.mode = radio.value;
      if (directions.view === 'trip') { requestMatch(); return; }
      localStorage.setItem(MODE_KEY, radio.value);
      requestRoute();
    });
  }
  $('directions-close').addEventListener('click', closeDirections);
  $('directions-swap').addEventListener('click', swapEnds);
}

/** The panel shows directions between two ends ('route') or a journal trip on roads ('trip'). */
function setView(view) {
  if (directions.view !== view) {
    if (directions.abort) directions.abort.abort();
    directions.sequence += 1;
    clearRoute();
    setState('idle');
  }
  directions.view = view;
  panel().dataset.view = view;
  $('directions-title').textContent = view === 'trip' ? 'Trip on roads' : 'Directions';
  $('directions-ends').hidden = view === 'trip';
  $('directions-trip').hidden = view !== 'trip';
  if (view === 'trip') {
    setPicking(null);
    for (const end of ['from', 'to']) directions.suggestions[end].close();
    clearAll();
  } else {
    const saved = localStorage.getItem(MODE_KEY);
    if (MODES.some(([value]) => value === saved)) setMode(saved);
    drawEnds();
  }
}

function setMode(mode) {
  directions.mode = mode;
  for (const radio of document.querySelectorAll('input[name="directions-mode"]')) radio.checked = radio.value === mode;
}

function setState(name) {
  panel().dataset.state = name;
  panel().setAttribute('aria-busy', name === 'loading' ? 'true' : 'false');
}

/** Shows the panel; `from` and `to` ({latitude, longitude, label}) set those ends. The empty end
 * (From first) gets the focus. */
export function openDirections({ from = null, to = null } = {}) {
  const box = panel();
  const wasHidden = box.hidden || directions.view !== 'route';
  setView('route');
  box.hidden = false;
  $('directions-open').setAttribute('aria-expanded', 'true');
  if (drawn.map) drawn.map.closePopup();
  attachLayer(onMapClick);
  showCoverage();
  if (from) setEnd('from', from, { request: false });
  if (to) setEnd('to', to, { request: false });
  box.scrollIntoView({ block: 'start', behavior: 'instant' });
  const empty = ['from', 'to'].find((end) => !directions.ends[end]);
  if (empty) field(empty).focus({ preventScroll: true });
  else if (wasHidden || from || to) requestRoute();
}

/** Outlines on the map where routes can be found, while the panel is open (asked for once). */
async function showCoverage() {
  try {
    if (!directions.coverage) directions.coverage = await api('/api/v1/directions/coverage');
    if (!panel().hidden && directions.view === 'route') directions.coverageBounds = drawCoverage(directions.coverage);
  } catch (_) { /* no outline: the routes' answers still say where they cannot go */ }
}

/** Hides the panel and takes the route and the ends' markers off the map. */
export function closeDirections() {
  setPicking(null);
  if (directions.abort) directions.abort.abort();
  directions.sequence += 1;
  clearRoute();
  clearAll();
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

/** The ends as dots on the map. */
function drawEnds() {
  drawEndDots(directions.ends);
}

/** Takes the line and what the panel says of it away (the ends stay). */
function clearRoute() {
  clearLine();
  clearDescription();
  directions.describe = null;
  $('directions-error').textContent = '';
  $('directions-credit').hidden = true;
  delete $('map').dataset.directionsRoute;
  delete $('map').dataset.matchedRoute;
}

/** Empties what the panel says of the line drawn (its figures, steps and roads). */
function clearDescription() {
  highlight(null);
  directions.stepSpans = [];
  $('directions-summary').replaceChildren();
  $('directions-steps').replaceChildren();
  $('directions-roads').replaceChildren();
  delete panel().dataset.stepCount;
  delete panel().dataset.highlightedStep;
}

/** Asks the server (the latest request wins): `show` gets the answer, `explain` an error. */
async function ask(path, show, explain) {
  if (directions.abort) directions.abort.abort();
  const abort = new AbortController();
  directions.abort = abort;
  const sequence = ++directions.sequence;
  setState('loading');
  try {
    const answer = await api(path, { signal: abort.signal });
    if (sequence !== directions.sequence) return;
    clearRoute();
    show(answer);
    setState('route');
  } catch (error) {
    if (error.name === 'AbortError' || sequence !== directions.sequence) return;
    clearRoute();
    if (error.status === 401) { setState('idle'); return; }
    explain(error);
    setState('error');
  } finally {
    if (directions.abort === abort) directions.abort = null;
  }
}

/** Asks for the route between the two ends in the chosen mode (the latest request wins). */
function requestRoute() {
  if (panel().hidden || directions.view !== 'route') return;
  const { from, to } = directions.ends;
  if (!from || !to) {
    if (directions.abort) directions.abort.abort();
    directions.sequence += 1;
    clearRoute();
    setState('idle');
    return;
  }
  const point = (place) => `${place.latitude.toFixed(6)},${place.longitude.toFixed(6)}`;
  const query = new URLSearchParams({ from: point(from), to: point(to), mode: directions.mode });
  ask(`/api/v1/directions?${query}`, showRoute, showRouteError);
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
  // An end outside the outlined coverage: the map shows both, so the person sees why.
  if (end && error.message.includes('outside the coverage') && directions.coverageBounds && directions.coverageBounds.isValid()) {
    const place = directions.ends[end];
    fitIntoView(L.latLngBounds(directions.coverageBounds.getSouthWest(), directions.coverageBounds.getNorthEast()).extend([place.latitude, place.longitude]));
  }
}

/** The short note beside the end an answer names. */
function endProblem(message) {
  if (message.includes('outside the coverage')) return 'Outside the area the road data covers.';
  if (message.includes('from any road')) return `No road open to ${directions.mode} near here.`;
  return `Not connected to the other end by roads open to ${directions.mode}.`;
}

function capitalized(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function showRoute(route) {
  const latlngs = route.polyline.coordinates.map(([longitude, latitude]) => [latitude, longitude]);
  drawLine(latlngs, 'directions-route-line');
  $('map').dataset.directionsRoute = `${route.distance},${latlngs.length}`;
  directions.describe = () => describeRoute(route, latlngs);
  directions.describe();
  $('directions-credit').hidden = false;
}

/** The route's time and distance, its roads, its steps (in the page's units). */
function describeRoute(route, latlngs) {
  const summary = $('directions-summary');
  const time = element('strong', 'directions-time', durationText(Math.max(60, route.expectedTravelTime)));
  const distance = element('span', 'directions-distance', formatDistanceAway(route.distance));
  summary.append(time, distance);
  if (route.name) summary.append(element('span', 'directions-via muted', `via ${route.name}`));

  directions.stepSpans = stepSpans(route.steps, latlngs);
  const list = $('directions-steps');
  route.steps.forEach((step, index) => list.append(stepRow(step, index, latlngs)));
  panel().dataset.stepCount = String(route.steps.length);
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
  // Focus leaving: the step under the pointer, if any, stays lit.
  button.addEventListener('blur', () => {
    const hovered = $('directions-steps').querySelector('.directions-step:hover');
    if (hovered) hovered.dispatchEvent(new Event('mouseenter'));
    else highlightStep(null);
  });
  button.addEventListener('click', () => {
    highlightStep(index, part());
    const points = part();
    if (points.length > 1) fitIntoView(L.latLngBounds(points));
    else drawn.map.setView(points[0] || [step.start.latitude, step.start.longitude], CLOSEST_ZOOM);
  });
  item.append(button);
  return item;
}

/** Lights up a step's part of the line (null: none). */
function highlightStep(index, points) {
  for (const row of $('directions-steps').querySelectorAll('.directions-step.is-highlighted')) row.classList.remove('is-highlighted');
  highlight(index === null ? null : points);
  if (index === null) { delete panel().dataset.highlightedStep; return; }
  const row = $('directions-steps').querySelector(`[data-step="${index}"]`);
  if (row) row.classList.add('is-highlighted');
  panel().dataset.highlightedStep = String(index);
}

// MARK: A journal trip on roads

/** The mode a trip is matched in by default, from the journal's transport mode. */
const MATCH_MODES = { automotive: 'driving', cycling: 'cycling', walking: 'walking', running: 'walking' };

/** "Show on roads" for a journal trip (GET /api/v1/match?trip=VISIT_ID): its fixes matched to the
 * roads, drawn as the route is, with the roads in order and the matched beside the recorded
 * distance. `label` says which trip ("09:23–09:37 from Café Regatta"). */
export function showTripOnRoads(trip, label) {
  const box = panel();
  box.hidden = false;
  $('directions-open').setAttribute('aria-expanded', 'true');
  if (drawn.map) drawn.map.closePopup();
  attachLayer(onMapClick);
  setView('trip');
  directions.trip = trip;
  $('directions-trip').textContent = label;
  setMode(MATCH_MODES[trip.mode] || 'driving');
  box.scrollIntoView({ block: 'start', behavior: 'instant' });
  $('directions-close').focus({ preventScroll: true });
  requestMatch();
}

function requestMatch() {
  if (panel().hidden || directions.view !== 'trip' || !directions.trip) return;
  const query = new URLSearchParams({ trip: String(directions.trip.fromVisit), mode: directions.mode });
  ask(`/api/v1/match?${query}`, showMatch, (error) => {
    $('directions-error').textContent = error.status === 0 ? 'The trip could not be matched: the server cannot be reached.'
      : `The trip could not be matched to roads: ${error.message}.`;
  });
}

function showMatch(match) {
  const pieces = match.polyline.coordinates.map((line) => line.map(([longitude, latitude]) => [latitude, longitude]));
  drawLine(pieces, 'directions-matched');
  $('map').dataset.matchedRoute = `${match.distance},${pieces.length}`;
  directions.describe = () => describeMatch(match);
  directions.describe();
  $('directions-credit').hidden = false;
}

/** The matched and recorded distances (in the page's units), the fixes, the roads in order. */
function describeMatch(match) {
  const summary = $('directions-summary');
  summary.append(element('strong', 'directions-time', formatDistanceAway(match.distance)),
    element('span', 'directions-distance', `on roads · ${formatDistanceAway(match.rawDistance)} recorded`));
  const fixes = `${count(match.matchedFixes, 'fix', 'fixes')} matched` + (match.droppedFixes ? `, ${count(match.droppedFixes, 'fix', 'fixes')} off the roads dropped` : '');
  summary.append(element('span', 'directions-via muted', fixes));
  const roads = $('directions-roads');
  if (match.roads.length) {
    roads.append(element('span', 'label', 'Roads'), element('span', 'directions-road-list', match.roads.join(' → ')));
  } else {
    roads.append(element('span', 'muted', 'The roads taken have no names.'));
  }
}

export function bindDirections() {
  const saved = localStorage.getItem(MODE_KEY);
  if (MODES.some(([value]) => value === saved)) directions.mode = saved;
  build();
  subscribe((_, changed) => {
    if ('units' in changed && directions.describe) { clearDescription(); directions.describe(); }
  });
  setView('route');
  setState('idle');
  $('directions-open').addEventListener('click', () => (panel().hidden ? openDirections() : closeDirections()));
  // A search result's pin offers it as either end.
  addCalloutAction((result) => directionsButtons({ latitude: result.latitude, longitude: result.longitude, label: result.name }));
  // Escape anywhere stops choosing on the map.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && directions.picking) { setPicking(null); event.preventDefault(); }
  });
}
