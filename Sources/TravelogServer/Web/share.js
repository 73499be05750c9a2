// The read-only page of a share link (/s/TOKEN): what the link shares and nothing else, read
// through /api/v1/s/TOKEN/… with no account. A password link asks first; the key it gets is sent
// as X-Share-Key and kept for this tab only. A live link asks for the position every 15 s.
//
// A link the owner made with photos shows them as thumbnail pins (grouped when close, a group
// showing its count over its newest photo), a strip in the side panel and a viewer. Thumbnails are
// fetched with the key (an <img> cannot send a header) when they come into view, once each.
//
// A range of many fixes is drawn from the owner's history tiles (cut at privacy zones on the
// server), a small one as a vector path.
//
// `#share-map[data-state]` is loading, locked, shown, gone or missing,
// `#share-map[data-point-count]` the points drawn (for tiles: the fixes, once the first tiles loaded) and `#share-map[data-photo-count]` the photos, for tests.
'use strict';

(() => {
  const token = location.pathname.split('/')[2] || '';
  const base = `/api/v1/s/${encodeURIComponent(token)}`;
  const mapElement = document.getElementById('share-map');
  const message = document.getElementById('share-message');
  const keyName = `travelog.share.${token}`;
  const LIVE_POLL_MILLISECONDS = 15000;
  let map = null;
  let liveMarker = null;
  const shared = { photos: [], shown: -1, thumbnails: new Map() };

  function headers() {
    const key = sessionStorage.getItem(keyName);
    return key ? { 'X-Share-Key': key } : {};
  }

  async function get(path) {
    const response = await fetch(base + path, { headers: headers(), credentials: 'omit', cache: 'no-store' });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      const error = new Error(body.error || `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return response.json();
  }

  function show(text, state) {
    message.textContent = text;
    if (state) mapElement.dataset.state = state;
  }

  function when(iso) {
    return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }

  function drawMap(view) {
    map = L.map('share-map', { preferCanvas: true, worldCopyJump: true, maxZoom: 19 }).setView([20, 0], 2);
    L.tileLayer('/api/v1/basemap/{z}/{x}/{y}.png', { maxZoom: 19, attribution: 'Offline base: Natural Earth' }).addTo(map);
    if (view.tileURLTemplate) {
      L.tileLayer(view.tileURLTemplate, { maxZoom: 19, attribution: view.tileAttribution || '' }).addTo(map);
    }
  }

  /**
   * The owner's history tiles of the link's range (drawn from the same index as the owner's map),
   * each fetched with the key a password link needs: an <img> cannot send a header.
   */
  const SharedTiles = L.TileLayer.extend({
    createTile(coords, done) {
      const tile = document.createElement('img');
      tile.alt = '';
      fetch(this.getTileUrl(coords), { headers: headers(), credentials: 'omit', cache: 'no-store' })
        .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(`HTTP ${response.status}`))))
        .then((blob) => {
          tile.onload = () => { URL.revokeObjectURL(tile.src); done(null, tile); };
          tile.src = URL.createObjectURL(blob);
        })
        .catch((error) => done(error, tile));
      return tile;
    },
  });

  /**
   * The range's path: a vector line when it has few fixes, else the history tiles with the map
   * fitted to where the fixes lie (`…/bounds`, read from the index's summaries: a million fixes
   * are placed as fast as a hundred). Returns the number of fixes shown.
   */
  async function drawHistory(view) {
    const summary = await get('/bounds');
    if (!summary.bounds || summary.locationCount <= (view.vectorPathFixLimit || 0)) return drawPath();
    const { west, south, east, north } = summary.bounds;
    map.fitBounds([[south, west], [north, east]], { padding: [24, 24], maxZoom: 16 });
    const retina = (window.devicePixelRatio || 1) > 1.5 ? 2 : 1;
    const layer = new SharedTiles(`${base}/tiles/{z}/{x}/{y}.png?scale=${retina}`, { maxZoom: 19, tileSize: 256 });
    layer.once('load', () => { mapElement.dataset.pointCount = String(summary.locationCount); });
    layer.addTo(map);
    return summary.locationCount;
  }

  async function drawPath() {
    const path = await get(`/path?zoom=${Math.max(10, map.getZoom())}`);
    let points = 0;
    const bounds = L.latLngBounds([]);
    for (const feature of path.features) {
      for (const segment of feature.geometry.coordinates) {
        const line = segment.map(([lon, lat]) => [lat, lon]);
        points += line.length;
        line.forEach((point) => bounds.extend(point));
        L.polyline(line, { color: '#1565c0', weight: 4, opacity: 0.85 }).addTo(map);
      }
    }
    mapElement.dataset.pointCount = String(points);
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 16 });
    return points;
  }

  async function drawEntries() {
    const list = document.getElementById('share-entries');
    const entries = await get('/journal');
    list.replaceChildren(...entries.map((entry) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.textContent = entry.title;
      const time = document.createElement('time');
      time.dateTime = entry.arrival;
      time.textContent = entry.departure ? `${when(entry.arrival)} – ${when(entry.departure)}` : when(entry.arrival);
      item.append(name, time);
      L.circleMarker([entry.latitude, entry.longitude], { radius: 6, color: '#c62828' }).bindTooltip(entry.title).addTo(map);
      return item;
    }));
  }

  /** An object URL of a photo's thumbnail, fetched once (with the key a password link needs). */
  function thumbnail(photo, size = 'small') {
    const key = `${photo.id}/${size}`;
    if (!shared.thumbnails.has(key)) {
      shared.thumbnails.set(key, fetch(`${base}/photos/${photo.id}/thumbnail?size=${size}`,
        { headers: headers(), credentials: 'omit', cache: 'no-store' })
        .then((response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return response.blob();
        })
        .then((blob) => URL.createObjectURL(blob))
        .catch((error) => {
          shared.thumbnails.delete(key);  // asked again next time it is shown
          throw error;
        }));
    }
    return shared.thumbnails.get(key);
  }

  /** An <img> that gets the photo's thumbnail once it is on screen. */
  const onScreen = 'IntersectionObserver' in window ? new IntersectionObserver((seen) => {
    for (const entry of seen) {
      if (!entry.isIntersecting) continue;
      onScreen.unobserve(entry.target);
      fill(entry.target);
    }
  }, { rootMargin: '200px' }) : null;

  function fill(image) {
    const photo = shared.photos[Number(image.dataset.index)];
    thumbnail(photo).then((url) => { image.src = url; }, () => { image.alt = 'Photo unavailable'; });
  }

  function photoImage(index) {
    const image = document.createElement('img');
    image.alt = '';
    image.dataset.index = String(index);
    if (onScreen) onScreen.observe(image); else fill(image);
    return image;
  }

  function photoTitle(photo) {
    return photo.time ? `Photo, ${when(photo.time)}` : 'Photo';
  }

  async function drawPhotos() {
    const answer = await get('/photos');
    shared.photos = answer.photos;
    mapElement.dataset.photoCount = String(shared.photos.length);
    if (!shared.photos.length) return;
    const section = document.getElementById('share-photos');
    section.hidden = false;
    document.getElementById('share-photo-count').textContent = answer.complete
      ? `(${shared.photos.length})` : `(the first ${shared.photos.length})`;
    const strip = document.getElementById('share-photo-strip');
    strip.replaceChildren(...shared.photos.map((photo, index) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'photo-thumb';
      button.title = photoTitle(photo);
      button.setAttribute('aria-label', photoTitle(photo));
      button.append(photoImage(index));
      button.addEventListener('click', () => openPhoto(index));
      return button;
    }));
    const group = typeof L.markerClusterGroup === 'function'
      ? L.markerClusterGroup({
        maxClusterRadius: 50, disableClusteringAtZoom: 18, showCoverageOnHover: false,
        iconCreateFunction: (cluster) => {
          const newest = cluster.getAllChildMarkers().reduce((a, b) => ((a.options.time || '') > (b.options.time || '') ? a : b));
          const html = document.createElement('div');
          const count = document.createElement('span');
          count.textContent = String(cluster.getChildCount());
          html.append(photoImage(newest.options.index), count);
          return L.divIcon({ className: 'photo-pin photo-cluster', iconSize: [44, 44], iconAnchor: [22, 22], html });
        },
      })
      : L.featureGroup();
    shared.photos.forEach((photo, index) => {
      const html = document.createElement('div');
      html.append(photoImage(index));
      const icon = L.divIcon({ className: 'photo-pin', iconSize: [36, 36], iconAnchor: [18, 18], html });
      const pin = L.marker([photo.latitude, photo.longitude], { icon, index, time: photo.time, title: photoTitle(photo), keyboard: true });
      pin.on('click', () => openPhoto(index));
      group.addLayer(pin);
    });
    group.addTo(map);
    if (mapElement.dataset.pointCount === '0' && group.getBounds().isValid()) {
      map.fitBounds(group.getBounds(), { padding: [24, 24], maxZoom: 16 });
    }
  }

  function openPhoto(index) {
    const viewer = document.getElementById('share-photo-viewer');
    const photo = shared.photos[index];
    if (!photo) return;
    shared.shown = index;
    const image = document.getElementById('share-photo-image');
    image.removeAttribute('src');
    image.alt = photoTitle(photo);
    viewer.dataset.photoId = String(photo.id);
    thumbnail(photo, 'large').then((url) => { if (shared.shown === index) image.src = url; },
      () => { image.alt = 'This photo cannot be shown.'; });
    document.getElementById('share-photo-caption').textContent = photo.time ? when(photo.time) : '';
    document.getElementById('share-photo-position').textContent = `${index + 1} of ${shared.photos.length}`;
    document.getElementById('share-photo-previous').disabled = index === 0;
    document.getElementById('share-photo-next').disabled = index === shared.photos.length - 1;
    if (!viewer.open) viewer.showModal();
  }

  function startViewer() {
    const viewer = document.getElementById('share-photo-viewer');
    document.getElementById('share-photo-previous').addEventListener('click', () => openPhoto(shared.shown - 1));
    document.getElementById('share-photo-next').addEventListener('click', () => openPhoto(shared.shown + 1));
    document.getElementById('share-photo-close').addEventListener('click', () => viewer.close());
    viewer.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowLeft' && shared.shown > 0) openPhoto(shared.shown - 1);
      if (event.key === 'ArrowRight' && shared.shown < shared.photos.length - 1) openPhoto(shared.shown + 1);
    });
    viewer.addEventListener('click', (event) => { if (event.target === viewer) viewer.close(); });
  }

  async function pollLive(first) {
    const live = document.getElementById('share-live');
    live.hidden = false;
    try {
      const latest = await get('/latest');
      const feature = latest.features[0];
      if (!feature) {
        live.textContent = 'No position shared yet.';
      } else {
        const [lon, lat] = feature.geometry.coordinates;
        if (!liveMarker) liveMarker = L.circleMarker([lat, lon], { radius: 9, color: '#fff', weight: 3, fillColor: '#2e7d32', fillOpacity: 1 }).addTo(map);
        liveMarker.setLatLng([lat, lon]);
        live.textContent = `Live: last position ${when(feature.properties.timestamp || feature.properties.time)}`;
        mapElement.dataset.livePosition = `${lat},${lon}`;
        if (first) map.setView([lat, lon], Math.max(map.getZoom(), 14));
      }
      setTimeout(() => pollLive(false), LIVE_POLL_MILLISECONDS);
    } catch (error) {
      live.textContent = error.status === 410 ? 'This live link has ended.' : `Live position unavailable: ${error.message}`;
      if (error.status === 410) mapElement.dataset.state = 'gone';
      else setTimeout(() => pollLive(false), LIVE_POLL_MILLISECONDS);
    }
  }

  async function open() {
    let view;
    try {
      view = await get('');
    } catch (error) {
      if (error.status === 410) show(`${error.message}.`, 'gone');
      else if (error.status === 404) show('There is no such share link.', 'missing');
      else show(`Cannot open this link: ${error.message}`, 'missing');
      return;
    }
    if (view.locked) {
      sessionStorage.removeItem(keyName);
      document.getElementById('share-unlock').hidden = false;
      show('', 'locked');
      document.getElementById('share-password').focus();
      return;
    }
    document.getElementById('share-unlock').hidden = true;
    const title = view.title || (view.kind === 'live' ? 'Live position' : 'Shared travels');
    document.getElementById('share-title').textContent = title;
    document.title = `${title} · Travelog`;
    document.getElementById('share-range').textContent = view.kind === 'live'
      ? `live until ${when(view.to)}` : `${when(view.from)} – ${when(view.to)}`;
    drawMap(view);
    const points = await drawHistory(view);
    if (!view.hideVisits) await drawEntries();
    if (view.photos) await drawPhotos();
    show(points || shared.photos.length ? '' : 'Nothing recorded in this range yet.', 'shown');
    if (view.kind === 'live') pollLive(true);
  }

  document.getElementById('share-unlock').addEventListener('submit', async (event) => {
    event.preventDefault();
    const error = document.getElementById('share-unlock-error');
    error.textContent = '';
    const response = await fetch(`${base}/unlock`, {
      method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ password: document.getElementById('share-password').value }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      error.textContent = response.status === 429 ? body.error || 'Too many tries: wait a moment.' : 'Wrong password.';
      return;
    }
    sessionStorage.setItem(keyName, body.key);
    open();
  });

  startViewer();
  open();
})();
