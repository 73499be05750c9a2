// Replay a day or a trip (issue 33): the chosen dates' fixes at full resolution (GET
// /api/v1/locations, every fix with its time, speed and altitude) played as they were travelled,
// 1× to 1000×, one marker per device in its colour, a time slider, pause, a jump to a visit, the
// current time, speed and altitude, and the map following the markers. Per frame it only moves the
// markers (a pointer that walks forward, a binary search after a seek) and a short trail; the
// map pans only when a marker leaves the middle of the view, so a day of 86,400 fixes plays at
// 1000× without redrawing the day's path each frame.
import { api, rangeQuery } from './api.js';
import { deviceColor } from './colors.js';
import { $ } from './dom.js';
import { formatDistanceAway, units } from './format.js';
import { drawn } from './map.js';
import { state, subscribe } from './state.js';

/** Speeds offered, real seconds played per second. */
const SPEEDS = [1, 10, 60, 100, 300, 1000];
/** Fixes drawn behind each marker. */
const TRAIL_FIXES = 120;
/** Fixes further apart than this are not joined: the marker waits at the last one. */
const GAP_MILLISECONDS = 3600 * 1000;
/** The readout is written at most this often. */
const READOUT_MILLISECONDS = 100;
/** The most fixes read for a replay (the read API's limit). */
const FIX_LIMIT = 1000000;
/** The clock as the readout shows it (made once: a formatter costs more than a frame's work). */
const CLOCK_FORMAT = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
});

const replay = {
  /** Device name → {times: Float64Array, lats, lons, speeds, alts, index, marker, trail}. */
  tracks: new Map(),
  start: 0,
  end: 0,
  /** The instant shown, ms since 1970. */
  clock: 0,
  speed: 60,
  playing: false,
  frame: null,
  lastFrame: null,
  lastReadout: 0,
  visits: [],
  trips: [],
  layer: null,
  renderer: null,
};

/** Loads the chosen dates' fixes, visits and trips. */
async function load() {
  if (!state.range || !drawn.map) return;
  stop();
  clear();
  $('replay-status').textContent = 'Loading the fixes…';
  try {
    const range = rangeQuery();
    const [fixes, visits, trips] = await Promise.all([
      api(`/api/v1/locations?${rangeQuery({ limit: FIX_LIMIT })}`), api(`/api/v1/visits?${range}`), api(`/api/v1/trips?${range}`),
    ]);
    build(fixes.features || []);
    replay.visits = visits.filter((visit) => !visit.hidden);
    replay.trips = trips;
    fillChoices();
    if (replay.tracks.size === 0) {
      $('replay-status').textContent = 'No fixes on these dates.';
      return;
    }
    chooseStretch('day');
    $('replay-controls').hidden = false;
    $('replay-status').textContent = `${new Intl.NumberFormat().format(fixes.features.length)} fixes of `
      + `${replay.tracks.size} ${replay.tracks.size === 1 ? 'device' : 'devices'}.`;
    $('replay').dataset.fixes = String(fixes.features.length);
  } catch (error) {
    if (error.status !== 401) $('replay-status').textContent = `The fixes could not be loaded: ${error.message}`;
  }
}

/** Columns per device, in time order (the read API answers oldest first). */
function build(features) {
  const byDevice = new Map();
  for (const feature of features) {
    const device = feature.properties.device || '';
    if (!byDevice.has(device)) byDevice.set(device, []);
    byDevice.get(device).push(feature);
  }
  replay.layer = L.layerGroup().addTo(drawn.map);
  // The markers and trails on a canvas of their own: moving them redraws only them, never the
  // day's path on the map's shared canvas.
  if (!replay.renderer) {
    drawn.map.createPane('replay');
    drawn.map.getPane('replay').style.zIndex = 650;
    replay.renderer = L.canvas({ pane: 'replay', padding: 0.2 });
  }
  for (const [device, list] of byDevice) {
    const count = list.length;
    const track = {
      times: new Float64Array(count), lats: new Float64Array(count), lons: new Float64Array(count),
      speeds: new Float64Array(count), alts: new Float64Array(count), index: 0,
    };
    list.forEach((feature, i) => {
      const [lon, lat] = feature.geometry.coordinates;
      const p = feature.properties;
      track.times[i] = Date.parse(p.timestamp);
      track.lats[i] = lat;
      track.lons[i] = lon;
      track.speeds[i] = typeof p.speed === 'number' ? p.speed : NaN;
      track.alts[i] = typeof p.altitude === 'number' ? p.altitude : NaN;
    });
    const color = deviceColor(device, [...state.devices, ...byDevice.keys()]);
    track.trail = L.polyline([], { color, weight: 5, opacity: 0.9, interactive: false, renderer: replay.renderer }).addTo(replay.layer);
    track.marker = L.circleMarker([track.lats[0], track.lons[0]], {
      radius: 8, color: '#fff', weight: 3, fillColor: color, fillOpacity: 1, interactive: false, renderer: replay.renderer,
    }).addTo(replay.layer);
    track.device = device;
    replay.tracks.set(device, track);
  }
}

function clear() {
  if (replay.layer) replay.layer.remove();
  replay.layer = null;
  replay.tracks.clear();
  $('replay-controls').hidden = true;
}

/** The stretch choices (the day, each trip) and the visits to jump to. */
function fillChoices() {
  const stretch = $('replay-stretch');
  stretch.replaceChildren(new Option('The whole day', 'day'));
  replay.trips.forEach((trip, index) => {
    const label = `Trip ${trip.localStart.slice(11, 16)}–${trip.localEnd.slice(11, 16)} · ${trip.mode} · ${formatDistanceAway(trip.distanceMeters)}`;
    stretch.append(new Option(label, String(index)));
  });
  const jump = $('replay-jump');
  jump.replaceChildren(new Option('Jump to a visit…', ''));
  replay.visits.forEach((visit, index) => {
    const option = new Option(`${visit.localArrival.slice(11, 16)} ${visit.place}`, String(index));
    option.dataset.arrival = visit.arrival;
    jump.append(option);
  });
}

/** Plays the whole loaded day, or one trip. */
function chooseStretch(value) {
  let start = Infinity, end = -Infinity;
  for (const track of replay.tracks.values()) {
    start = Math.min(start, track.times[0]);
    end = Math.max(end, track.times[track.times.length - 1]);
  }
  const trip = value === 'day' ? null : replay.trips[Number(value)];
  if (trip) {
    start = Date.parse(trip.start);
    end = Date.parse(trip.end);
  }
  replay.start = start;
  replay.end = Math.max(end, start + 1);
  seek(start);
  if (trip) drawn.map.fitBounds(L.latLngBounds(trip.coordinates.map(([lon, lat]) => [lat, lon])).pad(0.1), { animate: false });
}

function play() {
  if (replay.tracks.size === 0) return;
  if (replay.clock >= replay.end) seek(replay.start);
  replay.playing = true;
  replay.lastFrame = null;
  $('replay-play').textContent = 'Pause';
  $('replay-play').setAttribute('aria-pressed', 'true');
  $('replay').dataset.playing = 'true';
  replay.frame = requestAnimationFrame(tick);
}

function stop() {
  replay.playing = false;
  if (replay.frame) cancelAnimationFrame(replay.frame);
  replay.frame = null;
  $('replay-play').textContent = 'Play';
  $('replay-play').setAttribute('aria-pressed', 'false');
  $('replay').dataset.playing = 'false';
}

function tick(now) {
  if (!replay.playing) return;
  if (replay.lastFrame !== null) replay.clock += (now - replay.lastFrame) * replay.speed;
  replay.lastFrame = now;
  if (replay.clock >= replay.end) {
    replay.clock = replay.end;
    show(true);
    stop();
    return;
  }
  show(false);
  replay.frame = requestAnimationFrame(tick);
}

/** Moves to an instant (the slider, a visit, a stretch's start). */
function seek(time) {
  replay.clock = Math.min(Math.max(time, replay.start), replay.end);
  for (const track of replay.tracks.values()) track.index = Math.max(0, upperBound(track.times, replay.clock) - 1);
  show(true);
}

/** The index of the first time after `time`. */
function upperBound(times, time) {
  let low = 0, high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle] <= time) low = middle + 1; else high = middle;
  }
  return low;
}

/** Places the markers at the clock, writes the readout, keeps the markers in view. */
function show(force) {
  const clock = replay.clock;
  let lead = null;
  for (const track of replay.tracks.values()) {
    const { times } = track;
    while (track.index + 1 < times.length && times[track.index + 1] <= clock) track.index += 1;
    const i = track.index, next = Math.min(i + 1, times.length - 1);
    let lat = track.lats[i], lon = track.lons[i];
    if (next !== i && clock > times[i] && times[next] - times[i] < GAP_MILLISECONDS) {
      const f = (clock - times[i]) / (times[next] - times[i]);
      lat += (track.lats[next] - lat) * f;
      lon += (track.lons[next] - lon) * f;
    }
    track.marker.setLatLng([lat, lon]);
    const from = Math.max(0, i - TRAIL_FIXES);
    const trail = [];
    for (let k = from; k <= i; k += 1) trail.push([track.lats[k], track.lons[k]]);
    trail.push([lat, lon]);
    track.trail.setLatLngs(trail);
    track.position = [lat, lon];
    if (!lead || (times[0] <= clock && clock <= times[times.length - 1])) lead = track;
  }
  if (lead && $('replay-follow').checked) follow(lead.position);
  const wall = performance.now();
  // The slider and the readout at most every READOUT_MILLISECONDS: the panel is not laid out every frame.
  if (force || wall - replay.lastReadout >= READOUT_MILLISECONDS) {
    replay.lastReadout = wall;
    const slider = $('replay-slider');
    slider.value = String(Math.round(((clock - replay.start) / (replay.end - replay.start)) * Number(slider.max)));
    readout(lead);
  }
}

/** Pans when the marker leaves the middle 60 % of the view. */
function follow(position) {
  const map = drawn.map;
  const size = map.getSize();
  const point = map.latLngToContainerPoint(position);
  if (point.x < size.x * 0.2 || point.x > size.x * 0.8 || point.y < size.y * 0.2 || point.y > size.y * 0.8) {
    map.panTo(position, { animate: false });
  }
}

/** The time, speed and altitude of the fix behind the marker. */
function readout(track) {
  const time = CLOCK_FORMAT.format(new Date(replay.clock));
  let speed = '–', altitude = '–';
  if (track) {
    const i = track.index, next = Math.min(i + 1, track.times.length - 1);
    let metersPerSecond = track.speeds[i];
    if (Number.isNaN(metersPerSecond) && next !== i && track.times[next] - track.times[i] < GAP_MILLISECONDS) {
      const a = L.latLng(track.lats[i], track.lons[i]), b = L.latLng(track.lats[next], track.lons[next]);
      metersPerSecond = a.distanceTo(b) / Math.max(0.001, (track.times[next] - track.times[i]) / 1000);
    }
    if (!Number.isNaN(metersPerSecond)) {
      speed = units() === 'imperial' ? `${(metersPerSecond * 2.236936).toFixed(1)} mph` : `${(metersPerSecond * 3.6).toFixed(1)} km/h`;
    }
    if (!Number.isNaN(track.alts[i])) {
      altitude = units() === 'imperial' ? `${Math.round(track.alts[i] / 0.3048)} ft` : `${Math.round(track.alts[i])} m`;
    }
  }
  $('replay-time').textContent = time;
  $('replay-speed-now').textContent = speed;
  $('replay-altitude').textContent = altitude;
  $('replay').dataset.clock = new Date(replay.clock).toISOString();
}

function bindReplay() {
  const speed = $('replay-speed');
  for (const value of SPEEDS) speed.append(new Option(`${value}×`, String(value)));
  speed.value = String(replay.speed);
  speed.addEventListener('change', () => { replay.speed = Number(speed.value); });
  $('replay-load').addEventListener('click', load);
  $('replay-play').addEventListener('click', () => (replay.playing ? stop() : play()));
  $('replay-slider').addEventListener('input', (event) => {
    const slider = event.target;
    seek(replay.start + (Number(slider.value) / Number(slider.max)) * (replay.end - replay.start));
  });
  $('replay-stretch').addEventListener('change', (event) => { stop(); chooseStretch(event.target.value); });
  $('replay-jump').addEventListener('change', (event) => {
    const visit = replay.visits[Number(event.target.value)];
    event.target.value = '';
    if (!visit) return;
    // A visit outside the stretch played: the whole day again.
    const arrival = Date.parse(visit.arrival);
    if (arrival < replay.start || arrival > replay.end) { $('replay-stretch').value = 'day'; chooseStretch('day'); }
    seek(arrival);
    drawn.map.panTo([visit.latitude, visit.longitude], { animate: false });
  });
  // Other dates: the loaded fixes are not theirs any more.
  subscribe((current, changed) => {
    if ('range' in changed && replay.tracks.size > 0) {
      stop();
      clear();
      $('replay-status').textContent = '';
    }
  });
  window.addEventListener('keydown', (event) => {
    if (event.key === ' ' && replay.tracks.size > 0 && document.activeElement && document.activeElement.closest('#replay')) {
      event.preventDefault();
      if (replay.playing) stop(); else play();
    }
  });
}

bindReplay();
