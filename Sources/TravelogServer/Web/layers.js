// Travelog's map layers: the history as server-drawn tiles (path, heatmap, points) for ranges
// of more than one day, the offline world base under the tile server's tiles (shown instead of
// grey when they cannot load), and images of the view (GET /api/v1/snapshot).
//
// `#map[data-history-tiles]` counts the history tiles loaded, `#map[data-history-drawn]` is set
// (to the zoom) once every tile of the view the layer was shown in has loaded, and
// `#map[data-history-layer]` names the layer shown, for tests.
'use strict';

window.TravelogLayers = (() => {
  const LAYER_KEY = 'travelog.layer';
  const LAYERS = ['path', 'heat', 'points', 'explored'];
  let map = null;
  let historyTiles = null;
  let loaded = 0;
  let refreshTimer = null;
  const REFRESH_MILLISECONDS = 30000;
  let chosen = LAYERS.includes(localStorage.getItem(LAYER_KEY)) ? localStorage.getItem(LAYER_KEY) : 'path';

  /** The offline base, below everything (a pane under the tile pane). */
  function addOfflineBase(leafletMap) {
    map = leafletMap;
    map.createPane('offline-base');
    map.getPane('offline-base').style.zIndex = 150;
    L.tileLayer('/api/v1/basemap/{z}/{x}/{y}.png', {
      pane: 'offline-base', maxZoom: 19, attribution: 'Offline base: Natural Earth',
    }).addTo(map);
    map.createPane('history');
    map.getPane('history').style.zIndex = 350;
  }

  /** The chosen layer: path, heat, points or explored (the fog of war over what was never visited). */
  function layer() { return chosen; }

  /** Whether the history is drawn with tiles: any range longer than a day, or heat and points always. */
  function usesTiles(range) {
    return chosen !== 'path' || range.from !== range.to;
  }

  /** Removes the history tiles shown. */
  function clear() {
    if (historyTiles) historyTiles.remove();
    historyTiles = null;
    loaded = 0;
    const element = document.getElementById('map');
    element.dataset.historyTiles = '0';
    delete element.dataset.historyDrawn;
  }

  /** Shows the history tiles of a range (query string without the layer) or removes them;
   * `drawn` is called once, when every tile of the view has loaded. */
  function show(range, query, drawn) {
    clear();
    const element = document.getElementById('map');
    element.dataset.historyLayer = usesTiles(range) ? chosen : 'vector';
    if (!map || !usesTiles(range)) {
      if (drawn) drawn();
      return;
    }
    const scale = window.devicePixelRatio >= 1.5 ? '&scale=2' : '';
    historyTiles = L.tileLayer(`/api/v1/tiles/${chosen}/{z}/{x}/{y}.png?${query}${scale}`, {
      pane: 'history', maxZoom: 19,
    });
    historyTiles.on('tileload', () => { loaded += 1; element.dataset.historyTiles = String(loaded); });
    historyTiles.once('load', () => {
      element.dataset.historyDrawn = String(map.getZoom());
      if (drawn) drawn();
    });
    historyTiles.addTo(map);
  }

  /** New fixes landed: the tiles are asked for again, at most every REFRESH_MILLISECONDS
   * (unchanged ones answer 304 to their ETag). */
  function refresh() {
    if (!historyTiles || refreshTimer) return;
    refreshTimer = window.setTimeout(() => {
      refreshTimer = null;
      if (historyTiles) historyTiles.redraw();
    }, REFRESH_MILLISECONDS);
  }

  /** Wires the layer switch; `changed` is called after the choice moves. */
  function bindSwitch(changed) {
    for (const input of document.querySelectorAll('input[name=layer]')) {
      input.checked = input.value === chosen;
      input.addEventListener('change', () => {
        if (!input.checked) return;
        chosen = input.value;
        localStorage.setItem(LAYER_KEY, chosen);
        changed();
      });
    }
  }

  /** The URL of an image of what the map shows now, as the map's size and the chosen layer. */
  function imageURL(query) {
    // Exactly the view: its centre and zoom (view=LAT,LON,ZOOM, drawn at that zoom by the server)
    // in an image of the map's CSS size, at the screen's pixel ratio. The bounds sent as a region
    // were fitted again by the server, which could snap a zoom-15 view to 14.
    const center = map.getCenter();
    const size = map.getSize();
    const parameters = new URLSearchParams(query);
    parameters.set('view', `${center.lat.toFixed(6)},${L.Util.wrapNum(center.lng, [-180, 180], true).toFixed(6)},${Math.round(map.getZoom())}`);
    parameters.set('size', `${Math.max(16, Math.min(4096, size.x))}x${Math.max(16, Math.min(4096, size.y))}`);
    parameters.set('layer', chosen === 'explored' ? 'path' : chosen);
    parameters.set('scale', window.devicePixelRatio >= 1.5 ? '2' : '1');
    parameters.set('photos', 'true');  // the map shows the range's photos: so does its image
    return `/api/v1/snapshot?${parameters}`;
  }

  /** A small image of one day for the journal. */
  function dayThumbnailURL(day, timeZone) {
    const parameters = new URLSearchParams({ from: day, to: day, timezone: timeZone, size: '240x140', layer: 'path' });
    return `/api/v1/snapshot?${parameters}`;
  }

  return { addOfflineBase, layer, usesTiles, clear, show, refresh, bindSwitch, imageURL, dayThumbnailURL };
})();
