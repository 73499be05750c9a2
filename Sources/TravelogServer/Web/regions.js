// Travelog's regions (geofences) on the page: the user's regions drawn on the map, a circle added
// by naming it and clicking the map, a polygon by clicking its corners, edited (region-editor.js)
// or removed from its popup or the list, and the transitions of the chosen days in the timeline ("left Home 08:12") and beside
// each region ("arrived 08:01, left 15:32"). A plain script that app.js calls through
// window.TravelogRegions (attach once the map exists, showTransitions after each timeline).
//
// `#map[data-region-count]` counts the regions drawn, `#map path.region-<id>` is a region's shape,
// and `#timeline[data-transition-count]` counts the transitions listed, for tests.
'use strict';

window.TravelogRegions = (() => {
  let map = null;
  let group = null;
  let api = null;
  let renderer = null;
  let adding = false;
  /** The corners clicked so far while a polygon is drawn (null when none is), and their outline. */
  let corners = null;
  let outline = null;
  /** The transitions of the chosen days, for the list of regions. */
  let lastTransitions = [];

  function $(id) { return document.getElementById(id); }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function status(message, isError) {
    const line = $('region-status');
    line.textContent = message;
    line.classList.toggle('error', Boolean(isError));
  }

  /** Draws the regions on `leafletMap` and binds the panel; `request` is app.js's JSON fetch. */
  function attach(leafletMap, request) {
    if (map) return load();
    map = leafletMap;
    api = request;
    group = L.featureGroup().addTo(map);
    // SVG, not the map's canvas: each region is an element of its own (`path.region-<id>`).
    renderer = L.svg();
    map.on('click', (event) => placeAt(event.latlng));
    $('region-draw').addEventListener('click', () => (corners ? finishPolygon() : startPolygon()));
    $('region-add').addEventListener('click', () => {
      if (TravelogRegionEditor.active()) cancelEdit();
      adding = !adding;
      $('region-add').setAttribute('aria-pressed', String(adding));
      map.getContainer().classList.toggle('placing-region', adding);
      status(adding ? 'Click the map where the region’s centre is.' : '');
    });
    if (window.TravelogZones) TravelogZones.attach(map, api);
    return load();
  }

  /** The rule when the panel's "Make" choice is a privacy zone (hide or drop), else null: the same
   * tools then make a zone (zones.js) instead of a region. */
  function zoneRule() {
    const kind = $('region-kind');
    return kind && kind.value !== 'region' && window.TravelogZones ? kind.value : null;
  }

  /** A click at `latlng` while a region is being placed or drawn (on the map, or on a journal pin,
   * which takes its own clicks): true when it was used. */
  function placeAt(latlng) {
    if (adding) { add(latlng); return true; }
    if (corners) { addCorner(latlng); return true; }
    return false;
  }

  async function load() {
    try {
      draw(await api('/api/v1/regions'));
    } catch (error) {
      if (error.status !== 401) status(`The regions could not be loaded: ${error.message}`, true);
    }
  }

  /** A circle or a polygon per region, each with a popup to edit or remove it, and the list. */
  function draw(regions) {
    TravelogRegionEditor.finish();
    group.clearLayers();
    const list = $('regions');
    list.replaceChildren();
    for (const region of regions) {
      const style = { color: '#6a1b9a', weight: 2, fillOpacity: 0.12, className: `region-shape region-${region.id}`, renderer };
      const shape = region.circle
        ? L.circle([region.circle.latitude, region.circle.longitude], { ...style, radius: region.circle.radiusMeters })
        : L.polygon(region.polygon.map((ring) => ring.map(([longitude, latitude]) => [latitude, longitude])), style);
      const row = element('li');
      const popup = element('div', 'region-popup');
      popup.append(element('strong', null, region.name), document.createElement('br'));
      const remove = element('button', 'region-remove', 'Delete');
      remove.type = 'button';
      remove.addEventListener('click', () => removeRegion(region));
      popup.append(editButton(region, shape, row), ' ', remove);
      shape.bindPopup(popup).addTo(group);

      row.dataset.regionId = String(region.id);
      const where = (region.states || []).filter((state) => state.state === 'inside').map((state) => state.device);
      row.append(element('span', 'region-name', region.name),
                 element('span', 'muted', region.circle ? ` ${Math.round(region.circle.radiusMeters)} m` : ' polygon'),
                 element('span', 'muted', where.length ? ` · inside: ${where.join(', ')}` : ''));
      const button = element('button', 'region-remove', 'Delete');
      button.type = 'button';
      button.setAttribute('aria-label', `Delete the region ${region.name}`);
      button.addEventListener('click', () => removeRegion(region));
      row.append(' ', editButton(region, shape, row), ' ', button, element('div', 'region-transitions muted'));
      list.append(row);
    }
    map.getContainer().dataset.regionCount = String(regions.length);
    listTransitions();
  }

  /** A button that starts editing `region` (drawn as `shape`, listed in `row`). */
  function editButton(region, shape, row) {
    const button = element('button', 'region-edit-start', 'Edit');
    button.type = 'button';
    button.setAttribute('aria-label', `Edit the region ${region.name}`);
    button.addEventListener('click', () => {
      if (corners) stopDrawing();
      adding = false;
      $('region-add').setAttribute('aria-pressed', 'false');
      map.closePopup();
      TravelogRegionEditor.edit(region, { map, api, row, shape, renderer, status, done: load });
    });
    return button;
  }

  function cancelEdit() {
    TravelogRegionEditor.finish();
    status('');
    load();
  }

  /** Each region's transitions of the chosen days beside it: "arrived 08:01, left 15:32". */
  function listTransitions() {
    for (const row of document.querySelectorAll('#regions li[data-region-id]')) {
      const own = lastTransitions.filter((transition) => String(transition.region) === row.dataset.regionId);
      const text = own.map((transition) => `${transition.transition === 'enter' ? 'arrived' : 'left'} ${wallClock(transition.time)}`
        + (transition.device ? ` (${transition.device})` : '')).join(', ');
      row.querySelector('.region-transitions').textContent = text;
    }
  }

  /** A time as the page writes times: the browser's clock format at the browser's wall time. */
  function wallClock(time) {
    const clock = window.TravelogTimeline ? window.TravelogTimeline.clock : (iso) => iso.slice(11, 16);
    const local = new Date(time);
    return clock(new Date(local.getTime() - local.getTimezoneOffset() * 60000).toISOString().slice(0, 16));
  }

  function startPolygon() {
    if (TravelogRegionEditor.active()) cancelEdit();
    adding = false;
    $('region-add').setAttribute('aria-pressed', 'false');
    corners = [];
    outline = L.polyline([], { color: '#6a1b9a', weight: 2, dashArray: '4 4' }).addTo(map);
    $('region-draw').setAttribute('aria-pressed', 'true');
    $('region-draw').textContent = 'Finish the polygon';
    map.getContainer().classList.add('placing-region');
    status('Click the map at each corner, then “Finish the polygon”.');
  }

  function addCorner(latlng) {
    corners.push(latlng);
    outline.setLatLngs(corners.length > 2 ? [...corners, corners[0]] : corners);
    status(`${corners.length} corner${corners.length === 1 ? '' : 's'}; at least 3.`);
  }

  function stopDrawing() {
    if (outline) outline.remove();
    corners = null;
    outline = null;
    $('region-draw').setAttribute('aria-pressed', 'false');
    $('region-draw').textContent = 'Draw a polygon';
    map.getContainer().classList.remove('placing-region');
  }

  /** The polygon of the corners clicked, named by the panel's field, as GeoJSON rings [lon, lat]. */
  async function finishPolygon() {
    const points = corners;
    stopDrawing();
    if (points.length < 3) return status('A polygon needs at least 3 corners.', true);
    const name = $('region-name').value.trim() || window.prompt('A name for this region', 'Park');
    if (!name) return status('');
    const ring = [...points, points[0]].map((point) => [point.lng, point.lat]);
    if (zoneRule()) {
      if (await TravelogZones.add(name, { polygon: [ring] }, zoneRule(), status)) $('region-name').value = '';
      return;
    }
    try {
      await api('/api/v1/regions', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, polygon: [ring] }),
      });
      $('region-name').value = '';
      status(`Added ${name}.`);
      await load();
    } catch (error) {
      status(`The region could not be added: ${error.message}`, true);
    }
  }

  /** A circle region at `latlng`, with the name and radius of the panel's fields. */
  async function add(latlng) {
    adding = false;
    if (corners) stopDrawing();
    $('region-add').setAttribute('aria-pressed', 'false');
    map.getContainer().classList.remove('placing-region');
    const name = $('region-name').value.trim() || window.prompt('A name for this region', 'Home');
    if (!name) return status('');
    const radiusMeters = Number($('region-radius').value || 150);
    if (zoneRule()) {
      const circle = { latitude: latlng.lat, longitude: latlng.wrap().lng, radiusMeters };
      if (await TravelogZones.add(name, { circle }, zoneRule(), status)) $('region-name').value = '';
      return;
    }
    try {
      await api('/api/v1/regions', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, circle: { latitude: latlng.lat, longitude: latlng.lng, radiusMeters } }),
      });
      $('region-name').value = '';
      status(`Added ${name}.`);
      await load();
    } catch (error) {
      status(`The region could not be added: ${error.message}`, true);
    }
  }

  async function removeRegion(region) {
    if (!window.confirm(`Delete the region “${region.name}” and its transitions?`)) return;
    try {
      await api(`/api/v1/regions/${region.id}`, { method: 'DELETE' });
      map.closePopup();
      status(`Deleted ${region.name}.`);
      await load();
    } catch (error) {
      status(`The region could not be deleted: ${error.message}`, true);
    }
  }

  /** The transitions of a range (app.js's query string) in the timeline, in time order among its entries. */
  async function showTransitions(query) {
    if (!api) return;
    let transitions;
    try {
      transitions = await api(`/api/v1/regions/transitions?${query}`);
    } catch (error) {
      return;
    }
    const timeline = $('timeline');
    for (const old of timeline.querySelectorAll('.timeline-transition')) old.remove();
    const clock = window.TravelogTimeline ? window.TravelogTimeline.clock : (iso) => iso.slice(11, 16);
    for (const transition of transitions) {
      const verb = transition.transition === 'enter' ? 'arrived at' : 'left';
      const row = element('li', 'timeline-transition');
      row.dataset.time = transition.time;
      // The device's wall clock in the browser's zone, as the page's day boundaries are.
      const local = new Date(transition.time);
      const offset = -local.getTimezoneOffset();
      const wall = new Date(local.getTime() + offset * 60000).toISOString().slice(0, 16);
      row.append(element('span', 'timeline-what', `${verb} ${transition.regionName} `),
                 element('time', 'timeline-when', clock(wall)),
                 element('span', 'muted', ` · ${transition.device}${transition.source === 'reported' ? ' (reported)' : ''}`));
      const later = [...timeline.children].find((item) => item.dataset.start && item.dataset.start > transition.time);
      timeline.insertBefore(row, later || null);
    }
    timeline.dataset.transitionCount = String(transitions.length);
    lastTransitions = transitions;
    listTransitions();
  }

  return { attach, showTransitions, reload: load, placeAt };
})();
