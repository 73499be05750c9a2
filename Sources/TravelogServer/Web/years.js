// The years overview, a first timeline of a life: a row per year, a cell per day coloured by that
// day's distance (GET /api/v1/stats?by=day over the whole history, one request), the chosen dates
// outlined. A click on a day shows it; each year's label shows the whole year.
import { api, timeZone } from './api.js';
import { setRange, today } from './dates.js';
import { $, element } from './dom.js';
import { formatDistance } from './format.js';
import { state, subscribe } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Distance classes, metres: a day's colour is the class it reaches. */
const CLASSES = [[0, '#9ecae1'], [1000, '#74b3dc'], [5000, '#6baed6'], [20000, '#3182bd'], [100000, '#08519c']];
const ROW_HEIGHT = 11;

const years = { firstYear: null, days: new Map(), loaded: false };

function dayOfYear(day) {
  const [y, m, d] = day.split('-').map(Number);
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86400000);
}

function dayFromIndex(year, index) {
  const date = new Date(Date.UTC(year, 0, 1 + index));
  return date.toISOString().slice(0, 10);
}

function color(meters) {
  let chosen = CLASSES[0][1];
  for (const [floor, value] of CLASSES) if (meters >= floor) chosen = value;
  return chosen;
}

/** Loads the days of the whole history (from the oldest fix's year). */
export async function loadYears(firstYear) {
  years.firstYear = firstYear;
  const query = new URLSearchParams({ from: `${firstYear}-01-01`, to: today(), by: 'day', timezone: timeZone, units: 'metric' });
  try {
    const stats = await api(`/api/v1/stats?${query}`);
    years.days = new Map(stats.periods.filter((period) => period.locations > 0)
      .map((period) => [period.period, { meters: period.distance * 1000, locations: period.locations }]));
    years.loaded = true;
  } catch (_) {
    years.loaded = false;
  }
  render();
}

function render() {
  const box = $('years');
  if (!years.firstYear) return;
  box.replaceChildren();
  const last = Number(today().slice(0, 4));
  const range = state.range;
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
    let count = 0;
    const background = document.createElementNS(SVG, 'rect');
    background.setAttribute('width', '366');
    background.setAttribute('height', String(ROW_HEIGHT));
    background.setAttribute('class', 'years-empty');
    strip.append(background);
    for (const [day, figures] of years.days) {
      if (!day.startsWith(`${year}-`)) continue;
      count += 1;
      const cell = document.createElementNS(SVG, 'rect');
      cell.setAttribute('x', String(dayOfYear(day)));
      cell.setAttribute('width', '1');
      cell.setAttribute('height', String(ROW_HEIGHT));
      cell.setAttribute('fill', color(figures.meters));
      cell.setAttribute('data-day', day);
      const title = document.createElementNS(SVG, 'title');
      title.textContent = `${day}: ${formatDistance(figures.meters)}`;
      cell.append(title);
      strip.append(cell);
    }
    if (range && range.from.slice(0, 4) <= String(year) && range.to.slice(0, 4) >= String(year)) {
      const from = range.from.slice(0, 4) === String(year) ? dayOfYear(range.from) : 0;
      const to = range.to.slice(0, 4) === String(year) ? dayOfYear(range.to) : 365;
      const chosen = document.createElementNS(SVG, 'rect');
      chosen.setAttribute('x', String(from));
      chosen.setAttribute('width', String(Math.max(1, to - from + 1)));
      chosen.setAttribute('height', String(ROW_HEIGHT));
      chosen.setAttribute('class', 'years-chosen');
      strip.append(chosen);
    }
    strip.setAttribute('aria-label', `${year}: ${count} days with data`);
    strip.dataset.year = String(year);
    strip.dataset.days = String(count);
    // A click picks the day under the pointer.
    strip.addEventListener('click', (event) => {
      const box = strip.getBoundingClientRect();
      const index = Math.min(365, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * 366)));
      // A day with data is its own element (under a pixel wide on a phone): it names its day.
      const day = (event.target.dataset && event.target.dataset.day) || dayFromIndex(year, index);
      if (day.startsWith(String(year))) setRange({ from: day, to: day });
    });
    row.append(label, strip);
    box.append(row);
  }
  box.dataset.daysWithData = String(years.days.size);
}

export function bindYears() {
  subscribe((_, changed) => { if ('range' in changed && years.loaded) render(); });
}
