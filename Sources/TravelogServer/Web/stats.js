// Statistics of the chosen dates: the distance summary, a bar chart of distance per period drawn
// by hand in SVG (a y axis labelled in km or mi, dates along x, every period of the range drawn,
// an empty one as a zero bar), the periods as a list, and the places (countries, cities).
import { $ } from './dom.js';
import { count, formatDistance, METERS_PER_MILE } from './format.js';
import { state, subscribe } from './state.js';

const SVG = 'http://www.w3.org/2000/svg';

/** The distance and the number of locations, from the state. */
function showSummary(current) {
  const output = $('distance');
  if (current.distanceMeters === null) {
    output.textContent = '–';
  } else {
    const imperial = current.units === 'imperial';
    const value = imperial ? current.distanceMeters / METERS_PER_MILE : current.distanceMeters / 1000;
    const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: value < 10 ? 2 : 1 }).format(value);
    output.textContent = `${number} ${imperial ? 'mi' : 'km'}`;
  }
  $('count').textContent = current.locationCount === null ? '' : `${count(current.locationCount, 'location')} logged`;
  for (const radio of document.querySelectorAll('input[name="units"]')) radio.checked = radio.value === current.units;
}

export function bindStats() {
  subscribe((current, changed) => {
    if ('distanceMeters' in changed || 'locationCount' in changed || 'units' in changed || 'range' in changed) showSummary(current);
  });
  showSummary(state);
}

const pad = (number) => String(number).padStart(2, '0');

/** ISO week label of a UTC date: 2024-W18 (as the server's CalendarPeriod writes it). */
function isoWeek(date) {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - weekday + 3);  // the week's Thursday decides its year
  const firstThursday = new Date(Date.UTC(day.getUTCFullYear(), 0, 4));
  const week = 1 + Math.round(((day - firstThursday) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return `${day.getUTCFullYear()}-W${pad(week)}`;
}

/** Every period label from `from` to `to` (days, YYYY-MM-DD) for `by`, in order. */
export function periodLabels(from, to, by) {
  const labels = [];
  const [y, m, d] = from.split('-').map(Number);
  const end = Date.UTC(...to.split('-').map((part, index) => Number(part) - (index === 1 ? 1 : 0)));
  for (let time = Date.UTC(y, m - 1, d); time <= end; time += 86400000) {
    const date = new Date(time);
    const label = by === 'year' ? String(date.getUTCFullYear())
      : by === 'month' ? `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`
        : by === 'week' ? isoWeek(date)
          : `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
    if (labels[labels.length - 1] !== label) labels.push(label);
  }
  return labels;
}

/** A round step for about `ticks` ticks up to `largest`. */
function niceStep(largest, ticks) {
  const raw = largest / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((step) => step >= raw);
}

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Distance per period: every period of the range (zero bars for empty ones), y ticks in the unit, dates on x. */
export function renderChart(stats, range, by) {
  const chart = $('chart');
  chart.replaceChildren();
  const unit = state.units === 'imperial' ? 'mi' : 'km';
  const byLabel = new Map((stats.periods || []).map((period) => [period.period, period]));
  const labels = periodLabels(range.from, range.to, by).slice(-400);
  const values = labels.map((label) => (byLabel.has(label) ? byLabel.get(label).distance : 0));
  const width = 320, height = 150, left = 38, right = 6, top = 8, bottom = 22;
  chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
  chart.dataset.barCount = String(labels.length);
  chart.dataset.zeroBars = String(values.filter((value) => value === 0).length);
  const largest = Math.max(0, ...values);
  const step = largest > 0 ? niceStep(largest, 4) : 1;
  const top_value = largest > 0 ? Math.ceil(largest / step) * step : 1;
  const plotHeight = height - top - bottom, plotWidth = width - left - right;
  const y = (value) => top + plotHeight - (value / top_value) * plotHeight;
  const axes = svg('g', { class: 'chart-axes' });
  for (let tick = 0; tick <= top_value + step / 2; tick += step) {
    axes.append(svg('line', { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: 'chart-grid' }));
    axes.append(svg('text', { x: left - 3, y: y(tick) + 3, 'text-anchor': 'end', class: 'chart-label chart-tick-y' },
      new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(tick)));
  }
  axes.append(svg('text', { x: 2, y: top + 2, class: 'chart-label chart-unit', 'dominant-baseline': 'hanging' }, unit));
  axes.append(svg('line', { x1: left, x2: left, y1: top, y2: top + plotHeight, class: 'chart-axis' }));
  axes.append(svg('line', { x1: left, x2: width - right, y1: top + plotHeight, y2: top + plotHeight, class: 'chart-axis' }));
  chart.append(axes);
  const slot = labels.length ? plotWidth / labels.length : plotWidth;
  labels.forEach((label, index) => {
    const value = values[index];
    const barHeight = Math.max(1, top + plotHeight - y(value));  // an empty period: a 1-unit grey bar on the axis
    const bar = svg('rect', {
      x: left + index * slot + slot * 0.1, y: top + plotHeight - barHeight, width: Math.max(0.5, slot * 0.8), height: barHeight,
      class: value > 0 ? 'chart-bar' : 'chart-bar chart-bar-zero', 'data-period': label,
    });
    bar.append(svg('title', {}, `${label}: ${value.toFixed(2)} ${unit}`));
    chart.append(bar);
  });
  // Dates along x: the first, the middle and the last period (a day's label is ten characters).
  const tickCount = Math.min(labels.length, 3);
  const shown = new Set();
  for (let index = 0; index < tickCount; index += 1) {
    const at = tickCount === 1 ? 0 : Math.round((index * (labels.length - 1)) / (tickCount - 1));
    if (shown.has(at)) continue;
    shown.add(at);
    const x = left + at * slot + slot / 2;
    const anchor = index === 0 ? 'start' : index === tickCount - 1 ? 'end' : 'middle';
    chart.append(svg('line', { x1: x, x2: x, y1: top + plotHeight, y2: top + plotHeight + 3, class: 'chart-axis' }));
    chart.append(svg('text', { x: anchor === 'start' ? Math.max(left, x - slot / 2) : anchor === 'end' ? width - right : x,
      y: height - 6, 'text-anchor': anchor, class: 'chart-label chart-tick-x' }, labels[at]));
  }
  chart.setAttribute('aria-label', `Distance per ${by} in ${unit}, ${labels[0] || ''} to ${labels[labels.length - 1] || ''}`);
  const total = stats.total || {};
  $('unrecorded').textContent = total.unrecordedMovements
    ? `Unrecorded movement across gaps: ${count(total.unrecordedMovements, 'gap')} · ${formatDistance(total.unrecordedMovementMeters)} `
      + '(straight lines, not in the distance)'
    : '';
}

export function showStatistics(whereabouts, stats, by) {
  renderChart(stats, state.range, by);
  const periods = $('periods');
  periods.replaceChildren();
  for (const period of stats.periods) {
    const item = document.createElement('li');
    item.textContent = `${period.period}: ${formatDistance(period.distance * (period.unit === 'mi' ? METERS_PER_MILE : 1000))}`;
    periods.append(item);
  }
  $('countries').textContent = whereabouts.countries.length
    ? whereabouts.countries.map((country) => `${country.code} (${count(country.days, 'day')})`).join(', ')
    : '–';
  $('cities').textContent = whereabouts.cities.length
    ? whereabouts.cities.map((city) => city.name).join(', ') : '–';
}
