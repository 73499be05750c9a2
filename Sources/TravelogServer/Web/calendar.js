// The calendar: a month grid marking the local days with data, a year and a month picker (two
// select boxes: any month of any year in two actions), ‹ › for the month before and after. It
// shows the month of the chosen dates and picks a day through the date model (dates.js).
import { api, timeZone } from './api.js';
import { isDay, lastDayOfMonth, localDay, pad, setRange, today } from './dates.js';
import { $, element } from './dom.js';
import { state, subscribe } from './state.js';

const MONTH_NAMES = Array.from({ length: 12 }, (_, index) =>
  new Date(2000, index, 1, 12).toLocaleDateString(undefined, { month: 'long' }));

const calendar = { month: null, days: new Set(), sequence: 0, firstYear: null };

/** The first year offered by the year picker (the oldest fix of any device; else ten years back). */
export function setFirstYear(year) {
  calendar.firstYear = year;
  if (calendar.month) draw();
}

/** Days of `month` (YYYY-MM) with at least one fix, local to where each fix was. */
async function loadMonth(month) {
  const query = new URLSearchParams({ from: `${month}-01`, to: lastDayOfMonth(month), by: 'day', timezone: timeZone });
  const stats = await api(`/api/v1/stats?${query}`);
  return new Set(stats.periods.filter((period) => period.locations > 0).map((period) => period.period));
}

export async function showMonth(month) {
  const sequence = ++calendar.sequence;
  calendar.month = month;
  draw();
  let days = new Set();
  try { days = await loadMonth(month); } catch { /* not logged in yet, or offline: an unmarked month */ }
  if (sequence !== calendar.sequence) return;
  calendar.days = days;
  draw();
}

function select(id, label, options, value, onChange) {
  const field = element('select');
  field.id = id;
  field.setAttribute('aria-label', label);
  for (const [optionValue, text] of options) {
    const option = element('option', '', text);
    option.value = optionValue;
    field.append(option);
  }
  field.value = value;
  field.addEventListener('change', () => onChange(field.value));
  return field;
}

function button(text, label, handler) {
  const node = element('button', '', text);
  node.type = 'button';
  node.setAttribute('aria-label', label);
  node.addEventListener('click', handler);
  return node;
}

/** Moves the calendar to a month and shows its first day with data, else its first day. */
async function pickMonth(month) {
  await showMonth(month);
  const first = [...calendar.days].sort()[0];
  const day = first || `${month}-01`;
  setRange({ from: day, to: day });
}

function draw() {
  const container = $('calendar');
  const [year, number] = calendar.month.split('-').map(Number);
  const first = new Date(year, number - 1, 1, 12);
  const count = new Date(year, number, 0).getDate();
  const selected = state.range ? state.range : { from: today(), to: today() };
  container.dataset.month = calendar.month;
  container.dataset.daysWithData = String(calendar.days.size);
  const header = element('div', 'calendar-header');
  const thisYear = new Date().getFullYear();
  const firstYear = Math.min(calendar.firstYear || thisYear - 10, year);
  const years = [];
  for (let option = thisYear; option >= firstYear; option -= 1) years.push([String(option), String(option)]);
  if (year > thisYear) years.unshift([String(year), String(year)]);
  const yearField = select('calendar-year', 'Year', years, String(year), (value) => pickMonth(`${value}-${pad(number)}`));
  const monthField = select('calendar-month', 'Month', MONTH_NAMES.map((name, index) => [pad(index + 1), name]), pad(number),
    (value) => pickMonth(`${year}-${value}`));
  const previous = button('‹', 'Previous month', () => shiftMonth(-1));
  const next = button('›', 'Next month', () => shiftMonth(1));
  const pickers = element('span', 'calendar-pickers');
  pickers.append(monthField, yearField);
  header.append(previous, pickers, next);
  const grid = element('div', 'calendar-grid');
  grid.setAttribute('role', 'group');
  grid.setAttribute('aria-label', first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' }));
  // Weeks start on Monday (ISO), as the statistics' weeks do.
  const offset = (first.getDay() + 6) % 7;
  for (let blank = 0; blank < offset; blank += 1) grid.append(element('span'));
  for (let date = 1; date <= count; date += 1) {
    const day = `${calendar.month}-${pad(date)}`;
    const cell = button(String(date), day, () => setRange({ from: day, to: day }));
    cell.dataset.day = day;
    if (calendar.days.has(day)) cell.classList.add('has-data');
    if (day >= selected.from && day <= selected.to) cell.classList.add('is-chosen');
    if (day === selected.from) cell.setAttribute('aria-current', 'date');
    grid.append(cell);
  }
  const focused = document.activeElement && document.activeElement.id;
  container.replaceChildren(header, grid);
  if (focused === 'calendar-year' || focused === 'calendar-month') $(focused).focus();
}

function shiftMonth(direction) {
  const [year, number] = calendar.month.split('-').map(Number);
  const date = new Date(year, number - 1 + direction, 1, 12);
  showMonth(`${date.getFullYear()}-${pad(date.getMonth() + 1)}`);
}

/** The day of the newest fix, when the address names no day and today has none; else null. */
export async function lastDayWithData() {
  try {
    const latest = await api('/api/v1/latest');
    const newest = latest.features.map((feature) => Date.parse(feature.properties.timestamp))
      .filter((time) => !Number.isNaN(time)).sort((a, b) => b - a)[0];
    if (newest !== undefined) return localDay(new Date(newest));
  } catch { /* nothing stored yet */ }
  return null;
}

export function bindCalendar() {
  subscribe((current, changed) => {
    if (!('range' in changed) || !current.range || !isDay(current.range.from)) return;
    const month = current.range.from.slice(0, 7);
    if (month !== calendar.month) showMonth(month); else draw();
  });
}
