// The read-only page of a share link (/s/TOKEN): what the link shares and nothing else, read
// through /api/v1/s/TOKEN/… with no account. A password link asks first; the key it gets is sent
// as X-Share-Key and kept for this tab only. A live link asks for the position every 15 s.
//
// `#share-map[data-state]` is loading, locked, shown, gone or missing, and
// `#share-map[data-point-count]` the points drawn, for tests.
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
    const points = await drawPath();
    if (!view.hideVisits) await drawEntries();
    show(points ? '' : 'Nothing recorded in this range yet.', 'shown');
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

  open();
})();
