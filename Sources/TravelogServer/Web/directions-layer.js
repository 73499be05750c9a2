// What the Directions panel (directions.js) draws on the map, in a pane of its own above the path
// and under the pins: the ends as a green and a red dot, a route or a trip matched to roads as a
// line with a white casing, a step's part lit up, and OpenStreetMap credited while a line is drawn.
// SVG rather than the page's canvas, so each line is an element the tests (and the pointer) find:
// `path.directions-line`, `path.directions-highlight`, `path.directions-from-marker`.
import { drawn } from './map.js';

/** Above the path (the overlay pane, 400), under markers (600) and the journal's pins (650). */
const PANE = 'directions-route';
const PANE_Z_INDEX = 450;
/** Apart from the devices' colours (colors.js) and the trips' dashes. */
const LINE_COLOR = '#5e35b1';
const HIGHLIGHT_COLOR = '#ff8f00';
const END_COLORS = { from: '#2e7d32', to: '#c62828' };
const ATTRIBUTION = 'Routes: <a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>';
/** A part fitted into view is shown at most this close. */
export const CLOSEST_ZOOM = 18;

const layer = { renderer: null, coverage: null, ends: null, lines: null, highlight: null, attributed: false };

/** Makes the pane and the layers once the map exists; `onClick` gets the map's clicks. */
export function attachLayer(onClick) {
  const map = drawn.map;
  if (layer.ends || !map) return;
  if (!map.getPane(PANE)) map.createPane(PANE).style.zIndex = String(PANE_Z_INDEX);
  layer.renderer = L.svg({ pane: PANE });
  layer.coverage = L.featureGroup().addTo(map);
  layer.ends = L.featureGroup().addTo(map);
  layer.lines = L.featureGroup().addTo(map);
  map.on('click', onClick);
}

function style(extra) {
  return { renderer: layer.renderer, pane: PANE, interactive: false, ...extra };
}

/** The ends ({from, to}, each {latitude, longitude} or null) as dots, whether or not a line joins them. */
export function drawEnds(ends) {
  if (!layer.ends) return;
  layer.ends.clearLayers();
  for (const end of ['from', 'to']) {
    const place = ends[end];
    if (!place) continue;
    L.circleMarker([place.latitude, place.longitude], style({
      radius: 7, color: '#fff', weight: 3, fillColor: END_COLORS[end], fillOpacity: 1,
      className: `directions-end-marker directions-${end}-marker`,
    })).addTo(layer.ends);
  }
}

/** Draws a line (Leaflet latlngs: one line, or several for a MultiLineString), replacing the one
 * drawn, credits OpenStreetMap and fits it into view. `className` is added to the line's path. */
export function drawLine(latlngs, className) {
  clearLine();
  if (!layer.lines) return;
  L.polyline(latlngs, style({ color: '#fff', weight: 9, opacity: 0.9, className: 'directions-casing' })).addTo(layer.lines);
  const line = L.polyline(latlngs, style({ color: LINE_COLOR, weight: 5, opacity: 1, className: `directions-line ${className}` }))
    .addTo(layer.lines);
  drawn.map.attributionControl.addAttribution(ATTRIBUTION);
  layer.attributed = true;
  fitIntoView(line.getBounds());
}

/** Lights up a part of the line (latlngs; null: none). */
export function highlight(latlngs) {
  if (layer.highlight) { layer.highlight.remove(); layer.highlight = null; }
  if (!latlngs || !latlngs.length || !layer.lines) return;
  const points = latlngs.length > 1 ? latlngs : [latlngs[0], latlngs[0]];
  layer.highlight = L.polyline(points, style({ color: HIGHLIGHT_COLOR, weight: 8, opacity: 1, className: 'directions-highlight' }))
    .addTo(layer.lines);
}

/** Takes the line (and its credit) away. */
export function clearLine() {
  if (layer.lines) layer.lines.clearLayers();
  layer.highlight = null;
  if (layer.attributed && drawn.map) {
    drawn.map.attributionControl.removeAttribution(ATTRIBUTION);
    layer.attributed = false;
  }
}

/** Outlines where routes can be found (GET /api/v1/directions/coverage, a GeoJSON MultiPolygon);
 * returns its bounds. */
export function drawCoverage(multiPolygon) {
  if (!layer.coverage) return L.latLngBounds([]);
  layer.coverage.clearLayers();
  const outline = L.geoJSON(multiPolygon, {
    style: () => style({ color: '#5e35b1', weight: 2, opacity: 0.6, dashArray: '8 6', fill: false, className: 'directions-coverage' }),
  }).addTo(layer.coverage);
  return outline.getBounds();
}

/** Takes everything away: the line, the ends and the coverage's outline. */
export function clearAll() {
  clearLine();
  if (layer.ends) layer.ends.clearLayers();
  if (layer.coverage) layer.coverage.clearLayers();
}

/** Fits a part of the map into view: clear of the search box over the map's top. */
export function fitIntoView(bounds) {
  if (!bounds.isValid()) return;
  drawn.map.fitBounds(bounds, { paddingTopLeft: [24, 64], paddingBottomRight: [24, 24], maxZoom: CLOSEST_ZOOM });
}
