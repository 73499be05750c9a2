// Travelog's timeline: an ES module that journal.js calls once the journal of a range is loaded.
//
// The timeline lists visits and trips in time order, as Google Timeline does: times in the
// place's own zone (the offset the API wrote), durations, the trip's mode and distance. Where the
// device recorded nothing for longer than the journal trusts (a gap), the timeline says so instead
// of inventing a stay or a trip. A range of more than a day writes the date on every row. The
// trips' colours are the map's and the legend's (colors.js).
import { modeColor } from './colors.js';

/** A silence longer than this between two entries is a gap, seconds (the journal's bound). */
const GAP_SECONDS = 18 * 3600;

/** The page's one clock format: the browser's locale ("08:00", "8:00 AM"), hours and minutes. */
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** The wall clock at the place, from an ISO time with the place's offset: its local date and time
 * are read as if they were UTC and formatted in UTC, so the browser's own zone never shifts them. */
function wallClock(iso) { return iso ? CLOCK.format(new Date(`${iso.slice(0, 16)}:00Z`)) : ''; }

/** "08:00", or "3 Jun 08:00" when the day differs from `sameDayAs` (an end after its start). */
export function clock(iso, sameDayAs) {
  if (!iso) return '';
  if (!sameDayAs || iso.slice(0, 10) === sameDayAs.slice(0, 10)) return wallClock(iso);
  const day = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  const label = day.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return `${label} ${wallClock(iso)}`;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return 'ongoing';
  const minutes = Math.round(seconds / 60);
  if (minutes >= 48 * 60) return `${Math.floor(minutes / 1440)} d ${Math.floor((minutes % 1440) / 60)} h`;
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

function distance(meters, units) {
  return units === 'imperial' ? `${(meters / 1609.344).toFixed(2)} mi` : `${(meters / 1000).toFixed(2)} km`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Visits and trips in time order, with gaps where consecutive entries are too far apart. */
function entries(visits, trips) {
  const items = visits.map((visit) => ({ kind: 'visit', start: Date.parse(visit.arrival),
    end: visit.departure ? Date.parse(visit.departure) : null, visit }))
    .concat(trips.map((trip) => ({ kind: 'trip', start: Date.parse(trip.start), end: Date.parse(trip.end), trip })))
    .sort((a, b) => a.start - b.start || (a.kind === 'visit' ? -1 : 1));
  const result = [];
  for (const item of items) {
    const previous = result[result.length - 1];
    if (previous && previous.end !== null && (item.start - previous.end) / 1000 > GAP_SECONDS) {
      result.push({ kind: 'gap', start: previous.end, end: item.start });
    }
    result.push(item);
  }
  return result;
}

/** Draws the timeline; `units` is 'metric' or 'imperial'; `withDates` writes each row's date. */
export function renderTimeline(container, visits, trips, units, withDates) {
  container.replaceChildren();
  const items = entries(visits, trips);
  container.dataset.visitCount = String(visits.length);
  container.dataset.tripCount = String(trips.length);
  container.dataset.gapCount = String(items.filter((item) => item.kind === 'gap').length);
  if (!items.length) {
    container.append(element('li', 'timeline-empty muted', 'No visits or trips in this range.'));
    return;
  }
  for (const item of items) {
    const row = element('li', `timeline-${item.kind}`);
    // Where rows added later (region transitions, labels) go: before the first that starts after them.
    row.dataset.start = new Date(item.start).toISOString();
    if (withDates) row.append(element('span', 'timeline-date', rowDate(item)));
    if (item.kind === 'visit') {
      const visit = item.visit;
      row.append(element('span', 'timeline-time',
        `${clock(visit.localArrival)}–${visit.localDeparture ? clock(visit.localDeparture, visit.localArrival) : '…'}`));
      row.append(element('strong', 'timeline-place', visit.place));
      row.append(element('span', 'timeline-detail muted', duration(visit.durationSeconds)));
    } else if (item.kind === 'trip') {
      const trip = item.trip;
      row.dataset.mode = trip.mode;
      row.style.setProperty('--mode', modeColor(trip.mode));
      row.append(element('span', 'timeline-time', `${clock(trip.localStart)}–${clock(trip.localEnd, trip.localStart)}`));
      row.append(element('span', 'timeline-mode', trip.mode === 'unknown' ? 'moving' : trip.mode));
      row.append(element('span', 'timeline-detail muted',
        `${distance(trip.distanceMeters, units)} · ${duration(trip.durationSeconds)}`));
      // The trip matched to the roads (in the background): its length on them and the streets in order.
      if (trip.roadsStatus === 'matched' && trip.matchedDistance !== null && trip.matchedDistance !== undefined) {
        const streets = (trip.roads || []).join(' → ');
        row.append(element('span', 'timeline-roads muted',
          `${distance(trip.matchedDistance, units)} on roads${streets ? `: ${streets}` : ''}`));
      }
    } else {
      const format = (time) => new Date(time).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
      row.append(element('span', 'timeline-time', `${format(item.start)} – ${format(item.end)}`));
      row.append(element('span', 'timeline-gap-label', 'no data'));
      row.append(element('span', 'timeline-detail muted', duration((item.end - item.start) / 1000)));
    }
    container.append(row);
  }
}

const LABEL_KINDS = { poi: 'POI', tag: 'Tag', waypoint: 'Waypoint' };

/** The labels people put on fixes (GET /api/v1/labels): a row each at its time, among the visits
 * and trips, in the place's time as the visits are (the browser's when the server does not know the
 * place's zone). `#timeline[data-label-count]`. */
export function listLabels(container, labels) {
  for (const old of container.querySelectorAll('.timeline-label')) old.remove();
  for (const label of labels) {
    const start = new Date(label.time);
    const row = element('li', 'timeline-label');
    row.dataset.start = start.toISOString();
    const wall = label.localTime || new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    row.append(element('span', 'timeline-time', clock(wall)),
      element('strong', 'timeline-label-text', label.text),
      element('span', 'timeline-detail muted', `${LABEL_KINDS[label.kind] || label.kind} · ${label.device}`));
    const later = [...container.children].find((item) => item.dataset.start && item.dataset.start > row.dataset.start);
    container.insertBefore(row, later || null);
  }
  container.dataset.labelCount = String(labels.length);
}

/** A photo's instant, ms: `at` when it came from /api/v1/photos/times, else its ISO `time`; NaN without one. */
export function photoInstant(photo) {
  if (photo.at !== undefined) return photo.at;
  return photo.time ? Date.parse(photo.time) : NaN;
}

/** The photos with an instant as [instant, photo], by instant: each read once (100,000 photos sorted by
 * parsing their ISO times on each comparison took a quarter of a second). */
export function photosByInstant(photos) {
  const timed = [];
  for (const photo of photos) {
    const at = photoInstant(photo);
    if (Number.isFinite(at)) timed.push([at, photo]);
  }
  return timed.sort((a, b) => a[0] - b[0]);
}

/** Photos less than this apart share a row of the timeline. */
const PHOTO_BURST_SECONDS = 10 * 60;
/** Thumbnails a row shows before its "+N". */
const PHOTOS_PER_ROW = 6;

/** The range's photos in the timeline (issue 32): a row per burst (photos less than
 * PHOTO_BURST_SECONDS apart) at its first photo's time, among the visits and trips, with up to
 * PHOTOS_PER_ROW thumbnails (`thumb(photo)` makes each, photos.js's opens the viewer) and the count
 * of the rest. Times in the place's clock of the visit or trip around them (`visits`, `trips`), else the
 * browser's. `#timeline[data-photo-rows]`. */
export function listPhotos(container, photos, thumb, visits = [], trips = []) {
  // The place's offset at an instant: that of the last visit or trip begun by then (its local ISO time
  // against its instant), so a burst reads in the same clock as the rows around it; else the browser's.
  const starts = visits.map((visit) => [Date.parse(visit.arrival), visit.localArrival])
    .concat(trips.map((trip) => [Date.parse(trip.start), trip.localStart]))
    .filter(([at, local]) => Number.isFinite(at) && local)
    .sort((a, b) => a[0] - b[0]);
  const wallAt = (at) => {
    let found = null;
    for (const start of starts) if (start[0] <= at) found = start;
    if (!found && starts.length) [found] = starts;
    if (!found) return new Date(at - new Date(at).getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    const offset = Date.parse(`${found[1].slice(0, 19)}Z`) - found[0];
    return new Date(at + offset).toISOString().slice(0, 16);
  };
  for (const old of container.querySelectorAll('.timeline-photos')) old.remove();
  const timed = photosByInstant(photos);
  const bursts = [];
  for (const [at, photo] of timed) {
    const last = bursts[bursts.length - 1];
    if (last && at - last.end <= PHOTO_BURST_SECONDS * 1000) {
      last.photos.push(photo);
      last.end = at;
    } else {
      bursts.push({ start: at, end: at, photos: [photo] });
    }
  }
  for (const burst of bursts) {
    const start = new Date(burst.start);
    const row = element('li', 'timeline-photos');
    row.dataset.start = start.toISOString();
    const wall = wallAt(burst.start);
    const count = burst.photos.length;
    row.append(element('span', 'timeline-time', clock(wall)),
      element('span', 'timeline-detail muted', count === 1 ? '1 photo' : `${count} photos`));
    const strip = element('span', 'timeline-photo-strip');
    for (const photo of burst.photos.slice(0, PHOTOS_PER_ROW)) strip.append(thumb(photo));
    if (count > PHOTOS_PER_ROW) strip.append(element('span', 'muted', `+${count - PHOTOS_PER_ROW}`));
    row.append(strip);
    const later = [...container.children].find((item) => item.dataset.start && item.dataset.start > row.dataset.start);
    container.insertBefore(row, later || null);
  }
  container.dataset.photoRows = String(bursts.length);
}

/** "Mon, 3 Jun 2024": the local day a row starts on (the place's, from its ISO time). */
function rowDate(item) {
  const iso = item.kind === 'visit' ? item.visit.localArrival : item.kind === 'trip' ? item.trip.localStart : null;
  const day = iso ? new Date(`${iso.slice(0, 10)}T00:00:00Z`) : new Date(item.start);
  return day.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric',
    timeZone: iso ? 'UTC' : undefined });
}

// The classic scripts (regions.js) write times with the page's one clock format.
window.TravelogTimeline = { clock };
