// Where I have been: while the map's Explored layer (the fog of war, /api/v1/tiles/explored) is
// chosen, the figures of GET /api/v1/explore under the layer switch: the explored area, the
// countries shaded by the local days spent there, and the cities explored most; and on the map, from
// the world down to a region (zoom 6), the countries map (GET /api/v1/explore/countries): each country
// with days shaded as in the list, a click on a country in the list shows it.
// `#explore-figures[data-area]` holds the area in km², `#map[data-country-count]` the countries drawn,
// for tests.
import { api } from './api.js';
import { element } from './dom.js';
import { drawn } from './map.js';

let shown = null;
/** The countries map's Leaflet layer, and its features by code. */
let countries = null;
const countryLayers = new Map();
/** Above this zoom the countries' shading would hide the streets: the fog alone is shown. */
const COUNTRIES_MAX_ZOOM = 6;

/** A country's shade for its days against the most days, on a logarithmic scale (TravelogRender's
 * CountriesMapStyle, in the list too): a linear one left every country but home nearly blank. */
function shade(days, most) {
  const share = days > 0 && most > 0 ? Math.min(1, Math.log1p(days) / Math.log1p(most)) : 0;
  return 0.15 + 0.7 * share;
}

/** Shows the countries map under the Explored layer, for zooms up to COUNTRIES_MAX_ZOOM. */
async function showCountries() {
  // The layer may be chosen before the map is made (a page opened with Explored chosen): wait for it.
  for (let waited = 0; !drawn.map && waited < 100; waited += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  const map = drawn.map;
  if (!map) return;
  if (!map.getPane('countries')) {
    map.createPane('countries');
    map.getPane('countries').style.zIndex = 360;
    map.on('zoomend', () => {
      if (countries && shown && !shown.hidden) placeCountries();
    });
  }
  let data;
  try {
    data = await api('/api/v1/explore/countries');
  } catch {
    // No world outlines on this server: the list alone.
    return;
  }
  if (countries) countries.remove();
  countryLayers.clear();
  const most = Math.max(1, data.mostDays);
  countries = L.geoJSON(data, {
    pane: 'countries',
    style: (feature) => ({
      color: '#1f5f8b', weight: 1, fillColor: '#3182bd', fillOpacity: shade(feature.properties.days, most),
    }),
    onEachFeature: (feature, layer) => {
      const { name, code, days } = feature.properties;
      layer.bindTooltip(`${name || code}: ${days} ${days === 1 ? 'day' : 'days'}`, { sticky: true });
      countryLayers.set(code, layer);
    },
  });
  document.getElementById('map').dataset.countryCount = String(data.features.length);
  placeCountries();
}

function placeCountries() {
  const map = drawn.map;
  if (!countries || !map) return;
  const wanted = shown && !shown.hidden && map.getZoom() <= COUNTRIES_MAX_ZOOM;
  if (wanted && !map.hasLayer(countries)) countries.addTo(map);
  if (!wanted && map.hasLayer(countries)) countries.remove();
}

/** Moves the map to a country of the list: to its largest part (France, not France with French Guiana). */
function showCountry(code) {
  const layer = countryLayers.get(code);
  if (!layer || !drawn.map) return;
  const size = (bounds) => (bounds.getNorth() - bounds.getSouth()) * (bounds.getEast() - bounds.getWest());
  // A MultiPolygon's latlngs: polygons, each its outline then its holes.
  const parts = layer.getLatLngs().map((polygon) => L.latLngBounds(Array.isArray(polygon[0]) ? polygon[0] : polygon));
  const largest = parts.reduce((best, bounds) => (!best || size(bounds) > size(best) ? bounds : best), null);
  drawn.map.fitBounds(largest || layer.getBounds(), { maxZoom: COUNTRIES_MAX_ZOOM, padding: [16, 16] });
}

function area(squareKilometers) {
  // Under 0.01 km² in m² (a cell is 625 m²): "0 km²" beside a share above zero said two things.
  if (squareKilometers > 0 && squareKilometers < 0.01) {
    return `${new Intl.NumberFormat().format(Math.round(squareKilometers * 1e6))} m²`;
  }
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: squareKilometers < 10 ? 2 : 1 }).format(squareKilometers)} km²`;
}

/** A share as a percentage with two significant digits: "0.00019 %", "1.2 %", "45 %". */
function percent(fraction) {
  const value = fraction * 100;
  if (!(value > 0)) return '0 %';
  const decimals = Math.max(0, Math.min(8, 1 - Math.floor(Math.log10(value))));
  return `${value.toFixed(decimals)} %`;
}

/** A country's local days; "passed through" where the paths crossed it but no visit made a day there. */
function daysCell(days) {
  if (days > 0) return element('span', 'explore-days', `${days} ${days === 1 ? 'day' : 'days'}`);
  const cell = element('span', 'explore-days muted', 'passed through');
  cell.title = 'Your paths crossed it, but no visit there made a day of it';
  return cell;
}

/** A country's explored area, and under it its share of the country where the world base knows its area. */
function areaCell(country) {
  const cell = element('span', 'explore-area', area(country.areaSquareKilometers));
  if (typeof country.shareOfCountry === 'number') {
    const share = element('span', 'explore-share', percent(country.shareOfCountry));
    share.title = `${percent(country.shareOfCountry)} of ${country.name || country.code}'s ${area(country.countryAreaSquareKilometers)}`;
    cell.append(share);
  }
  return cell;
}

/** The panel's content from the figures. */
function render(box, figures) {
  box.replaceChildren();
  box.dataset.area = String(figures.areaSquareKilometers);
  box.append(element('p', 'explore-total', `Explored ${area(figures.areaSquareKilometers)}: `
    + `${new Intl.NumberFormat().format(figures.cells)} cells of ${figures.cellSizeMeters} m`));
  const most = Math.max(1, ...figures.countries.map((country) => country.days));
  if (figures.countries.length > 0) {
    const list = element('ul', 'explore-countries');
    list.setAttribute('aria-label', 'Countries by local days spent there');
    for (const country of figures.countries) {
      const item = element('li', 'explore-country');
      // The darker, the more days, as on the countries map.
      item.style.setProperty('--days', String(shade(country.days, most)));
      const name = element('button', 'explore-name', country.name || country.code);
      name.type = 'button';
      name.title = `Show ${country.name || country.code} on the map`;
      name.addEventListener('click', () => showCountry(country.code));
      item.append(element('span', 'explore-code', country.code), name,
        daysCell(country.days),
        areaCell(country));
      list.append(item);
    }
    box.append(list);
  }
  if (figures.cities.length > 0) {
    box.append(element('p', 'explore-cities muted', 'Cities explored most (a name shows its streets and districts):'));
    const list = element('ul', 'explore-city-list');
    list.setAttribute('aria-label', 'Cities explored most');
    for (const city of figures.cities.slice(0, CITIES_SHOWN)) {
      const item = element('li', 'explore-city');
      const name = element('button', 'explore-name', city.name);
      name.type = 'button';
      name.setAttribute('aria-expanded', 'false');
      name.title = `${city.name}: its streets and districts explored`;
      name.addEventListener('click', () => toggleCity(item, name, city.name));
      item.append(name, outlineCell(city.areaSquareKilometers, city.outline, city.name));
      list.append(item);
    }
    box.append(list);
  }
}

/** How many of the cities explored most the panel lists. */
const CITIES_SHOWN = 5;
/** How many of a city's districts it lists (most explored share first). */
const DISTRICTS_SHOWN = 8;

/** An explored area and, under it, its share of the outline where an OSM extract holds one. */
function outlineCell(squareKilometers, outline, name) {
  const cell = element('span', 'explore-area', area(squareKilometers));
  if (outline) {
    const share = element('span', 'explore-share', percent(outline.share));
    share.title = `${area(outline.exploredSquareKilometers)} of ${name}'s ${area(outline.areaSquareKilometers)} explored`;
    cell.append(share);
  }
  return cell;
}

/** Opens (or closes) a city's details under its row: its streets covered, its outline's and districts' shares. */
async function toggleCity(item, button, name) {
  const open = item.querySelector('.explore-city-details');
  if (open) {
    open.remove();
    button.setAttribute('aria-expanded', 'false');
    return;
  }
  const details = element('div', 'explore-city-details', 'Measuring…');
  item.append(details);
  button.setAttribute('aria-expanded', 'true');
  let city;
  try {
    city = (await api(`/api/v1/explore?city=${encodeURIComponent(name)}`)).city;
  } catch (error) {
    details.textContent = `Could not measure ${name}: ${error.message || error}`;
    return;
  }
  details.replaceChildren();
  const streets = city.streets;
  details.append(element('p', 'explore-streets', streets
    ? `Streets: ${formatKilometers(streets.coveredMeters)} of ${formatKilometers(streets.lengthMeters)} walked or driven (${percent(streets.share)})`
    : 'Streets: no map extract covers them (travelog osm add).'));
  if (city.outline) {
    details.append(element('p', 'explore-outline',
      `${percent(city.outline.share)} of its ${area(city.outline.areaSquareKilometers)} explored`));
  }
  const districts = city.districts || [];
  if (districts.length > 0) {
    const list = element('ul', 'explore-districts');
    list.setAttribute('aria-label', `Districts of ${name}, most explored first`);
    for (const district of districts.slice(0, DISTRICTS_SHOWN)) {
      const row = element('li', 'explore-district');
      row.append(element('span', 'explore-name', district.name), outlineCell(district.exploredSquareKilometers, district, district.name));
      list.append(row);
    }
    details.append(list);
    if (districts.length > DISTRICTS_SHOWN) details.append(element('p', 'muted', `and ${districts.length - DISTRICTS_SHOWN} more`));
  } else if (!city.outline) {
    details.append(element('p', 'muted', 'Share of its area: no map extract holds its outline whole.'));
  }
}

function formatKilometers(meters) {
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(meters / 1000)} km`;
}

async function show(fieldset) {
  if (!shown) {
    shown = element('div', 'explore-figures');
    shown.id = 'explore-figures';
    shown.setAttribute('aria-live', 'polite');
    fieldset.after(shown);
  }
  shown.hidden = false;
  shown.textContent = 'Measuring where you have been…';
  showCountries();
  try {
    render(shown, await api('/api/v1/explore'));
  } catch (error) {
    shown.textContent = `Could not measure the explored area: ${error.message || error}`;
  }
}

/** Shows the figures whenever the Explored layer is chosen, hides them otherwise. */
export function bindExplore() {
  const fieldset = document.getElementById('layer-switch');
  if (!fieldset) return;
  const update = () => {
    const input = fieldset.querySelector('input[name=layer]:checked');
    if (input && input.value === 'explored') show(fieldset);
    else if (shown) {
      shown.hidden = true;
      placeCountries();
    }
  };
  for (const input of fieldset.querySelectorAll('input[name=layer]')) input.addEventListener('change', update);
  update();
}
