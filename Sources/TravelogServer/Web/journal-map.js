// Travelog's journal on the map: visits as pins, clustered at low zoom (Leaflet.markercluster from
// Debian's libjs-leaflet.markercluster) in a pane above the path, so a click reaches them as it
// reaches MapKit's annotations above its overlays; trips as dashed lines coloured by transport
// mode; a legend of the devices' colours and the modes shown (colours from colors.js). An ES module
// that sets window.TravelogJournalMap for the classic scripts.
//
// `#map[data-visit-count]`, `#map[data-trip-count]` and `#map[data-matched-trip-count]` (trips drawn
// on the roads they were matched to) count what is drawn, for tests; `#map[data-label-count]` the
// labels people put on fixes (an OwnTracks POI or tag, a file's named waypoint), drawn as small
// flags with their words.
import { MODE_COLORS, modeColor } from './colors.js';
import { placeSubtitle } from './format.js';

window.TravelogJournalMap = (() => {
  /** The pins' pane: above the overlay pane (400, where the path is drawn) and Leaflet's marker pane (600). */
  const PIN_PANE = 'journal-pins';
  const PIN_PANE_Z_INDEX = 650;
  /** Pins closer than this many pixels are drawn as one cluster… */
  const CLUSTER_RADIUS_PIXELS = 40;
  /** …below this zoom (street level and closer shows every pin). */
  const UNCLUSTERED_ZOOM = 16;

  let map = null;
  let trips = null;
  let pins = null;
  let labels = null;
  let legend = null;
  const shownDevices = new Map();
  const shownModes = new Set();

  /** Adds the journal's layers and the legend to the map. */
  function attach(leafletMap) {
    map = leafletMap;
    map.createPane(PIN_PANE);
    map.getPane(PIN_PANE).style.zIndex = String(PIN_PANE_Z_INDEX);
    trips = L.featureGroup().addTo(map);
    // Without the plugin (not installed) the pins are still drawn, one by one.
    pins = typeof L.markerClusterGroup === 'function'
      ? L.markerClusterGroup({
        clusterPane: PIN_PANE, maxClusterRadius: CLUSTER_RADIUS_PIXELS, disableClusteringAtZoom: UNCLUSTERED_ZOOM,
        showCoverageOnHover: false,
      })
      : L.featureGroup();
    pins.addTo(map);
    labels = L.featureGroup().addTo(map);
    legend = L.control({ position: 'bottomright' });
    legend.onAdd = () => {
      const box = L.DomUtil.create('div', 'map-legend');
      box.id = 'map-legend';
      L.DomEvent.disableClickPropagation(box);
      return box;
    };
    legend.addTo(map);
  }

  /** A pin's marker: a DOM element, so it takes clicks in its own pane above the canvas path. */
  function pin(visit, callout) {
    const icon = L.divIcon({ className: 'visit-pin', iconSize: [16, 16], iconAnchor: [8, 8], popupAnchor: [0, -8] });
    const address = placeSubtitle(visit);
    const title = address ? `${visit.place} · ${address}` : visit.place;
    const marker = L.marker([visit.latitude, visit.longitude], { icon, pane: PIN_PANE, title, keyboard: true });
    marker.bindPopup(() => callout(visit));
    // While a region is being placed or drawn, a click on a pin places it there (regions.js).
    marker.on('click', () => {
      if (window.TravelogRegions && window.TravelogRegions.placeAt(marker.getLatLng())) marker.closePopup();
    });
    return marker;
  }

  /**
   * Draws a range's visits and trips, replacing what was drawn.
   * @param visits the journal's visits (latitude, longitude, place…)
   * @param tripList the journal's trips (coordinates as [longitude, latitude], mode…)
   * @param describe a trip's tooltip text
   * @param callout a visit's popup element
   */
  function draw(visits, tripList, describe, callout) {
    trips.clearLayers();
    pins.clearLayers();
    shownModes.clear();
    let matchedCount = 0;
    for (const trip of tripList) {
      shownModes.add(trip.mode || 'unknown');
      const tooltip = document.createElement('span');
      tooltip.textContent = describe(trip);
      const matched = trip.roadsStatus === 'matched' && Array.isArray(trip.matchedLine) && trip.matchedLine.length > 0;
      // A trip matched to the roads is drawn on them, the line as recorded fainter beneath.
      L.polyline(trip.coordinates.map(([longitude, latitude]) => [latitude, longitude]), {
        color: modeColor(trip.mode), weight: matched ? 2 : 3, opacity: matched ? 0.3 : 0.7, dashArray: '6 6',
        className: matched ? 'trip-raw' : 'trip-line',
      }).bindTooltip(tooltip).addTo(trips);
      if (matched) {
        const onRoads = document.createElement('span');
        onRoads.textContent = `${describe(trip)} · on roads`;
        L.polyline(trip.matchedLine.map((piece) => piece.map(([longitude, latitude]) => [latitude, longitude])), {
          color: modeColor(trip.mode), weight: 4, opacity: 0.9, className: 'trip-matched',
        }).bindTooltip(onRoads).addTo(trips);
        matchedCount += 1;
      }
    }
    if (typeof pins.addLayers === 'function') pins.addLayers(visits.map((visit) => pin(visit, callout)));
    else for (const visit of visits) pin(visit, callout).addTo(pins);
    const element = document.getElementById('map');
    element.dataset.visitCount = String(visits.length);
    element.dataset.tripCount = String(tripList.length);
    element.dataset.matchedTripCount = String(matchedCount);
    showLegend();
  }

  /** The devices whose paths are drawn now, as [name, colour] (the legend lists them). */
  function setDevices(devices) {
    shownDevices.clear();
    for (const [device, color] of devices) shownDevices.set(device, color);
    showLegend();
  }

  function legendRow(color, text, kind) {
    const row = document.createElement('li');
    row.dataset.kind = kind;
    const swatch = document.createElement('span');
    swatch.className = `swatch ${kind === 'mode' ? 'dashed' : ''}`;
    swatch.style.setProperty('--swatch', color);
    const label = document.createElement('span');
    label.textContent = text;
    row.append(swatch, label);
    return row;
  }

  function showLegend() {
    const box = document.getElementById('map-legend');
    if (!box) return;
    const list = document.createElement('ul');
    for (const device of [...shownDevices.keys()].sort()) list.append(legendRow(shownDevices.get(device), device, 'device'));
    for (const mode of Object.keys(MODE_COLORS).filter((name) => shownModes.has(name))) {
      list.append(legendRow(modeColor(mode), mode, 'mode'));
    }
    box.replaceChildren(list);
    box.hidden = list.children.length === 0;
  }

  /** Where the journal's pins and trips are (possibly invalid, when nothing is drawn). */
  function bounds() {
    const result = L.latLngBounds([]);
    if (trips) result.extend(trips.getBounds());
    if (pins) result.extend(pins.getBounds());
    return result;
  }

  /** At most this many labels have their words always shown; more show them on hover. */
  const LABEL_TEXTS_SHOWN = 25;

  /** Draws the range's labels (GET /api/v1/labels), replacing those drawn: one flag per fix, its
   * labels' words together ("Coffee at Kappeli · breakfast" for a POI and a tag). */
  function drawLabels(list) {
    if (!labels) return;
    labels.clearLayers();
    const flags = new Map();
    for (const label of list) {
      const key = `${label.device} ${label.time} ${label.latitude} ${label.longitude}`;
      if (!flags.has(key)) flags.set(key, { latitude: label.latitude, longitude: label.longitude, texts: [] });
      flags.get(key).texts.push(label.text);
    }
    for (const flag of flags.values()) {
      const text = flag.texts.join(' · ');
      const icon = L.divIcon({ className: 'label-pin', iconSize: [12, 12], iconAnchor: [6, 6] });
      const marker = L.marker([flag.latitude, flag.longitude], { icon, pane: PIN_PANE, title: text, keyboard: false });
      marker.bindTooltip(text, { direction: 'top', offset: [0, -6], permanent: flags.size <= LABEL_TEXTS_SHOWN,
        className: 'label-text' });
      labels.addLayer(marker);
    }
    map.getContainer().dataset.labelCount = String(list.length);
  }

  return { attach, draw, drawLabels, setDevices, bounds };
})();
