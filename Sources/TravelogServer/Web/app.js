// Travelog's page: log in, see the path of a day (or a range of days) on a map, follow new
// locations live, log the browser's own position, download the history.
//
// The server simplifies the path for the map's zoom (GET /api/v1/path), so the page only ever
// holds what it draws; a range drawn by the server's tiles (layers.js) asks only for its bounds
// (GET /api/v1/tiles/bounds) before the tiles show. Live locations (GET /api/v1/live,
// server-sent events) are appended to the drawn lines. `#map[data-point-count]` is the number
// of path points drawn, for tests.
'use strict';

(() => {
  /** Metres in an international mile. */
  const METERS_PER_MILE = 1609.344;
  /** Locations listed (newest first). */
  const LIST_LIMIT = 200;
  /** Locations shown on one page of the list. */
  const LIST_PAGE_SIZE = 50;
  /** A pause longer than this breaks the line, as on the server (PathBuilder.segmentGapSeconds). */
  const SEGMENT_GAP_MILLISECONDS = 3600 * 1000;
  /** The path is requested again when the map's zoom moves further than this from the zoom it was simplified for. */
  const ZOOM_SLACK = 1;
  /** Zoom of the first path request, before the map knows where the path is. */
  const FIRST_ZOOM = 12;
  /** Wait this long after live locations before asking the server for the new distance. */
  const DISTANCE_REFRESH_MILLISECONDS = 5000;
  const UNITS_KEY = 'travelog.units';

  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const $ = (id) => document.getElementById(id);

  /** Milliseconds after live fixes before the journal is asked for again. */
  const JOURNAL_REFRESH_MILLISECONDS = 3000;

  const state = {
    session: null,
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
    range: null,
    pathAbort: null,
    /** The bounds request of a range drawn by tiles. */
    boundsAbort: null,
    listAbort: null,
    /** Live locations that arrived while the path or the list was being requested. */
    pathBacklog: null,
    listBacklog: null,
    /** Newest first: {time, key, element}. */
    listEntries: [],
    listKeys: new Set(),
    /** The page of the list shown, 0 for the newest. */
    listPage: 0,
    current: null,
    events: null,
    distanceMeters: null,
    locationCount: null,
    distanceTimer: null,
    units: localStorage.getItem(UNITS_KEY) === 'imperial' ? 'imperial' : 'metric',
  };

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // MARK: Server

  /** A JSON request; a 401 shows the login form, other failures throw the server's message. */
  async function api(path, options = {}) {
    // X-Requested-With: the server then answers 401 without a Basic challenge (no browser dialog).
    const headers = { Accept: 'application/json', 'X-Requested-With': 'fetch', ...(options.headers || {}) };
    let response;
    try {
      response = await fetch(path, { credentials: 'same-origin', ...options, headers });
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new ApiError(0, 'The server cannot be reached.');
    }
    if (response.status === 401 && !options.allowUnauthorized) {
      showLogin('Please log in again.');
      throw new ApiError(401, 'Not logged in.');
    }
    if (!response.ok) {
      let message = `${response.status} ${response.statusText}`;
      try {
        const body = await response.json();
        if (body && body.error) message = body.error;
      } catch (_) { /* not JSON */ }
      throw new ApiError(response.status, message);
    }
    if (response.status === 204) return null;
    return response.json();
  }

  function rangeQuery(extra = {}) {
    const parameters = new URLSearchParams({ from: state.range.from, to: state.range.to, timezone: timeZone });
    for (const [key, value] of Object.entries(extra)) parameters.set(key, String(value));
    return parameters.toString();
  }

  // MARK: Session

  /** The readable cookie the server sets beside the session's HttpOnly one (SessionRoutes.signedInCookie). */
  const SIGNED_IN_COOKIE = 'travelog_signed_in';

  function signedIn() {
    return document.cookie.split(';').some((pair) => pair.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
  }

  /** Asks who is logged in only when a login was made in this browser: no 401 for a visitor. */
  async function start() {
    bindControls();
    if (!signedIn()) {
      showLogin('');
      return;
    }
    let response;
    try {
      response = await fetch('/api/v1/session', {
        credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Requested-With': 'fetch' },
      });
    } catch (_) {
      $('loading').textContent = 'The server cannot be reached. Reload the page to try again.';
      return;
    }
    if (response.ok) {
      enterApp(await response.json());
    } else {
      // The session ended (expired or logged out elsewhere): forget the hint, so the next load asks nothing.
      document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
      showLogin('');
    }
  }

  function showLogin(message) {
    closeLive();
    state.session = null;
    $('loading').hidden = true;
    $('app').hidden = true;
    $('account').hidden = true;
    $('login').hidden = false;
    $('login-error').textContent = message || '';
    $('login-user').focus();
  }

  async function logIn(event) {
    event.preventDefault();
    const submit = $('login-submit');
    submit.disabled = true;
    $('login-error').textContent = '';
    try {
      const info = await api('/api/v1/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: $('login-user').value, password: $('login-password').value }),
        allowUnauthorized: true,
      });
      $('login-password').value = '';
      enterApp(info);
    } catch (error) {
      $('login-error').textContent = error.status === 401 ? 'Wrong user name or password.' : (error.message || String(error));
    } finally {
      submit.disabled = false;
    }
  }

  async function logOut() {
    closeLive();
    try {
      await api('/api/v1/session', { method: 'DELETE', allowUnauthorized: true });
    } catch (_) { /* the login form follows anyway */ }
    clearPath();
    clearList();
    if (state.current) {
      state.current.marker.remove();
      state.current.circle.remove();
      state.current = null;
    }
    showLogin('');
  }

  function enterApp(info) {
    state.session = info;
    $('loading').hidden = true;
    $('login').hidden = true;
    $('app').hidden = false;
    $('account').hidden = false;
    $('user-name').textContent = info.user;
    ensureMap(info);
    setRange(rangeFromLocation() || { from: today(), to: today() }, { place: true });
    if (window.TravelogCalendar) window.TravelogCalendar.openOnLastDay();
    loadLatest();
    connectLive();
  }

  // MARK: Map

  function ensureMap(info) {
    if (!state.map) {
      // maxZoom: the pins' clustering needs it before any tile layer gives one.
      state.map = L.map('map', { preferCanvas: true, worldCopyJump: true, maxZoom: 19 }).setView([20, 0], 2);
      state.pathGroup = L.featureGroup().addTo(state.map);
      TravelogJournalMap.attach(state.map);
      TravelogLayers.addOfflineBase(state.map);
      state.map.attributionControl.addAttribution(
        'Places: <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)');
      state.map.on('zoomend', onZoomEnd);
      // For tests: the view the map shows (`#map[data-zoom]`, `#map[data-bounds]` west,south,east,north).
      state.map.on('moveend', () => {
        $('map').dataset.zoom = String(state.map.getZoom());
        $('map').dataset.bounds = state.map.getBounds().toBBoxString();
      });
      TravelogRegions.attach(state.map, api);
    } else {
      state.map.invalidateSize();
    }
    if (state.tiles) state.tiles.remove();
    // Tiles that fail to load leave the map blank; nothing else depends on them.
    state.tiles = L.tileLayer(info.tileURLTemplate, { attribution: info.tileAttribution, maxZoom: 19 })
      .addTo(state.map);
  }

  function onZoomEnd() {
    if (state.pathZoom === null || !state.range || state.pathAbort) return;
    if (Math.abs(Math.round(state.map.getZoom()) - state.pathZoom) > ZOOM_SLACK) loadPath({ place: false });
  }

  function track(device) {
    let found = state.tracks.get(device);
    if (!found) {
      found = { color: TravelogJournalMap.deviceColor(device), lines: [], lastTime: null };
      state.tracks.set(device, found);
      TravelogJournalMap.setDevices(state.tracks.keys());
    }
    return found;
  }

  /** A tooltip's content as text: Leaflet reads a string as HTML, and names come from apps. */
  function textContent(text) {
    const span = document.createElement('span');
    span.textContent = String(text);
    return span;
  }

  function addLine(entry, latlngs, device) {
    const line = L.polyline(latlngs, { color: entry.color, weight: 4, opacity: 0.85 });
    line.bindTooltip(textContent(device), { sticky: true });
    line.addTo(state.pathGroup);
    entry.lines.push(line);
    return line;
  }

  function showPointCount() {
    $('map').dataset.pointCount = String(state.pointCount);
  }

  function clearPath() {
    if (state.pathGroup) state.pathGroup.clearLayers();
    state.tracks.clear();
    if (state.map) TravelogJournalMap.setDevices([]);
    state.pointCount = 0;
    state.pathZoom = null;
    showPointCount();
  }

  /** Draws a path FeatureCollection (one MultiLineString per device), replacing what was drawn. */
  function drawPath(collection, zoom) {
    clearPath();
    let count = 0;
    // Wide ranges and the heatmap are drawn by the server's tiles instead (loadTiledRange).
    state.tiledBounds = L.latLngBounds([]);
    for (const feature of collection.features) {
      const properties = feature.properties;
      const entry = track(properties.device);
      for (const coordinates of feature.geometry.coordinates) {
        addLine(entry, coordinates.map(([longitude, latitude]) => [latitude, longitude]), properties.device);
        count += coordinates.length;
      }
      entry.lastTime = properties.last ? Date.parse(properties.last) : null;
    }
    state.pointCount = count;
    state.pathZoom = zoom;
    showPointCount();
    state.distanceMeters = collection.properties.distanceMeters;
    state.locationCount = collection.properties.rawPointCount;
    showSummary();
  }

  /** Appends a live location to its device's line; only the new point is drawn. */
  function appendToPath(device, location) {
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
    state.pointCount += 1;
    showPointCount();
  }

  async function loadPath({ place }) {
    if (state.pathAbort) state.pathAbort.abort();
    const abort = new AbortController();
    state.pathAbort = abort;
    state.pathBacklog = [];
    $('map').setAttribute('aria-busy', 'true');
    const zoom = state.placed ? Math.round(state.map.getZoom()) : FIRST_ZOOM;
    try {
      const collection = await api(`/api/v1/path?${rangeQuery({ zoom })}`, { signal: abort.signal });
      if (abort.signal.aborted) return;
      drawPath(collection, zoom);
      const backlog = state.pathBacklog;
      state.pathAbort = null;
      state.pathBacklog = null;
      for (const { device, location } of backlog) appendToPath(device, location);
      $('map').setAttribute('aria-busy', 'false');
      // Moving the map asks for the path again if the zoom changes much (onZoomEnd); so does a
      // zoom the person made while this request was under way.
      if (place) placeMap();
      else onZoomEnd();
    } catch (error) {
      if (error.name === 'AbortError') return;
      if (state.pathAbort === abort) {
        state.pathAbort = null;
        state.pathBacklog = null;
        $('map').setAttribute('aria-busy', 'false');
      }
      if (error.status !== 401) showStatus(`The path could not be loaded: ${error.message}`, true);
    }
  }

  /** A range drawn by tiles: its bounds and count come from the tile index (cheap for any range),
   * the map moves there and the tiles show at once; `drawn` is called once the tiles of the view
   * are drawn (the list and the journal, whose statistics read every fix and give the distance,
   * wait for it so they do not hold back the first draw). */
  async function loadTiledRange({ place, drawn }) {
    if (state.pathAbort) state.pathAbort.abort();
    if (state.boundsAbort) state.boundsAbort.abort();
    state.pathAbort = null;
    state.pathBacklog = null;
    clearPath();
    TravelogLayers.clear();
    const abort = new AbortController();
    state.boundsAbort = abort;
    const range = state.range;
    $('map').setAttribute('aria-busy', 'true');
    try {
      const answer = await api(`/api/v1/tiles/bounds?${rangeQuery()}`, { signal: abort.signal });
      if (abort.signal.aborted) return;
      state.boundsAbort = null;
      const edges = answer.bounds;
      state.tiledBounds = edges ? L.latLngBounds([edges.south, edges.west], [edges.north, edges.east]) : L.latLngBounds([]);
      state.locationCount = answer.locationCount;
      for (const device of answer.devices) track(device);  // the legend's devices
      showSummary();
      // Without animation, so the tiles are asked for at the view they are drawn in.
      if (place) placeMap({ animate: false });
    } catch (error) {
      if (error.name === 'AbortError') return;
      if (state.boundsAbort === abort) state.boundsAbort = null;
      if (error.status !== 401) showStatus(`The range could not be placed: ${error.message}`, true);
    } finally {
      if (state.boundsAbort === null) $('map').setAttribute('aria-busy', 'false');
    }
    if (range !== state.range) return;
    // Placed (or not): the tiles of the view now, the rest after them.
    TravelogLayers.show(state.range, rangeQuery(), () => { if (range === state.range) drawn(); });
  }

  /** Moves the map to the drawn path (or to the current position when the range has none). */
  function placeMap({ animate = true } = {}) {
    let bounds = state.pathGroup.getBounds();
    if (!bounds.isValid() && state.tiledBounds) bounds = state.tiledBounds;
    if (bounds.isValid()) {
      state.placed = true;
      // A zoom far from the one the path was simplified for asks for the path again (onZoomEnd).
      state.map.fitBounds(bounds, { padding: [24, 24], maxZoom: 17, animate });
    } else if (state.current) {
      state.placed = true;
      state.map.setView(state.current.marker.getLatLng(), Math.max(state.map.getZoom(), 13));
    }
  }

  // MARK: Current position

  async function loadLatest() {
    try {
      const collection = await api('/api/v1/latest');
      let newest = null;
      for (const feature of collection.features) {
        const time = Date.parse(feature.properties.timestamp);
        if (!newest || time > newest.time) newest = { feature, time };
      }
      if (!newest) return;
      showCurrent(newest.feature.properties.device, fromFeature(newest.feature));
      if (!state.placed && state.pointCount === 0 && !state.pathAbort) placeMap();
    } catch (error) {
      if (error.status !== 401) showStatus(`The current position could not be loaded: ${error.message}`, true);
    }
  }

  function showCurrent(device, location) {
    const time = Date.parse(location.timestamp);
    if (state.current && state.current.time > time) return;
    const latlng = [location.latitude, location.longitude];
    const radius = typeof location.accuracy === 'number' && location.accuracy >= 0 ? location.accuracy : 0;
    const label = `Current position: ${device}, ${formatTime(time, true)}`
      + (radius > 0 ? `, within ${Math.round(radius)} m` : '');
    if (!state.current) {
      const circle = L.circle(latlng, { radius, color: '#1565c0', weight: 1, fillOpacity: 0.12, interactive: false });
      const marker = L.circleMarker(latlng, { radius: 7, color: '#fff', weight: 2, fillColor: '#1565c0', fillOpacity: 1 });
      circle.addTo(state.map);
      marker.addTo(state.map);
      marker.bindTooltip(textContent(label));
      state.current = { marker, circle, time };
    } else {
      state.current.marker.setLatLng(latlng).setTooltipContent(textContent(label));
      state.current.circle.setLatLng(latlng).setRadius(radius);
      state.current.time = time;
    }
  }

  // MARK: List

  function clearList() {
    $('locations').replaceChildren();
    state.listEntries = [];
    state.listKeys.clear();
    state.listPage = 0;
    $('list-note').textContent = '';
    showListPage();
  }

  /** Shows one page of LIST_PAGE_SIZE rows (the others stay in the list, hidden). */
  function showListPage() {
    const count = state.listEntries.length;
    const pages = Math.max(1, Math.ceil(count / LIST_PAGE_SIZE));
    state.listPage = Math.min(Math.max(0, state.listPage), pages - 1);
    state.listEntries.forEach((entry, index) => {
      entry.element.hidden = Math.floor(index / LIST_PAGE_SIZE) !== state.listPage;
    });
    const first = state.listPage * LIST_PAGE_SIZE;
    $('locations-page').textContent = count === 0 ? ''
      : `${first + 1}–${Math.min(count, first + LIST_PAGE_SIZE)} of ${count}`;
    $('locations-previous').disabled = state.listPage === 0;
    $('locations-next').disabled = state.listPage >= pages - 1;
    $('locations-page').closest('.pager').hidden = count <= LIST_PAGE_SIZE;
  }

  function listItem(time, device, source, latitude, longitude, accuracy, fresh) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    const when = document.createElement('span');
    when.className = 'when';
    when.textContent = formatTime(time, state.range.from !== state.range.to);
    const what = document.createElement('span');
    what.className = 'what';
    const parts = [device, source === 'manual' ? 'logged by hand' : source,
      `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`];
    if (typeof accuracy === 'number' && accuracy >= 0) parts.push(`±${Math.round(accuracy)} m`);
    what.textContent = parts.join(' · ');
    button.append(when, what);
    button.setAttribute('aria-label', `${when.textContent}, ${what.textContent}: show on the map`);
    button.addEventListener('click', () => state.map.setView([latitude, longitude], Math.max(state.map.getZoom(), 15)));
    item.append(button);
    if (fresh) item.classList.add('is-new');
    return item;
  }

  /** Adds a location in its place (newest first), once, keeping at most LIST_LIMIT. */
  function addToList(entry, fresh) {
    const key = `${entry.device}|${entry.time}`;
    if (state.listKeys.has(key)) return;
    let index = state.listEntries.findIndex((other) => other.time < entry.time);
    if (index < 0) index = state.listEntries.length;
    if (index >= LIST_LIMIT) return;
    const element = listItem(entry.time, entry.device, entry.source, entry.latitude, entry.longitude, entry.accuracy, fresh);
    const list = $('locations');
    const before = state.listEntries[index];
    list.insertBefore(element, before ? before.element : null);
    state.listEntries.splice(index, 0, { time: entry.time, key, element });
    state.listKeys.add(key);
    while (state.listEntries.length > LIST_LIMIT) {
      const dropped = state.listEntries.pop();
      dropped.element.remove();
      state.listKeys.delete(dropped.key);
    }
    showListNote();
  }

  function showListNote() {
    showListPage();
    const shown = state.listEntries.length;
    $('list-note').textContent = shown === 0 ? 'No locations on these dates.'
      : (state.locationCount !== null && state.locationCount > shown ? `The newest ${shown} of ${state.locationCount}.` : '');
  }

  async function loadList() {
    if (state.listAbort) state.listAbort.abort();
    const abort = new AbortController();
    state.listAbort = abort;
    state.listBacklog = [];
    try {
      const collection = await api(`/api/v1/locations?${rangeQuery({ order: 'newest', limit: LIST_LIMIT })}`,
        { signal: abort.signal });
      if (abort.signal.aborted) return;
      clearList();
      const list = $('locations');
      const fragment = document.createDocumentFragment();
      for (const feature of collection.features) {
        const [longitude, latitude] = feature.geometry.coordinates;
        const properties = feature.properties;
        const time = Date.parse(properties.timestamp);
        const key = `${properties.device}|${time}`;
        if (state.listKeys.has(key)) continue;
        const element = listItem(time, properties.device, properties.source, latitude, longitude,
          properties.accuracy, false);
        fragment.append(element);
        state.listEntries.push({ time, key, element });
        state.listKeys.add(key);
      }
      list.append(fragment);
      const backlog = state.listBacklog;
      state.listAbort = null;
      state.listBacklog = null;
      for (const entry of backlog) addToList(entry, true);
      showListNote();
    } catch (error) {
      if (error.name === 'AbortError') return;
      if (state.listAbort === abort) {
        state.listAbort = null;
        state.listBacklog = null;
      }
      if (error.status !== 401) showStatus(`The locations could not be loaded: ${error.message}`, true);
    }
  }

  // MARK: Live

  function connectLive() {
    closeLive();
    const events = new EventSource('/api/v1/live');
    state.events = events;
    let dropped = false;
    events.addEventListener('open', () => {
      $('live-state').textContent = 'Live: new locations appear as they arrive.';
      // Catch up with what arrived while the stream was down.
      if (dropped) {
        dropped = false;
        reloadRange(false);
        loadLatest();
      }
    });
    events.addEventListener('error', () => {
      dropped = true;
      if (events.readyState === EventSource.CLOSED) {
        $('live-state').textContent = 'Live updates stopped.';
        state.events = null;
        // The stream is refused when the session has ended: this shows the login form then.
        api('/api/v1/session').then(() => window.setTimeout(() => { if (state.session && !state.events) connectLive(); }, 5000),
          () => {});
      } else {
        $('live-state').textContent = 'Live updates interrupted; reconnecting…';
      }
    });
    events.addEventListener('locations', (event) => {
      let update;
      try {
        update = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      receive(update);
    });
  }

  function closeLive() {
    if (state.events) state.events.close();
    state.events = null;
  }

  /** Whether a time falls on the chosen days (in the browser's time zone). */
  function inRange(time) {
    const day = localDay(new Date(time));
    return state.range && day >= state.range.from && day <= state.range.to;
  }

  /** A location feature (as the read API, the export and the live stream write it) as the page's plain object. */
  function fromFeature(feature) {
    const [longitude, latitude] = feature.geometry.coordinates;
    const properties = feature.properties;
    return { latitude, longitude, timestamp: properties.timestamp, accuracy: properties.accuracy };
  }

  function receive(update) {
    let added = false;
    for (const feature of update.locations) {
      const location = fromFeature(feature);
      const time = Date.parse(location.timestamp);
      if (Number.isNaN(time)) continue;
      showCurrent(update.device, location);
      if (!inRange(time)) continue;
      added = true;
      if (state.pathBacklog) state.pathBacklog.push({ device: update.device, location });
      else appendToPath(update.device, location);
      const entry = {
        time, device: update.device, source: update.source,
        latitude: location.latitude, longitude: location.longitude, accuracy: location.accuracy,
      };
      if (state.listBacklog) state.listBacklog.push(entry);
      else addToList(entry, true);
      if (state.locationCount !== null) state.locationCount += 1;
    }
    if (added) {
      showSummary();
      TravelogLayers.refresh();  // the history tiles the new fixes landed in (the others answer 304)
      // The server re-detects visits as fixes arrive: ask for the journal again a little later.
      window.clearTimeout(state.journalTimer);
      state.journalTimer = window.setTimeout(loadJournal, JOURNAL_REFRESH_MILLISECONDS);
      window.clearTimeout(state.distanceTimer);
      state.distanceTimer = window.setTimeout(refreshDistance, DISTANCE_REFRESH_MILLISECONDS);
    }
  }

  /** Asks the server for the range's distance again (its jitter filter decides what new fixes add). */
  async function refreshDistance() {
    if (!state.range) return;
    const range = state.range;
    try {
      const statistics = await api(`/api/v1/stats?${rangeQuery({ by: 'year' })}`);
      if (range !== state.range) return;
      state.distanceMeters = statistics.total.distanceMeters;
      state.locationCount = statistics.total.locations;
      showSummary();
    } catch (_) { /* the figure shown stays */ }
  }

  // MARK: Log my location

  function logHere() {
    const button = $('log-here');
    if (!('geolocation' in navigator)) {
      showStatus(window.isSecureContext ? 'This browser cannot tell its location.'
        : 'The browser shares its location only with pages served over HTTPS (or from localhost).', true);
      return;
    }
    button.disabled = true;
    showStatus('Finding your location…', false);
    navigator.geolocation.getCurrentPosition(async (position) => {
      const coords = position.coords;
      const entry = {
        latitude: coords.latitude,
        longitude: coords.longitude,
        timestamp: new Date(position.timestamp || Date.now()).toISOString(),
        accuracy: coords.accuracy,
      };
      if (typeof coords.altitude === 'number') entry.altitude = coords.altitude;
      if (typeof coords.speed === 'number' && !Number.isNaN(coords.speed)) entry.speed = coords.speed;
      if (typeof coords.heading === 'number' && !Number.isNaN(coords.heading)) entry.course = coords.heading;
      try {
        await api('/api/v1/locations?source=manual', {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify([entry]),
        });
        showStatus(`Logged ${coords.latitude.toFixed(5)}, ${coords.longitude.toFixed(5)} (±${Math.round(coords.accuracy)} m).`, false);
      } catch (error) {
        if (error.status !== 401) showStatus(`The location could not be saved: ${error.message}`, true);
      } finally {
        button.disabled = false;
      }
    }, (error) => {
      button.disabled = false;
      const reasons = {
        1: 'Permission to use your location was denied. Allow it in the browser\'s site settings to log it.',
        2: 'Your location is not available right now.',
        3: 'Finding your location took too long. Try again.',
      };
      showStatus(reasons[error.code] || `Your location could not be found: ${error.message}`, true);
    }, { enableHighAccuracy: true, timeout: 30000, maximumAge: 0 });
  }

  // MARK: Dates

  function pad(number) {
    return String(number).padStart(2, '0');
  }

  /** YYYY-MM-DD of a date in the browser's time zone. */
  function localDay(date) {
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }

  function today() {
    return localDay(new Date());
  }

  function isDay(text) {
    return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T12:00:00`));
  }

  function addDays(day, count) {
    const [year, month, date] = day.split('-').map(Number);
    // Noon: never a time a daylight-saving change skips.
    return localDay(new Date(year, month - 1, date + count, 12));
  }

  function daysBetween(from, to) {
    const [a, b] = [from, to].map((day) => { const [y, m, d] = day.split('-').map(Number); return Date.UTC(y, m - 1, d); });
    return Math.round((b - a) / 86400000);
  }

  /** `#from=YYYY-MM-DD&to=YYYY-MM-DD` in the address, so a range can be bookmarked. */
  function rangeFromLocation() {
    const parameters = new URLSearchParams(window.location.hash.slice(1));
    const from = parameters.get('from');
    if (!isDay(from)) return null;
    const to = parameters.get('to');
    return { from, to: isDay(to) && to >= from ? to : from };
  }

  function setRange(range, { place }) {
    state.range = range;
    $('from').value = range.from;
    $('to').value = range.to;
    const isRange = range.from !== range.to;
    $('range-toggle').checked = isRange || $('range-toggle').checked;
    showRangeInputs();
    const hash = isRange ? `#from=${range.from}&to=${range.to}` : (range.from === today() ? '' : `#from=${range.from}`);
    if (window.location.hash !== hash) {
      window.history.replaceState(null, '', hash || window.location.pathname + window.location.search);
    }
    for (const link of document.querySelectorAll('.exports a')) {
      link.href = `/api/v1/export?${rangeQuery({ format: link.dataset.format })}`;
    }
    reloadRange(place);
  }

  function reloadRange(place) {
    showDayThumbnails();
    state.distanceMeters = null;
    state.locationCount = null;
    showSummary();
    if (TravelogLayers.usesTiles(state.range)) {
      loadTiledRange({ place, drawn: () => { loadList(); loadJournal(); } });
      return;
    }
    if (state.boundsAbort) state.boundsAbort.abort();
    state.boundsAbort = null;
    TravelogLayers.show(state.range, rangeQuery());
    loadPath({ place });
    loadList();
    loadJournal();
  }

  function showRangeInputs() {
    const isRange = $('range-toggle').checked;
    $('to-group').hidden = !isRange;
    $('from-label').textContent = isRange ? 'From' : 'Day';
    const days = isRange ? 'range' : 'day';
    $('previous').setAttribute('aria-label', `Previous ${days}`);
    $('next').setAttribute('aria-label', `Next ${days}`);
  }

  function rangeFromInputs() {
    const from = isDay($('from').value) ? $('from').value : today();
    let to = $('range-toggle').checked && isDay($('to').value) ? $('to').value : from;
    if (to < from) to = from;
    return { from, to };
  }

  function shiftRange(direction) {
    const length = daysBetween(state.range.from, state.range.to) + 1;
    setRange({ from: addDays(state.range.from, direction * length), to: addDays(state.range.to, direction * length) },
      { place: true });
  }

  // MARK: Text

  function formatTime(time, withDate) {
    const options = withDate
      ? { dateStyle: 'medium', timeStyle: 'medium' }
      : { timeStyle: 'medium' };
    return new Intl.DateTimeFormat(undefined, options).format(new Date(time));
  }

  function showSummary() {
    const output = $('distance');
    if (state.distanceMeters === null) {
      output.textContent = '–';
    } else {
      const imperial = state.units === 'imperial';
      const value = imperial ? state.distanceMeters / METERS_PER_MILE : state.distanceMeters / 1000;
      const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: value < 10 ? 2 : 1 }).format(value);
      output.textContent = `${number} ${imperial ? 'mi' : 'km'}`;
    }
    $('count').textContent = state.locationCount === null ? ''
      : `${new Intl.NumberFormat().format(state.locationCount)} location${state.locationCount === 1 ? '' : 's'} logged`;
    for (const radio of document.querySelectorAll('input[name="units"]')) radio.checked = radio.value === state.units;
  }

  // MARK: Journal

  /** Loads the journal for the range: visits as pins and a list, trips as lines, statistics. */
  async function loadJournal() {
    if (!state.range || !state.map) return;
    // Only the latest request draws: an older answer arriving late must not undo a newer one.
    const sequence = (state.journalSequence || 0) + 1;
    state.journalSequence = sequence;
    $('journal').setAttribute('aria-busy', 'true');
    const range = rangeQuery();
    try {
      const [visits, trips, whereabouts, stats] = await Promise.all([
        api(`/api/v1/visits?${range}`), api(`/api/v1/trips?${range}`),
        api(`/api/v1/whereabouts?${range}`), api(`/api/v1/stats?${rangeQuery({ by: statsPeriod(), units: units() })}`),
      ]);
      if (sequence !== state.journalSequence) return;
      drawJournal(visits, trips);
      showJournalList(visits);
      if (TravelogLayers.usesTiles(state.range) && stats.total) {
        // A range drawn by tiles has no path request: its distance comes from the statistics.
        state.distanceMeters = stats.total.distanceMeters;
        state.locationCount = stats.total.locations;
        showSummary();
      }
      showStatistics(whereabouts, stats);
      if (window.TravelogTimeline) window.TravelogTimeline.render({ visits, trips, stats, units: units() });
      window.TravelogRegions.showTransitions(range);
    } catch (error) {
      if (error.status !== 401 && sequence === state.journalSequence) {
        showStatus(`The journal could not be loaded: ${error.message}`, true);
      }
    } finally {
      if (sequence === state.journalSequence) $('journal').setAttribute('aria-busy', 'false');
    }
  }

  function statsPeriod() {
    const days = daysBetween(state.range.from, state.range.to) + 1;
    return days > 400 ? 'year' : days > 90 ? 'month' : days > 31 ? 'week' : 'day';
  }

  function units() { return state.units === 'imperial' ? 'imperial' : 'metric'; }

  function durationText(seconds) {
    if (seconds === null || seconds === undefined) return 'ongoing';
    const minutes = Math.round(seconds / 60);
    return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  }

  function visitTimes(visit) {
    const day = visit.localArrival.slice(0, 10);
    const clock = window.TravelogTimeline.clock;  // the page's one clock format, at the place's wall time
    const end = visit.localDeparture ? `–${clock(visit.localDeparture, visit.localArrival)}` : ' (ongoing)';
    return `${day} ${clock(visit.localArrival)}${end}`;
  }

  function drawJournal(visits, trips) {
    TravelogJournalMap.draw(visits, trips,
      (trip) => `${trip.mode}, ${formatDistance(trip.distanceMeters)}, ${durationText(trip.durationSeconds)}`, visitCallout);
  }

  function formatDistance(meters) {
    return units() === 'imperial' ? `${(meters / 1609.344).toFixed(2)} mi` : `${(meters / 1000).toFixed(2)} km`;
  }

  /** A pin's callout: title, local times, duration, and the edits. */
  function visitCallout(visit) {
    const box = document.createElement('div');
    box.className = 'callout';
    const title = document.createElement('strong');
    title.textContent = visit.place;
    const times = document.createElement('div');
    times.textContent = `${visitTimes(visit)} · ${durationText(visit.durationSeconds)}`;
    box.append(title, times, visitActions(visit));
    return box;
  }

  function visitActions(visit) {
    const actions = document.createElement('div');
    actions.className = 'actions';
    const button = (label, handler, name) => {
      const element = document.createElement('button');
      element.type = 'button';
      element.textContent = label;
      element.dataset.action = name;
      element.addEventListener('click', () => handler(visit));
      actions.append(element);
    };
    button('Rename', renameVisit, 'rename');
    button('Delete', deleteVisit, 'delete');
    button('Merge with next', mergeVisit, 'merge');
    if (visit.placeID !== null) button('Name this place', namePlace, 'name-place');
    return actions;
  }

  /** A snapshot per day of a short range, above the journal's entries. */
  function showDayThumbnails() {
    const days = $('journal-days');
    days.replaceChildren();
    const count = daysBetween(state.range.from, state.range.to) + 1;
    if (count > 14) return;
    for (let index = 0; index < count; index += 1) {
      const day = addDays(state.range.from, index);
      const figure = document.createElement('figure');
      const image = document.createElement('img');
      image.loading = 'lazy';
      image.alt = `Map of ${day}`;
      image.src = TravelogLayers.dayThumbnailURL(day, timeZone);
      const caption = document.createElement('figcaption');
      caption.textContent = day;
      figure.append(image, caption);
      days.append(figure);
    }
  }

  function showJournalList(visits) {
    state.visits = visits;
    const list = $('journal');
    list.replaceChildren();
    for (const visit of [...visits].reverse()) {
      const item = document.createElement('li');
      item.dataset.visitId = String(visit.id);
      const title = document.createElement('span');
      title.className = 'place';
      title.textContent = visit.place;
      const times = document.createElement('span');
      times.className = 'muted';
      times.textContent = ` ${visitTimes(visit)} · ${durationText(visit.durationSeconds)}`;
      title.addEventListener('click', () => state.map.setView([visit.latitude, visit.longitude], Math.max(state.map.getZoom(), 15)));
      item.append(title, times, visitActions(visit));
      list.append(item);
    }
    $('journal-note').textContent = visits.length ? '' : 'No visits in these days yet.';
  }

  async function editJournal(request, done) {
    try {
      await request();
      showStatus(done, false);
      state.map.closePopup();
      await loadJournal();
    } catch (error) {
      if (error.status !== 401) showStatus(`The journal could not be changed: ${error.message}`, true);
    }
  }

  function jsonRequest(method, body) {
    return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  }

  function renameVisit(visit) {
    const title = window.prompt('A title for this entry (empty for none)', visit.place);
    if (title === null) return;
    editJournal(() => api(`/api/v1/visits/${visit.id}`, jsonRequest('PATCH', { title })), 'Entry renamed.');
  }

  function deleteVisit(visit) {
    if (!window.confirm(`Delete “${visit.place}”? It will not come back.`)) return;
    editJournal(() => api(`/api/v1/visits/${visit.id}`, { method: 'DELETE' }), 'Entry deleted.');
  }

  function mergeVisit(visit) {
    const next = (state.visits || []).find((other) => other.device === visit.device && other.arrival > visit.arrival);
    if (!next) { showStatus('There is no later entry of this device to merge with.', true); return; }
    editJournal(() => api('/api/v1/visits/merge', jsonRequest('POST', { ids: [visit.id, next.id] })), 'Entries merged.');
  }

  function namePlace(visit) {
    const name = window.prompt('A name for this place (its visits carry it)', visit.place);
    if (name === null) return;
    editJournal(() => api(`/api/v1/places/${visit.placeID}`, jsonRequest('PATCH', { name })), 'Place named.');
  }

  function showStatistics(whereabouts, stats) {
    const periods = $('periods');
    periods.replaceChildren();
    for (const period of stats.periods) {
      const item = document.createElement('li');
      item.textContent = `${period.period}: ${period.distance.toFixed(2)} ${period.unit}`;
      periods.append(item);
    }
    $('countries').textContent = whereabouts.countries.length
      ? whereabouts.countries.map((country) => `${country.code} (${country.days} ${country.days === 1 ? 'day' : 'days'})`).join(', ')
      : '–';
    $('cities').textContent = whereabouts.cities.length
      ? whereabouts.cities.map((city) => city.name).join(', ') : '–';
  }

  function showStatus(message, isError) {
    const status = $('status');
    status.textContent = message;
    status.classList.toggle('is-error', Boolean(isError));
  }

  // MARK: Controls

  /** Each section of the side panel opens and closes as the person left it (localStorage). */
  function bindSections() {
    for (const section of document.querySelectorAll('details[data-section]')) {
      const key = `travelog.section.${section.dataset.section}`;
      const saved = localStorage.getItem(key);
      if (saved === 'open' || saved === 'closed') section.open = saved === 'open';
      section.addEventListener('toggle', () => localStorage.setItem(key, section.open ? 'open' : 'closed'));
    }
  }

  function bindControls() {
    bindSections();
    $('locations-previous').addEventListener('click', () => { state.listPage -= 1; showListPage(); });
    $('locations-next').addEventListener('click', () => { state.listPage += 1; showListPage(); });
    $('login-form').addEventListener('submit', logIn);
    $('logout').addEventListener('click', logOut);
    $('range-form').addEventListener('submit', (event) => event.preventDefault());
    $('from').addEventListener('change', () => {
      if (!$('range-toggle').checked) $('to').value = $('from').value;
      setRange(rangeFromInputs(), { place: true });
    });
    $('to').addEventListener('change', () => setRange(rangeFromInputs(), { place: true }));
    $('range-toggle').addEventListener('change', () => {
      showRangeInputs();
      if (!$('range-toggle').checked) setRange({ from: state.range.from, to: state.range.from }, { place: true });
      else $('to').focus();
    });
    $('previous').addEventListener('click', () => shiftRange(-1));
    $('next').addEventListener('click', () => shiftRange(1));
    $('today').addEventListener('click', () => {
      $('range-toggle').checked = false;
      setRange({ from: today(), to: today() }, { place: true });
    });
    for (const radio of document.querySelectorAll('input[name="units"]')) {
      radio.addEventListener('change', () => {
        state.units = radio.value === 'imperial' ? 'imperial' : 'metric';
        localStorage.setItem(UNITS_KEY, state.units);
        showSummary();
        loadJournal();
      });
    }
    $('log-here').addEventListener('click', logHere);
    // import.js stored new history: show the days it covers.
    window.addEventListener('travelog:history-changed', (event) => {
      const { from, to } = event.detail || {};
      if (from && to && isDay(from) && isDay(to)) {
        $('range-toggle').checked = from !== to;
        setRange({ from, to }, { place: true });
      } else if (state.range) {
        reloadRange(true);
      }
    });
    TravelogLayers.bindSwitch(() => { if (state.range) reloadRange(false); });
    $('view-image').addEventListener('click', () => {
      if (state.map && state.range) $('view-image').href = TravelogLayers.imageURL(rangeQuery());
    });
    window.addEventListener('hashchange', () => {
      const range = rangeFromLocation();
      if (state.session && range && (range.from !== state.range.from || range.to !== state.range.to)) {
        setRange(range, { place: true });
      }
    });
    showSummary();
  }

  start();
})();
