// The timeline of a life: a row per year, a cell per day coloured by that day's distance or, toggled,
// by its country (one request for the whole history: GET /api/v1/days, columns of days, distances,
// fixes and countries), the chosen dates outlined. Hovering a day shows its summary; a click shows
// the day on the map and in the journal; each year's label shows the whole year.
// The day under the pointer is summarised in one line (#years-summary), not in a title per cell.
// `#years[data-drawn-ms]` is how long the last drawing took, for tests.
import { api, timeZone } from './api.js';
import { setRange, today } from './dates.js';
import { $, element } from './dom.js';
import { formatDistance } from './format.js';
import { state, subscribe } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Distance classes, metres: a day's colour is the class it reaches. */
const CLASSES = [[0, '#9ecae1'], [1000, '#74b3dc'], [5000, '#6baed6'], [20000, '#3182bd'], [100000, '#08519c']];
/** Countries' colours, by how many days were spent there (the most first); the rest share the last. */
const COUNTRY_COLORS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#1f78b4', '#b2df8a', '#fb9a99', '#888888'];
const NO_COUNTRY = '#c6cdd4';
const ROW_HEIGHT = 11;
const MODE_KEY = 'travelog.years.colour';

const years = { firstYear: null, days: new Map(), loaded: false, countryColors: new Map(),
  mode: localStorage.getItem(MODE_KEY) === 'country' ? 'country' : 'distance' };

function dayOfYear(day) {
  const [y, m, d] = day.split('-').map(Number);
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86400000);
}

function dayFromIndex(year, index) {
  const date = new Date(Date.UTC(year, 0, 1 + index));
  return date.toISOString().slice(0, 10);
}

function distanceColor(meters) {
  let chosen = CLASSES[0][1];
  for (const [floor, value] of CLASSES) if (meters >= floor) chosen = value;
  return chosen;
}

function color(figures) {
  if (years.mode === 'distance') return distanceColor(figures.meters);
  return figures.countries.length ? years.countryColors.get(figures.countries[0]) : NO_COUNTRY;
}

/** "2024-05-01 · 12.35 km · 1,234 fixes · FI, SE" */
function summary(day, figures) {
  const parts = [day, formatDistance(figures.meters), `${new Intl.NumberFormat().format(figures.locations)} fixes`];
  if (figures.countries.length) parts.push(figures.countries.join(', '));
  return parts.join(' · ');
}

/** Loads every day of the whole history (from the oldest fix's year), in one request. */
export async function loadYears(firstYear) {
  years.firstYear = firstYear;
  const query = new URLSearchParams({ from: `${firstYear}-01-01`, to: today(), timezone: timeZone });
  try {
    const found = await api(`/api/v1/days?${query}`);
    years.days = new Map();
    const daysPerCountry = new Map();
    found.days.forEach((day, index) => {
      const countries = found.countries[index] ? found.countries[index].split(',') : [];
      for (const country of countries) daysPerCountry.set(country, (daysPerCountry.get(country) || 0) + 1);
      years.days.set(day, { meters: found.distanceMeters[index], locations: found.locations[index], countries });
    });
    const ranked = [...daysPerCountry.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    years.countryColors = new Map(ranked.map(([country], index) => [country, COUNTRY_COLORS[Math.min(index, COUNTRY_COLORS.length - 1)]]));
    years.ranked = ranked;
    years.loaded = true;
  } catch (_) {
    years.loaded = false;
  }
  render();
}

/** Distance or country, and the legend of the chosen colouring. */
function controls() {
  const bar = element('div', 'years-controls');
  const choice = element('fieldset', 'years-mode');
  choice.append(element('legend', 'visually-hidden', 'Colour days by'));
  for (const [value, text] of [['distance', 'Distance'], ['country', 'Country']]) {
    const label = element('label');
    const input = element('input');
    input.type = 'radio';
    input.name = 'years-colour';
    input.value = value;
    input.checked = years.mode === value;
    input.addEventListener('change', () => {
      years.mode = value;
      localStorage.setItem(MODE_KEY, value);
      render();
    });
    label.append(input, ` ${text}`);
    choice.append(label);
  }
  const legend = element('span', 'years-legend');
  if (years.mode === 'country') {
    for (const [country, days] of (years.ranked || []).slice(0, COUNTRY_COLORS.length - 1)) {
      const key = element('span', 'years-key', `${country} ${days}`);
      key.style.setProperty('--key', years.countryColors.get(country));
      legend.append(key);
    }
  } else {
    for (const [floor, value] of CLASSES) {
      const key = element('span', 'years-key', floor === 0 ? '0' : `${floor / 1000} km`);
      key.style.setProperty('--key', value);
      legend.append(key);
    }
  }
  bar.append(choice, legend);
  return bar;
}

function render() {
  const box = $('years');
  if (!years.firstYear) return;
  const started = performance.now();
  box.replaceChildren();
  box.append(controls());
  const hovered = element('p', 'years-summary muted', 'Point at a day for its summary.');
  hovered.id = 'years-summary';
  hovered.setAttribute('aria-live', 'polite');
  const last = Number(today().slice(0, 4));
  const range = state.range;
  const byYear = new Map();
  for (const [day, figures] of years.days) {
    const year = Number(day.slice(0, 4));
    if (!byYear.has(year)) byYear.set(year, []);
    byYear.get(year).push([day, figures]);
  }
  for (let year = last; year >= years.firstYear; year -= 1) {
    const row = element('div', 'years-row');
    const label = element('button', 'years-label', String(year));
    label.type = 'button';
    label.setAttribute('aria-label', `Show all of ${year}`);
    label.addEventListener('click', () => setRange({ from: `${year}-01-01`, to: `${year}-12-31` }));
    const strip = document.createElementNS(SVG, 'svg');
    strip.setAttribute('viewBox', `0 0 366 ${ROW_HEIGHT}`);
    strip.setAttribute('preserveAspectRatio', 'none');
    strip.setAttribute('class', 'years-strip');
    strip.setAttribute('role', 'img');
    // One string per row, parsed once: 20 years are 7,300 cells (an element each for a click to name its day).
    const days = byYear.get(year) || [];
    let cells = `<rect width="366" height="${ROW_HEIGHT}" class="years-empty"></rect>`;
    for (const [day, figures] of days) {
      cells += `<rect x="${dayOfYear(day)}" width="1" height="${ROW_HEIGHT}" fill="${color(figures)}" data-day="${day}"></rect>`;
    }
    if (range && range.from.slice(0, 4) <= String(year) && range.to.slice(0, 4) >= String(year)) {
      const from = range.from.slice(0, 4) === String(year) ? dayOfYear(range.from) : 0;
      const to = range.to.slice(0, 4) === String(year) ? dayOfYear(range.to) : 365;
      cells += `<rect x="${from}" width="${Math.max(1, to - from + 1)}" height="${ROW_HEIGHT}" class="years-chosen"></rect>`;
    }
    strip.innerHTML = cells;
    strip.setAttribute('aria-label', `${year}: ${days.length} days with data`);
    strip.dataset.year = String(year);
    strip.dataset.days = String(days.length);
    const dayAt = (event) => {
      const rect = strip.getBoundingClientRect();
      const index = Math.min(365, Math.max(0, Math.floor(((event.clientX - rect.left) / rect.width) * 366)));
      // A day with data is its own element (under a pixel wide on a phone): it names its day.
      return (event.target.dataset && event.target.dataset.day) || dayFromIndex(year, index);
    };
    strip.addEventListener('pointermove', (event) => {
      const day = dayAt(event);
      const figures = years.days.get(day);
      hovered.textContent = figures ? summary(day, figures) : `${day} · no data`;
      hovered.dataset.day = day;
    });
    // A click picks the day under the pointer.
    strip.addEventListener('click', (event) => {
      const day = dayAt(event);
      if (day.startsWith(String(year))) setRange({ from: day, to: day });
    });
    row.append(label, strip);
    box.append(row);
  }
  box.append(hovered);
  box.dataset.daysWithData = String(years.days.size);
  box.dataset.colour = years.mode;
  box.dataset.drawnMs = String(Math.round(performance.now() - started));
}

export function bindYears() {
  subscribe((_, changed) => { if ('range' in changed && years.loaded) render(); });
}
