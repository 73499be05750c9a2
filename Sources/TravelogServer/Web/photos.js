// Photos (issue 32): the chosen dates' photos as small thumbnails on the map where they were taken
// (clustered when dense: a cluster shows its count over its newest photo), a strip of them above the
// journal, a viewer (larger picture, time, position and how it was found, previous/next, a link to the
// original file), and an upload control (drop files or choose them) in the Import panel.
//
// A range with up to PIN_LIMIT photos gets each one as a pin, grouped in the browser
// (Leaflet.markercluster). Beyond that the server groups them (`/api/v1/photos/clusters`, a grid of
// cells for the map's zoom, asked again for the view after every move): what the page draws no
// longer grows with the photos, and the whole list is fetched only when the viewer needs it.
//
// `#map[data-photo-count]` counts the range's placed photos, `#map[data-photo-clusters]` says which
// grouping draws them ("browser" or "server"), `#map[data-photo-clusters-zoom]` the zoom of the server's
// clusters drawn, `#map[data-photo-times]` the photos whose times the journal got apart from the list,
// `#photo-strip[data-count]` counts the strip, for tests.
import { api, rangeQuery } from './api.js';
import { $, element, showStatus } from './dom.js';
import { drawn, placeMap } from './map.js';
import { state } from './state.js';

/** Pins closer than this many pixels are one cluster, below street level. */
const CLUSTER_RADIUS_PIXELS = 50;
const UNCLUSTERED_ZOOM = 18;
/** The most photos in the strip (the map shows them all). */
const STRIP_LIMIT = 200;
/** More photos than this in the range: the server groups them. `localStorage['travelog.photoPinLimit']` lowers it (tests). */
const PIN_LIMIT = 2000;
/** The zoom asked of the server at street level and deeper: cells small enough that each photo is its own pin. */
const DEEPEST_ZOOM = 22;

const photos = {
  list: [], layer: null, gridLayer: null, shown: -1, shownID: null, total: 0,
  /** Counts loads of a range (`loads`) and of a view's clusters (`moves`): a late answer is dropped. */
  loads: 0, moves: 0,
  /** The server groups the range's photos; `list` then holds the first STRIP_LIMIT until the viewer asks for all. */
  serverClusters: false, listComplete: true, listLoading: null, moveBound: false,
  /** With the server's grouping: every photo of the range as {id, time} (/api/v1/photos/times), for the journal. */
  timed: null,
};

function pinLimit() {
  const asked = Number(localStorage.getItem('travelog.photoPinLimit'));
  return Number.isInteger(asked) && asked >= 0 ? Math.min(asked, PIN_LIMIT) || PIN_LIMIT : PIN_LIMIT;
}

function thumbnailURL(photo, size = 'small') {
  return `/api/v1/photos/${photo.id}/thumbnail?size=${size}`;
}

function clusterIcon(newest, count) {
  return L.divIcon({
    className: 'photo-pin photo-cluster', iconSize: [44, 44], iconAnchor: [22, 22],
    html: `<img src="${thumbnailURL(newest)}" alt=""><span>${count}</span>`,
  });
}

function ensureLayer() {
  if (photos.layer || !drawn.map) return photos.layer;
  photos.layer = typeof L.markerClusterGroup === 'function'
    ? L.markerClusterGroup({
      maxClusterRadius: CLUSTER_RADIUS_PIXELS, disableClusteringAtZoom: UNCLUSTERED_ZOOM, showCoverageOnHover: false,
      chunkedLoading: true,
      // A cluster: its newest photo with the count over it.
      iconCreateFunction: (cluster) => {
        const newest = cluster.getAllChildMarkers().reduce((a, b) => ((a.options.time || '') > (b.options.time || '') ? a : b));
        return clusterIcon(newest.options.photo, cluster.getChildCount());
      },
    })
    : L.featureGroup();
  photos.layer.addTo(drawn.map);
  return photos.layer;
}

function ensureGridLayer() {
  if (!photos.gridLayer && drawn.map) photos.gridLayer = L.layerGroup().addTo(drawn.map);
  return photos.gridLayer;
}

function marker(photo, open) {
  const icon = L.divIcon({ className: 'photo-pin', iconSize: [36, 36], iconAnchor: [18, 18],
    html: `<img src="${thumbnailURL(photo)}" alt="" loading="lazy">` });
  const pin = L.marker([photo.latitude, photo.longitude], { icon, photo, time: photo.time, title: photoTitle(photo), keyboard: true });
  pin.on('click', open);
  return pin;
}

function photoTitle(photo) {
  return photo.time ? `Photo, ${new Date(photo.time).toLocaleString()}` : 'Photo';
}

/** The map's view, grown by half on each side, as `bbox` (west,south,east,north; null: the whole world). */
function viewBox() {
  const view = drawn.map.getBounds().pad(0.5);
  if (view.getEast() - view.getWest() >= 360) return null;
  const wrap = (longitude) => ((((longitude + 180) % 360) + 360) % 360) - 180;
  const clamp = (latitude) => Math.max(-90, Math.min(90, latitude));
  return [wrap(view.getWest()), clamp(view.getSouth()), wrap(view.getEast()), clamp(view.getNorth())]
    .map((value) => value.toFixed(6)).join(',');
}

/** The clusters query for the map as it is now. */
function clustersQuery() {
  const zoom = Math.round(drawn.map.getZoom());
  const extra = { zoom: zoom >= UNCLUSTERED_ZOOM ? DEEPEST_ZOOM : zoom };
  const box = viewBox();
  if (box) extra.bbox = box;
  return rangeQuery(extra, { devices: false });
}

/** The server's clusters for the map as it is now; `query` says for which view they were asked. */
async function askClusters() {
  const query = clustersQuery();
  const answer = await api(`/api/v1/photos/clusters?${query}`);
  answer.query = query;
  return answer;
}

/** Draws the server's clusters: a cluster zooms to its photos, a single photo opens the viewer. */
function drawClusters(answer) {
  const layer = ensureGridLayer();
  layer.clearLayers();
  for (const cluster of answer.clusters) {
    if (cluster.count === 1) {
      layer.addLayer(marker(cluster.newest, () => openPhoto(cluster.newest)));
      continue;
    }
    const pin = L.marker([cluster.latitude, cluster.longitude], {
      icon: clusterIcon(cluster.newest, cluster.count), title: `${cluster.count} photos`, keyboard: true,
    });
    pin.on('click', () => {
      const box = L.latLngBounds([cluster.bounds.south, cluster.bounds.west], [cluster.bounds.north, cluster.bounds.east]);
      const target = drawn.map.getBoundsZoom(box, false, L.point(40, 40));
      // Photos at one spot, or the map can go no deeper: show the newest.
      if (target <= drawn.map.getZoom() || drawn.map.getZoom() >= drawn.map.getMaxZoom()) openPhoto(cluster.newest);
      else drawn.map.fitBounds(box, { padding: [40, 40] });
    });
    layer.addLayer(pin);
  }
  drawn.map.getContainer().dataset.photoPins = String(answer.clusters.length);
  drawn.map.getContainer().dataset.photoClustersZoom = String(answer.zoom);
  // The map moved while they were asked (placed on the range, a person's pan): the new view's.
  if (answer.query !== clustersQuery()) refreshClusters();
}

/** The map moved while the server groups the photos: the clusters of the new view. */
async function refreshClusters() {
  if (!photos.serverClusters) return;
  const load = photos.loads;
  const move = ++photos.moves;
  let answer;
  try {
    answer = await askClusters();
  } catch (error) {
    if (error.status !== 401) showStatus(`The photos could not be loaded: ${error.message}`, true);
    return;
  }
  if (load === photos.loads && move === photos.moves && photos.serverClusters) drawClusters(answer);
}

/** Loads the chosen dates' photos: pins on the map and the strip; with `place`, a range without a
 * path (none drawn, no tiles' bounds known) places the map on its photos. */
export async function loadPhotos({ place = true } = {}) {
  if (!state.range || !drawn.map) return;
  const load = ++photos.loads;
  drawn.photoBounds = null;
  if (!photos.moveBound) {
    photos.moveBound = true;
    drawn.map.on('moveend', refreshClusters);
  }
  let grouped;
  let list = null;
  try {
    // Both at once: the list of up to one more than the limit is the whole range's when it is within it.
    const limit = pinLimit();
    [grouped, list] = await Promise.all([askClusters(), api(`/api/v1/photos?${rangeQuery({ limit: limit + 1 }, { devices: false })}`)]);
    if (grouped.total > limit) list.photos = list.photos.slice(0, STRIP_LIMIT);
  } catch (error) {
    if (error.status !== 401) showStatus(`The photos could not be loaded: ${error.message}`, true);
    return;
  }
  if (load !== photos.loads) return;
  photos.moves += 1;  // a view's answer asked before this one is stale
  photos.serverClusters = grouped.total > pinLimit();
  photos.total = grouped.total;
  photos.list = list.photos;
  photos.listComplete = !photos.serverClusters;
  photos.listLoading = null;
  photos.timed = null;
  if (photos.serverClusters) loadTimes(load);
  const layer = ensureLayer();
  layer.clearLayers();
  ensureGridLayer().clearLayers();
  const container = drawn.map.getContainer();
  container.dataset.photoClusters = photos.serverClusters ? 'server' : 'browser';
  delete container.dataset.photoTimes;
  if (photos.serverClusters) {
    drawClusters(grouped);
  } else {
    const pins = [];
    photos.list.forEach((photo, index) => {
      if (photo.latitude !== undefined && photo.longitude !== undefined) pins.push(marker(photo, () => openViewer(index)));
    });
    if (typeof layer.addLayers === 'function') layer.addLayers(pins); else for (const pin of pins) layer.addLayer(pin);
    container.dataset.photoPins = String(pins.length);
  }
  container.dataset.photoCount = String(grouped.placed);
  showStrip(grouped.total);
  announce();
  // Dates with photos and no path (a day out with only the camera): the map goes to the photos
  // (placeMap uses them when there is no path; a path that comes later places the map again).
  const box = grouped.bounds;
  drawn.photoBounds = box ? L.latLngBounds([box.south, box.west], [box.north, box.east]) : null;
  const path = drawn.pathGroup ? drawn.pathGroup.getBounds() : null;
  if (place && drawn.photoBounds && !(path && path.isValid()) && !(drawn.tiledBounds && drawn.tiledBounds.isValid())) {
    placeMap({ animate: false });
  }
}

/** The range's photos as the journal places them: the whole list, or, when the server groups them,
 * every photo's id and time once known (the first STRIP_LIMIT whole ones until then). */
export function loadedPhotos() {
  return photos.listComplete ? photos.list : photos.timed || photos.list;
}

/** A photo known by its id and instant only (`at`, ms); `time` is its ISO string, made when asked for. */
class TimedPhoto {
  constructor(id, at) {
    this.id = id;
    this.at = at;
  }

  get time() { return new Date(this.at).toISOString(); }
}

/** Every photo's id and time, for a range whose list is not loaded whole (2 MB for 100,000 photos, not 14). */
async function loadTimes(load) {
  let answer;
  try {
    answer = await api(`/api/v1/photos/times?${rangeQuery({}, { devices: false })}`);
  } catch (error) {
    if (error.status !== 401) showStatus(`The photos' times could not be loaded: ${error.message}`, true);
    return;
  }
  if (load !== photos.loads || photos.listComplete) return;
  photos.timed = answer.ids.map((id, index) => new TimedPhoto(id, answer.times[index]));
  if (drawn.map) drawn.map.getContainer().dataset.photoTimes = String(photos.timed.length);
  announce();
}

/** A photo's small thumbnail as a button that opens the viewer on it (`open`: another way to). */
export function photoThumb(photo, title, open = () => openPhoto(photo)) {
  const button = element('button', 'photo-thumb');
  button.type = 'button';
  button.title = title;
  const image = document.createElement('img');
  image.loading = 'lazy';
  image.alt = title;
  image.src = thumbnailURL(photo);
  button.append(image);
  button.addEventListener('click', open);
  return button;
}

/** Tells the journal (journal.js) the loaded photos changed. */
function announce() {
  document.dispatchEvent(new CustomEvent('travelog:photos'));
}

/** The whole range's list, for the viewer's previous and next when the server groups the pins. */
function loadWholeList() {
  if (photos.listComplete) return Promise.resolve();
  if (!photos.listLoading) {
    const load = photos.loads;
    photos.listLoading = api(`/api/v1/photos?${rangeQuery({ limit: 200000 }, { devices: false })}`).then((answer) => {
      if (load !== photos.loads) return;
      photos.list = answer.photos;
      photos.listComplete = true;
      announce();
    }).finally(() => { photos.listLoading = null; });
  }
  return photos.listLoading;
}

/** Opens the viewer on a photo from the map or the journal: at once, with previous and next once the
 * list is known (a photo known only by its id and time is read whole first). */
async function openPhoto(given) {
  const index = photos.list.findIndex((known) => known.id === given.id);
  if (index >= 0) { openViewer(index); return; }
  let photo = given;
  try {
    if (photo.placement === undefined) photo = await api(`/api/v1/photos/${given.id}`);
  } catch (error) {
    showStatus(`The photo could not be loaded: ${error.message}`, true);
    return;
  }
  showViewer(photo, -1);
  try {
    await loadWholeList();
  } catch (error) {
    showStatus(`The photos could not be loaded: ${error.message}`, true);
    return;
  }
  const found = photos.list.findIndex((known) => known.id === photo.id);
  if (found >= 0 && $('photo-viewer').open && photos.shownID === photo.id) openViewer(found);
}

function showStrip(total) {
  const strip = $('photo-strip');
  strip.replaceChildren();
  const shown = photos.list.slice(0, STRIP_LIMIT);
  strip.hidden = shown.length === 0;
  strip.dataset.count = String(shown.length);
  shown.forEach((photo, index) => strip.append(photoThumb(photo, photoTitle(photo), () => openViewer(index))));
  if (total > shown.length) strip.append(element('span', 'muted', `+${total - shown.length} more on the map`));
}

function placementText(photo) {
  switch (photo.placement) {
    case 'own-gps': return 'from its own GPS' + (photo.accuracy_m !== undefined ? ` (± ${Math.round(photo.accuracy_m)} m)` : '');
    case 'interpolated': return `placed between your fixes (± ${Math.round(photo.accuracy_m)} m)`;
    case 'visit': return `placed at a visit (± ${Math.round(photo.accuracy_m)} m)`;
    default: return `no position: ${photo.unplaced_reason || 'unknown'}`;
  }
}

function openViewer(index) {
  const photo = photos.list[index];
  if (photo) showViewer(photo, index);
}

/** Shows one photo in the viewer; `index` is its place in the list (-1: not known yet). */
function showViewer(photo, index) {
  const viewer = $('photo-viewer');
  photos.shown = index;
  photos.shownID = photo.id;
  $('photo-viewer-image').src = thumbnailURL(photo, 'large');
  $('photo-viewer-original').href = `/api/v1/photos/${photo.id}/original`;
  $('photo-viewer-image').alt = photoTitle(photo);
  const where = photo.latitude !== undefined ? `${photo.latitude.toFixed(5)}, ${photo.longitude.toFixed(5)} · ` : '';
  $('photo-viewer-caption').textContent =
    `${photo.time ? new Date(photo.time).toLocaleString() : 'time unknown'} · ${where}${placementText(photo)}`
    + (photo.device ? ` · ${photo.device}` : '');
  $('photo-viewer-previous').disabled = index <= 0;
  $('photo-viewer-next').disabled = index < 0 || (index === photos.list.length - 1 && photos.listComplete);
  $('photo-viewer-count').textContent = index < 0 ? 'finding its place among the photos…'
    : `${index + 1} of ${photos.listComplete ? photos.list.length : photos.total}`;
  if (!viewer.open) viewer.showModal();
}

/** Previous or next in the viewer; the strip's photos lead to the whole list when the server groups the pins. */
async function step(by) {
  const target = photos.shown + by;
  if (photos.shown < 0 || target < 0) return;
  if (target >= photos.list.length && !photos.listComplete) {
    const id = photos.shownID;
    await loadWholeList();
    const index = photos.list.findIndex((known) => known.id === id);
    if (index >= 0 && index + by < photos.list.length) openViewer(index + by);
    return;
  }
  if (target < photos.list.length) openViewer(target);
}

async function upload(files) {
  const status = $('photo-upload-status');
  let added = 0;
  let known = 0;
  const failed = [];
  for (const [position, file] of [...files].entries()) {
    status.textContent = `Adding ${position + 1} of ${files.length}: ${file.name}…`;
    try {
      const response = await fetch(`/api/v1/photos?filename=${encodeURIComponent(file.name)}`, {
        method: 'POST', body: file, credentials: 'same-origin',
        headers: { 'Content-Type': 'application/octet-stream', 'X-Requested-With': 'fetch' },
      });
      if (response.status === 201) added += 1;
      else if (response.ok) known += 1;
      // The server's reason names the file already.
      else failed.push((await response.json().catch(() => ({}))).error || `${file.name}: ${response.status}`);
    } catch (error) {
      failed.push(`${file.name}: ${error.message}`);
    }
  }
  status.textContent = `${added} added, ${known} already there` + (failed.length ? `, ${failed.length} skipped: ${failed.join('; ')}` : '.');
  loadPhotos();
}

export function bindPhotos() {
  const viewer = $('photo-viewer');
  $('photo-viewer-close').addEventListener('click', () => viewer.close());
  $('photo-viewer-previous').addEventListener('click', () => step(-1));
  $('photo-viewer-next').addEventListener('click', () => step(1));
  viewer.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft') step(-1);
    if (event.key === 'ArrowRight') step(1);
  });
  viewer.addEventListener('click', (event) => { if (event.target === viewer) viewer.close(); });
  const input = $('photo-upload-files');
  input.addEventListener('change', () => { if (input.files.length) upload(input.files); input.value = ''; });
  const zone = $('photo-upload');
  zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('dragging'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    if (event.dataTransfer.files.length) upload(event.dataTransfer.files);
  });
}
