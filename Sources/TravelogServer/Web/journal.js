// The journal of the chosen dates: visits as pins and a list (newest first), trips as lines, a map
// of each day of a short range. Each entry's actions are in one menu (Rename, Merge with next,
// Delete, Name this place…); destructive ones ask first, and every change can be undone for a few
// seconds from a toast (PATCH /api/v1/visits/{id} with {"deleted": false}, {"merged": false}, or
// the old title).
import { api, jsonRequest, rangeQuery, timeZone } from './api.js';
import { addDays, daysBetween } from './dates.js';
import { openDirections, showTripOnRoads } from './directions.js';
import { $, element, showStatus } from './dom.js';
import { durationText, formatDistance, placeSubtitle, units } from './format.js';
import { drawn, showOnMap, knowDevice } from './map.js';
import { showStatistics } from './stats.js';
import { clock, listLabels, listPhotos, photosByInstant, renderTimeline } from './timeline.js';
import { loadedPhotos, photoThumb } from './photos.js';
import { state, update } from './state.js';

/** How long the Undo of a change is offered. */
const UNDO_MILLISECONDS = 10000;

const journal = { sequence: 0, visits: [], trips: [], labels: [], undoTimer: null };

/** Loads the journal for the range: visits as pins and a list, trips as lines, statistics. */
export async function loadJournal() {
  if (!state.range || !drawn.map) return;
  // Only the latest request draws: an older answer arriving late must not undo a newer one.
  const sequence = ++journal.sequence;
  $('journal').setAttribute('aria-busy', 'true');
  const range = rangeQuery();
  try {
    const [visits, trips, whereabouts, stats, labels] = await Promise.all([
      api(`/api/v1/visits?${range}`), api(`/api/v1/trips?${range}`),
      api(`/api/v1/whereabouts?${range}`), api(`/api/v1/stats?${rangeQuery({ by: statsPeriod(), units: units() })}`),
      // The journal is shown without them when they cannot be read.
      api(`/api/v1/labels?${range}`).catch(() => []),
    ]);
    if (sequence !== journal.sequence) return;
    for (const visit of visits) if (visit.device) knowDevice(visit.device);
    journal.trips = trips;
    journal.labels = labels;
    drawJournal(visits, trips);
    if (window.TravelogJournalMap) window.TravelogJournalMap.drawLabels(labels);
    showJournalList(visits);
    if (TravelogLayers.usesTiles(state.range) && stats.total) {
      // A range drawn by tiles has no path request: its distance comes from the statistics.
      update({ distanceMeters: stats.total.distanceMeters, locationCount: stats.total.locations });
    }
    showStatistics(whereabouts, stats, statsPeriod());
    renderTimeline($('timeline'), visits, trips, units(), state.range.from !== state.range.to);
    listLabels($('timeline'), journal.labels || []);
    showPhotos();
    TravelogRegions.showTransitions(range);
    refreshPendingTrips(sequence, range, visits, 0);
  } catch (error) {
    if (error.status !== 401 && sequence === journal.sequence) {
      showStatus(`The journal could not be loaded: ${error.message}`, true);
    }
  } finally {
    if (sequence === journal.sequence) $('journal').setAttribute('aria-busy', 'false');
  }
}

/** Trips not matched to the roads yet are matched in the background: read again a few seconds
 * later (at most PENDING_TRIP_READS times) and drawn on the roads once they are. */
const PENDING_TRIP_READS = 5;
const PENDING_TRIP_DELAY_MS = 2000;
function refreshPendingTrips(sequence, range, visits, reads) {
  if (reads >= PENDING_TRIP_READS || !journal.trips.some((trip) => trip.roadsStatus === 'pending')) return;
  setTimeout(async () => {
    if (sequence !== journal.sequence) return;
    try {
      const trips = await api(`/api/v1/trips?${range}`);
      if (sequence !== journal.sequence) return;
      journal.trips = trips;
      drawJournal(visits, trips);
      renderTimeline($('timeline'), visits, trips, units(), state.range.from !== state.range.to);
      listLabels($('timeline'), journal.labels || []);
      refreshPendingTrips(sequence, range, visits, reads + 1);
    } catch (error) {
      // The next load of the journal reads them again.
    }
  }, PENDING_TRIP_DELAY_MS);
}

export function statsPeriod() {
  const days = daysBetween(state.range.from, state.range.to) + 1;
  return days > 400 ? 'year' : days > 90 ? 'month' : days > 31 ? 'week' : 'day';
}

function visitTimes(visit) {
  const day = visit.localArrival.slice(0, 10);
  // clock: the page's one clock format, at the place's wall time (timeline.js).
  const end = visit.localDeparture ? `–${clock(visit.localDeparture, visit.localArrival)}` : ' (ongoing)';
  return `${day} ${clock(visit.localArrival)}${end}`;
}

/** "‘Café’ 10:02–10:40": an entry as the menu names it. */
function visitLabel(visit) {
  const end = visit.localDeparture ? `–${clock(visit.localDeparture, visit.localArrival)}` : '';
  return `‘${visit.place}’ ${clock(visit.localArrival)}${end}`;
}

function drawJournal(visits, trips) {
  TravelogJournalMap.draw(visits, trips,
    (trip) => `${trip.mode}, ${formatDistance(trip.distanceMeters)}, ${durationText(trip.durationSeconds)}`, visitCallout);
}

/** A pin's callout: title, its address (when the title does not say it), local times, duration, and the entry's menu. */
function visitCallout(visit) {
  const box = element('div', 'callout');
  const title = element('strong', '', visit.place);
  const times = element('div', '', `${visitTimes(visit)} · ${durationText(visit.durationSeconds)}`);
  const address = placeSubtitle(visit);
  box.append(title, ...(address ? [element('div', 'place-address', address)] : []), times, visitMenu(visit));
  return box;
}

/** The entry after this one in the person's journal, of whichever device (the server merges
 * entries of several devices into one). */
function nextVisit(visit) {
  return journal.visits.find((other) => other.id !== visit.id && other.arrival > visit.arrival) || null;
}

/** An entry as an end of the Directions panel (directions.js). */
function visitPlace(visit) {
  return { latitude: visit.latitude, longitude: visit.longitude, label: visit.place };
}

/** One button per entry opening a small menu of its actions (keyboard: Enter/Space opens, arrows move, Escape closes). */
function visitMenu(visit) {
  const wrapper = element('div', 'entry-menu');
  const toggle = element('button', 'menu-button', '⋯');
  toggle.type = 'button';
  toggle.setAttribute('aria-haspopup', 'menu');
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-label', `Actions for ${visit.place}`);
  const menu = element('div', 'menu');
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  const next = nextVisit(visit);
  const items = [['rename', 'Rename…', renameVisit]];
  if (next) items.push(['merge', `Merge ${visitLabel(visit)} with ${visitLabel(next)}`, mergeVisit]);
  items.push(['delete', 'Delete…', deleteVisit]);
  if (visit.placeID !== null && visit.placeID !== undefined) items.push(['name-place', 'Name this place…', namePlace]);
  items.push(['directions-from', 'Directions from here', (entry) => openDirections({ from: visitPlace(entry) })]);
  items.push(['directions-to', 'Directions to here', (entry) => openDirections({ to: visitPlace(entry) })]);
  const trip = journal.trips.find((leaving) => leaving.fromVisit === visit.id);
  if (trip) {
    const label = `Trip ${clock(trip.localStart)}–${clock(trip.localEnd, trip.localStart)} from ${visit.place}`;
    items.push(['show-on-roads', 'Show the trip from here on roads', () => showTripOnRoads(trip, label)]);
  }
  for (const [name, label, handler] of items) {
    const item = element('button', '', label);
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.tabIndex = -1;
    item.dataset.action = name;
    item.addEventListener('click', () => { close(); handler(visit); });
    menu.append(item);
  }
  function close() {
    menu.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
  }
  function open() {
    for (const other of document.querySelectorAll('.entry-menu .menu:not([hidden])')) {
      other.hidden = true;
      other.previousElementSibling.setAttribute('aria-expanded', 'false');
    }
    menu.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    menu.firstElementChild.focus();
  }
  toggle.addEventListener('click', () => (menu.hidden ? open() : close()));
  menu.addEventListener('keydown', (event) => {
    const buttons = [...menu.children];
    const index = buttons.indexOf(document.activeElement);
    if (event.key === 'Escape') { close(); toggle.focus(); event.preventDefault(); }
    if (event.key === 'ArrowDown') { buttons[(index + 1) % buttons.length].focus(); event.preventDefault(); }
    if (event.key === 'ArrowUp') { buttons[(index - 1 + buttons.length) % buttons.length].focus(); event.preventDefault(); }
  });
  menu.addEventListener('focusout', (event) => {
    if (!wrapper.contains(event.relatedTarget)) close();
  });
  wrapper.append(toggle, menu);
  return wrapper;
}

/** A snapshot per day of a short range, above the journal's entries. */
export function showDayThumbnails() {
  const days = $('journal-days');
  days.replaceChildren();
  const total = daysBetween(state.range.from, state.range.to) + 1;
  if (total > 14) return;
  for (let index = 0; index < total; index += 1) {
    const day = addDays(state.range.from, index);
    const figure = document.createElement('figure');
    const image = document.createElement('img');
    image.loading = 'lazy';
    image.alt = `Map of ${day}`;
    image.src = TravelogLayers.dayThumbnailURL(day, timeZone);
    const caption = element('figcaption', '', day);
    figure.append(image, caption);
    days.append(figure);
  }
}

function showJournalList(visits) {
  journal.visits = visits;
  const list = $('journal');
  list.replaceChildren();
  for (const visit of [...visits].reverse()) {
    const item = document.createElement('li');
    item.dataset.visitId = String(visit.id);
    const title = element('button', 'place', visit.place);
    title.type = 'button';
    title.setAttribute('aria-label', `${visit.place}: show on the map`);
    const times = element('span', 'muted', ` ${visitTimes(visit)} · ${durationText(visit.durationSeconds)}`);
    title.addEventListener('click', () => showOnMap(visit.latitude, visit.longitude));
    const address = placeSubtitle(visit);
    item.append(title, visitMenu(visit), ...(address ? [element('span', 'place-address', address)] : []), times);
    list.append(item);
  }
  $('journal-note').textContent = visits.length ? '' : 'No visits in these days yet.';
}

/** Thumbnails an entry shows before its "+N". */
const PHOTOS_PER_ENTRY = 4;

/** The loaded photos (photos.js) in the timeline at their times, and under each entry those taken
 * during its visit; again whenever the photos change (`travelog:photos`). `li[data-photo-count]`. */
function showPhotos() {
  const taken = loadedPhotos();
  listPhotos($('timeline'), taken, (photo) => photoThumb(photo, `Photo, ${new Date(photo.time).toLocaleString()}`),
    journal.visits, journal.trips);
  // By time, each read once; a visit's photos are then found by halving (a year of photos, hundreds of visits).
  const timed = photosByInstant(taken);
  for (const visit of journal.visits) {
    const item = $('journal').querySelector(`li[data-visit-id="${visit.id}"]`);
    if (!item) continue;
    for (const old of item.querySelectorAll('.entry-photos')) old.remove();
    const from = Date.parse(visit.arrival);
    const to = visit.departure ? Date.parse(visit.departure) : Infinity;  // still there
    let low = 0;
    let high = timed.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (timed[middle][0] < from) low = middle + 1; else high = middle;
    }
    const during = [];
    for (let index = low; index < timed.length && timed[index][0] <= to; index += 1) during.push(timed[index][1]);
    item.dataset.photoCount = String(during.length);
    if (!during.length) continue;
    const row = element('div', 'entry-photos');
    for (const photo of during.slice(0, PHOTOS_PER_ENTRY)) {
      row.append(photoThumb(photo, `Photo at ${visit.place}, ${new Date(photo.time).toLocaleString()}`));
    }
    if (during.length > PHOTOS_PER_ENTRY) row.append(element('span', 'muted', `+${during.length - PHOTOS_PER_ENTRY}`));
    item.append(row);
  }
}

document.addEventListener('travelog:photos', () => { if (journal.visits) showPhotos(); });

/** Makes a change, says so with an Undo for UNDO_MILLISECONDS when `undo` is given, and reloads. */
async function editJournal(request, done, undo) {
  try {
    const answer = await request();
    showStatus(done, false);
    drawn.map.closePopup();
    if (undo) offerUndo(done, () => undo(answer));
    await loadJournal();
  } catch (error) {
    if (error.status !== 401) showStatus(`The journal could not be changed: ${error.message}`, true);
  }
}

function offerUndo(message, undo) {
  const toast = $('toast');
  $('toast-text').textContent = message;
  toast.hidden = false;
  window.clearTimeout(journal.undoTimer);
  const button = $('toast-undo');
  const fresh = button.cloneNode(true);  // drop the previous change's handler
  button.replaceWith(fresh);
  fresh.addEventListener('click', async () => {
    toast.hidden = true;
    window.clearTimeout(journal.undoTimer);
    try {
      await undo();
      showStatus('Undone.', false);
      await loadJournal();
    } catch (error) {
      if (error.status !== 401) showStatus(`The change could not be undone: ${error.message}`, true);
    }
  });
  journal.undoTimer = window.setTimeout(() => { toast.hidden = true; }, UNDO_MILLISECONDS);
}

function patchVisit(id, body) {
  return api(`/api/v1/visits/${id}`, jsonRequest('PATCH', body));
}

function renameVisit(visit) {
  const title = window.prompt('A title for this entry (empty for none)', visit.place);
  if (title === null) return;
  // Undo gives back the title shown before (the API does not say whether it was the person's own).
  editJournal(() => patchVisit(visit.id, { title }), 'Entry renamed.', () => patchVisit(visit.id, { title: visit.place }));
}

function deleteVisit(visit) {
  if (!window.confirm(`Delete ${visitLabel(visit)}?`)) return;
  editJournal(() => api(`/api/v1/visits/${visit.id}`, { method: 'DELETE' }), 'Entry deleted.',
    () => patchVisit(visit.id, { deleted: false }));
}

function mergeVisit(visit) {
  const next = nextVisit(visit);
  if (!next) { showStatus('There is no later entry to merge with.', true); return; }
  if (!window.confirm(`Merge ${visitLabel(visit)} with ${visitLabel(next)}?`)) return;
  editJournal(() => api('/api/v1/visits/merge', jsonRequest('POST', { ids: [visit.id, next.id] })), 'Entries merged.',
    (merged) => patchVisit(merged && merged.id !== undefined ? merged.id : visit.id, { merged: false }));
}

function namePlace(visit) {
  const name = window.prompt('A name for this place (its visits carry it)', visit.place);
  if (name === null) return;
  editJournal(() => api(`/api/v1/places/${visit.placeID}`, jsonRequest('PATCH', { name })), 'Place named.');
}

export function bindJournal() {
  $('toast-close').addEventListener('click', () => { $('toast').hidden = true; });
}
