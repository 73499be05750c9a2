// The map: the path of the chosen dates (GET /api/v1/path, simplified by the server for the map's
// zoom, so the page only ever holds what it draws), or for a range drawn by the server's tiles
// (layers.js) only its bounds (GET /api/v1/tiles/bounds); the current position; live locations
// appended to the drawn lines. `#map[data-point-count]` is the number of path points drawn, for tests.
import './journal-map.js';
import { api, rangeQuery } from './api.js';
import { deviceColor } from './colors.js';
import { $, showStatus, textContent } from './dom.js';
import { formatTime } from './format.js';
import { state, update } from './state.js';

/** A pause longer than this breaks the line, as on the server (PathBuilder.segmentGapSeconds). */
const SEGMENT_GAP_MILLISECONDS = 3600 * 1000;
/** The path is requested again when the map's zoom moves further than this from the zoom it was simplified for. */
const ZOOM_SLACK = 1;
/** Zoom of the first path request, before the map knows where the path is. */
const FIRST_ZOOM = 12;

/** What the map draws (Leaflet's objects; not the page's state, which the views render from). */
export const drawn = {
  map: null,
  tiles: null,
  pathGroup: null,
  /** Device name → {color, lines: [L.Polyline], lastTime: ms | null}. */
  tracks: new Map(),
  pointCount: 0,
  /** The zoom the drawn path was simplified for. */
  pathZoom: null,
  /** Whether the map has been moved to a path yet (the first request then uses the map's zoom). */
  placed: false,
  pathAbort: null,
  /** The bounds request of a range drawn by tiles. */
  boundsAbort: null,
  /** Live locations that arrived while the path was being requested. */
  pathBacklog: null,
  tiledBounds: null,
  /** The positioned photos of the range (photos.js), placing the map when there is no path. */
  photoBounds: null,
  current: null,
};

export function ensureMap(info) {
  if (!drawn.map) {
    // maxZoom: the pins' clustering needs it before any tile layer gives one.
    drawn.map = L.map('map', { preferCanvas: true, worldCopyJump: true, maxZoom: 19 }).setView([20, 0], 2);
    drawn.pathGroup = L.featureGroup().addTo(drawn.map);
    TravelogJournalMap.attach(drawn.map);
    TravelogLayers.addOfflineBase(drawn.map);
    drawn.map.attributionControl.addAttribution(
      'Places: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)');
    drawn.map.on('zoomend', onZoomEnd);
    // For tests: the view the map shows (`#map[data-zoom]`, `#map[data-bounds]` west,south,east,north).
    drawn.map.on('moveend', () => {
      $('map').dataset.zoom = String(drawn.map.getZoom());
      $('map').dataset.bounds = drawn.map.getBounds().toBBoxString();
    });
    TravelogRegions.attach(drawn.map, api);
    // The map's box changes size with the layout (a phone turned, the panel shown): keep Leaflet in step.
    if ('ResizeObserver' in window) new ResizeObserver(() => drawn.map.invalidateSize()).observe($('map'));
  } else {
    drawn.map.invalidateSize();
  }
  if (drawn.tiles) drawn.tiles.remove();
  // Tiles that fail to load leave the map blank; nothing else depends on them.
  drawn.tiles = L.tileLayer(info.tileURLTemplate, { attribution: info.tileAttribution, maxZoom: 19 })
    .addTo(drawn.map);
}

function onZoomEnd() {
  if (drawn.pathZoom === null || !state.range || drawn.pathAbort) return;
  if (Math.abs(Math.round(drawn.map.getZoom()) - drawn.pathZoom) > ZOOM_SLACK) loadPath({ place: false });
}

/** Makes a device known to the page (the legend, the device filter). */
export function knowDevice(device) {
  if (!state.devices.includes(device)) update({ devices: [...state.devices, device].sort() });
}

/** A device's drawn lines; `tiled` when the server's tiles draw it (in the same colour, RenderColor.devicePalette). */
function track(device, tiled = false) {
  let found = drawn.tracks.get(device);
  if (!found) {
    knowDevice(device);
    found = { color: deviceColor(device, state.devices), lines: [], lastTime: null };
    drawn.tracks.set(device, found);
    TravelogJournalMap.setDevices([...drawn.tracks].map(([name, entry]) => [name, entry.color]));
  }
  return found;
}

function addLine(entry, latlngs, device) {
  const line = L.polyline(latlngs, { color: entry.color, weight: 4, opacity: 0.85 });
  line.bindTooltip(textContent(device), { sticky: true });
  line.addTo(drawn.pathGroup);
  entry.lines.push(line);
  return line;
}

function showPointCount() {
  $('map').dataset.pointCount = String(drawn.pointCount);
}

export function clearPath() {
  if (drawn.pathGroup) drawn.pathGroup.clearLayers();
  drawn.tracks.clear();
  if (drawn.map) TravelogJournalMap.setDevices([]);
  drawn.pointCount = 0;
  drawn.pathZoom = null;
  showPointCount();
}

/** Draws a path FeatureCollection (one MultiLineString per device), replacing what was drawn. */
function drawPath(collection, zoom) {
  clearPath();
  let total = 0;
  // Wide ranges and the heatmap are drawn by the server's tiles instead (loadTiledRange).
  drawn.tiledBounds = L.latLngBounds([]);
  for (const feature of collection.features) {
    const properties = feature.properties;
    const entry = track(properties.device);
    for (const coordinates of feature.geometry.coordinates) {
      addLine(entry, coordinates.map(([longitude, latitude]) => [latitude, longitude]), properties.device);
      total += coordinates.length;
    }
    entry.lastTime = properties.last ? Date.parse(properties.last) : null;
  }
  drawn.pointCount = total;
  drawn.pathZoom = zoom;
  showPointCount();
  update({ distanceMeters: collection.properties.distanceMeters, locationCount: collection.properties.rawPointCount });
}

/** Appends a live location to its device's line; only the new point is drawn. */
export function appendToPath(device, location) {
  if (drawn.pathBacklog) { drawn.pathBacklog.push({ device, location }); return; }
  if (state.hiddenDevices.has(device)) return;
  const time = Date.parse(location.timestamp);
  const entry = track(device);
  // An older fix than the line's end belongs inside the line: the next request draws it there.
  if (entry.lastTime !== null && time <= entry.lastTime) return;
  const latlng = [location.latitude, location.longitude];
  const line = entry.lines[entry.lines.length - 1];
  if (!line || entry.lastTime === null || time - entry.lastTime > SEGMENT_GAP_MILLISECONDS) {
    addLine(entry, [latlng], device);
  } else {
    line.addLatLng(latlng);
  }
  entry.lastTime = time;
  drawn.pointCount += 1;
  showPointCount();
}

export async function loadPath({ place }) {
  if (drawn.pathAbort) drawn.pathAbort.abort();
  const abort = new AbortController();
  drawn.pathAbort = abort;
  drawn.pathBacklog = [];
  $('map').setAttribute('aria-busy', 'true');
  const zoom = drawn.placed ? Math.round(drawn.map.getZoom()) : FIRST_ZOOM;
  try {
    const collection = await api(`/api/v1/path?${rangeQuery({ zoom })}`, { signal: abort.signal });
    if (abort.signal.aborted) return;
    const backlog = drawn.pathBacklog;
    drawn.pathBacklog = null;
    drawPath(collection, zoom);
    for (const { device, location } of backlog) appendToPath(device, location);
    drawn.pathAbort = null;
    $('map').setAttribute('aria-busy', 'false');
    // Moving the map asks for the path again if the zoom changes much (onZoomEnd); so does a
    // zoom the person made while this request was under way.
    if (place) placeMap();
    else onZoomEnd();
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (drawn.pathAbort === abort) {
      drawn.pathAbort = null;
      drawn.pathBacklog = null;
      $('map').setAttribute('aria-busy', 'false');
    }
    if (error.status !== 401) showStatus(`The path could not be loaded: ${error.message}`, true);
  }
}

/** A range drawn by tiles: its bounds and count come from the tile index (cheap for any range),
 * the map moves there and the tiles show at once; `whenDrawn` is called once the tiles of the view
 * are drawn (the list and the journal, whose statistics read every fix and give the distance,
 * wait for it so they do not hold back the first draw). */
export async function loadTiledRange({ place, whenDrawn }) {
  if (drawn.pathAbort) drawn.pathAbort.abort();
  if (drawn.boundsAbort) drawn.boundsAbort.abort();
  drawn.pathAbort = null;
  drawn.pathBacklog = null;
  clearPath();
  TravelogLayers.clear();
  // Not known until the server answers: the previous range's bounds must not place this one (the
  // photos, arriving first, would leave the map where the last range was).
  drawn.tiledBounds = null;
  const abort = new AbortController();
  drawn.boundsAbort = abort;
  const range = state.range;
  $('map').setAttribute('aria-busy', 'true');
  try {
    const answer = await api(`/api/v1/tiles/bounds?${rangeQuery()}`, { signal: abort.signal });
    if (abort.signal.aborted) return;
    drawn.boundsAbort = null;
    const edges = answer.bounds;
    drawn.tiledBounds = edges ? L.latLngBounds([edges.south, edges.west], [edges.north, edges.east]) : L.latLngBounds([]);
    for (const device of answer.devices) if (!state.hiddenDevices.has(device)) track(device, true);  // the legend's devices
    update({ locationCount: answer.locationCount });
    // Without animation, so the tiles are asked for at the view they are drawn in.
    if (place) placeMap({ animate: false });
  } catch (error) {
    if (error.name === 'AbortError') return;
    if (drawn.boundsAbort === abort) drawn.boundsAbort = null;
    if (error.status !== 401) showStatus(`The range could not be placed: ${error.message}`, true);
  } finally {
    if (drawn.boundsAbort === null) $('map').setAttribute('aria-busy', 'false');
  }
  if (range !== state.range) return;
  // Placed (or not): the tiles of the view now, the rest after them.
  TravelogLayers.show(state.range, rangeQuery(), () => { if (range === state.range) whenDrawn(); });
}

/** A range drawn as a vector path: its tiles (for the heatmap and points layers) and the path. */
export function loadVectorRange({ place }) {
  if (drawn.boundsAbort) drawn.boundsAbort.abort();
  drawn.boundsAbort = null;
  TravelogLayers.show(state.range, rangeQuery());
  loadPath({ place });
}

/** Moves the map to the drawn path (or to the range's photos, or the current position, when the range has no path). */
export function placeMap({ animate = true } = {}) {
  let bounds = drawn.pathGroup.getBounds();
  if (!bounds.isValid() && drawn.tiledBounds) bounds = drawn.tiledBounds;
  // Dates with photos and no path: the photos (photos.js keeps their bounds).
  if (!bounds.isValid() && drawn.photoBounds) bounds = drawn.photoBounds;
  if (bounds.isValid()) {
    drawn.placed = true;
    // A zoom far from the one the path was simplified for asks for the path again (onZoomEnd).
    drawn.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 17, animate });
  } else if (drawn.current) {
    drawn.placed = true;
    drawn.map.setView(drawn.current.marker.getLatLng(), Math.max(drawn.map.getZoom(), 13));
  }
}

/** Centres the map on a place, closer in if it is far out. */
export function showOnMap(latitude, longitude) {
  drawn.map.setView([latitude, longitude], Math.max(drawn.map.getZoom(), 15));
}

/** A location feature (as the read API, the export and the live stream write it) as the page's plain object. */
export function fromFeature(feature) {
  const [longitude, latitude] = feature.geometry.coordinates;
  const properties = feature.properties;
  return { latitude, longitude, timestamp: properties.timestamp, accuracy: properties.accuracy };
}

export async function loadLatest() {
  try {
    const collection = await api('/api/v1/latest');
    let newest = null;
    for (const feature of collection.features) {
      const time = Date.parse(feature.properties.timestamp);
      if (!newest || time > newest.time) newest = { feature, time };
    }
    if (!newest) return;
    showCurrent(newest.feature.properties.device, fromFeature(newest.feature));
    if (!drawn.placed && drawn.pointCount === 0 && !drawn.pathAbort) placeMap();
  } catch (error) {
    if (error.status !== 401) showStatus(`The current position could not be loaded: ${error.message}`, true);
  }
}

/** The newest position of any device, as a dot with its accuracy; the map follows it when asked to. */
export function showCurrent(device, location) {
  const time = Date.parse(location.timestamp);
  if (drawn.current && drawn.current.time > time) return;
  const latlng = [location.latitude, location.longitude];
  const radius = typeof location.accuracy === 'number' && location.accuracy >= 0 ? location.accuracy : 0;
  const label = `Current position: ${device}, ${formatTime(time, true)}`
    + (radius > 0 ? `, within ${Math.round(radius)} m` : '');
  if (!drawn.current) {
    const circle = L.circle(latlng, { radius, color: '#1565c0', weight: 1, fillOpacity: 0.12, interactive: false });
    const marker = L.circleMarker(latlng, { radius: 7, color: '#fff', weight: 2, fillColor: '#1565c0', fillOpacity: 1 });
    circle.addTo(drawn.map);
    marker.addTo(drawn.map);
    marker.bindTooltip(textContent(label));
    drawn.current = { marker, circle, time };
  } else {
    drawn.current.marker.setLatLng(latlng).setTooltipContent(textContent(label));
    drawn.current.circle.setLatLng(latlng).setRadius(radius);
    drawn.current.time = time;
  }
}

/** Pans to a new live position when "Follow live position" is on. */
export function followLive(location) {
  if (!state.followLive || !drawn.map) return;
  drawn.map.panTo([location.latitude, location.longitude], { animate: false });
  $('map').dataset.followed = `${location.latitude.toFixed(6)},${location.longitude.toFixed(6)}`;
}

export function removeCurrent() {
  if (drawn.current) {
    drawn.current.marker.remove();
    drawn.current.circle.remove();
    drawn.current = null;
  }
}
