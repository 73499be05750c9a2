// Photos (issue 32): the chosen dates' photos as small thumbnails on the map where they were taken
// (clustered when dense: a cluster shows its count over its newest photo), a strip of them above the
// journal, a viewer (larger picture, time, position and how it was found, previous/next), and an
// upload control (drop files or choose them) in the Import panel.
//
// `#map[data-photo-count]` and `#photo-strip[data-count]` count what is drawn, for tests.
import { api, rangeQuery } from './api.js';
import { $, element, showStatus } from './dom.js';
import { drawn, placeMap } from './map.js';
import { state } from './state.js';

/** Pins closer than this many pixels are one cluster, below street level. */
const CLUSTER_RADIUS_PIXELS = 50;
const UNCLUSTERED_ZOOM = 18;
/** The most photos in the strip (the map shows them all). */
const STRIP_LIMIT = 200;

const photos = { list: [], layer: null, sequence: 0, shown: -1 };

function thumbnailURL(photo, size = 'small') {
  return `/api/v1/photos/${photo.id}/thumbnail?size=${size}`;
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
        return L.divIcon({
          className: 'photo-pin photo-cluster', iconSize: [44, 44], iconAnchor: [22, 22],
          html: `<img src="${thumbnailURL(newest.options.photo)}" alt=""><span>${cluster.getChildCount()}</span>`,
        });
      },
    })
    : L.featureGroup();
  photos.layer.addTo(drawn.map);
  return photos.layer;
}

function marker(photo, index) {
  const icon = L.divIcon({ className: 'photo-pin', iconSize: [36, 36], iconAnchor: [18, 18],
    html: `<img src="${thumbnailURL(photo)}" alt="" loading="lazy">` });
  const pin = L.marker([photo.latitude, photo.longitude], { icon, photo, time: photo.time, title: photoTitle(photo), keyboard: true });
  pin.on('click', () => openViewer(index));
  return pin;
}

function photoTitle(photo) {
  return photo.time ? `Photo, ${new Date(photo.time).toLocaleString()}` : 'Photo';
}

/** Loads the chosen dates' photos: pins on the map and the strip. */
export async function loadPhotos() {
  if (!state.range || !drawn.map) return;
  const sequence = ++photos.sequence;
  drawn.photoBounds = null;
  let answer;
  try {
    answer = await api(`/api/v1/photos?${rangeQuery({}, { devices: false })}`);
  } catch (error) {
    if (error.status !== 401) showStatus(`The photos could not be loaded: ${error.message}`, true);
    return;
  }
  if (sequence !== photos.sequence) return;
  photos.list = answer.photos;
  const layer = ensureLayer();
  layer.clearLayers();
  const pins = [];
  photos.list.forEach((photo, index) => {
    if (photo.latitude !== undefined && photo.longitude !== undefined) pins.push(marker(photo, index));
  });
  if (typeof layer.addLayers === 'function') layer.addLayers(pins); else for (const pin of pins) layer.addLayer(pin);
  drawn.map.getContainer().dataset.photoCount = String(pins.length);
  showStrip();
  // Dates with photos and no path (a day out with only the camera): the map goes to the photos
  // (placeMap uses them when there is no path; a path that comes later places the map again).
  drawn.photoBounds = pins.length > 0 ? L.latLngBounds(pins.map((pin) => pin.getLatLng())) : null;
  const path = drawn.pathGroup ? drawn.pathGroup.getBounds() : null;
  if (drawn.photoBounds && !(path && path.isValid()) && !(drawn.tiledBounds && drawn.tiledBounds.isValid())) {
    placeMap({ animate: false });
  }
}

function showStrip() {
  const strip = $('photo-strip');
  strip.replaceChildren();
  const shown = photos.list.slice(0, STRIP_LIMIT);
  strip.hidden = shown.length === 0;
  strip.dataset.count = String(shown.length);
  shown.forEach((photo, index) => {
    const button = element('button', 'photo-thumb');
    button.type = 'button';
    button.title = photoTitle(photo);
    const image = document.createElement('img');
    image.loading = 'lazy';
    image.alt = photoTitle(photo);
    image.src = thumbnailURL(photo);
    button.append(image);
    button.addEventListener('click', () => openViewer(index));
    strip.append(button);
  });
  if (photos.list.length > STRIP_LIMIT) strip.append(element('span', 'muted', `+${photos.list.length - STRIP_LIMIT} more on the map`));
}

function placementText(photo) {
  switch (photo.placement) {
    case 'own-gps': return 'from its own GPS' + (photo.accuracy_m !== undefined ? ` (± ${Math.round(photo.accuracy_m)} m)` : '');
    case 'interpolated': return `placed between your fixes (± ${Math.round(photo.accuracy_m)} m)`;
    case 'visit': return `placed at a visit (± ${Math.round(photo.accuracy_m)} m)`;
    default: return `no position: ${photo.unplaced_reason || 'unknown'}`;
  }
}

async function openViewer(index) {
  const photo = photos.list[index];
  if (!photo) return;
  photos.shown = index;
  const viewer = $('photo-viewer');
  $('photo-viewer-image').src = thumbnailURL(photo, 'large');
  $('photo-viewer-image').alt = photoTitle(photo);
  const where = photo.latitude !== undefined ? `${photo.latitude.toFixed(5)}, ${photo.longitude.toFixed(5)} · ` : '';
  $('photo-viewer-caption').textContent =
    `${photo.time ? new Date(photo.time).toLocaleString() : 'time unknown'} · ${where}${placementText(photo)}`
    + (photo.device ? ` · ${photo.device}` : '');
  $('photo-viewer-previous').disabled = index === 0;
  $('photo-viewer-next').disabled = index === photos.list.length - 1;
  $('photo-viewer-count').textContent = `${index + 1} of ${photos.list.length}`;
  if (!viewer.open) viewer.showModal();
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
  $('photo-viewer-previous').addEventListener('click', () => openViewer(photos.shown - 1));
  $('photo-viewer-next').addEventListener('click', () => openViewer(photos.shown + 1));
  viewer.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft' && photos.shown > 0) openViewer(photos.shown - 1);
    if (event.key === 'ArrowRight' && photos.shown < photos.list.length - 1) openViewer(photos.shown + 1);
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
