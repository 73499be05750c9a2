// The date model: one range {from, to} (local days) in the state, behind the calendar, the ‹ ›
// arrows, Today, the date fields, the year and month picker, the years overview, the address
// (`#from=YYYY-MM-DD&to=YYYY-MM-DD`; each change is a history entry, so back and forward work)
// and imports. Everything that changes the dates calls setRange; everything that shows them
// renders from the state.
import { $ } from './dom.js';
import { state, subscribe, update } from './state.js';

export function pad(number) {
  return String(number).padStart(2, '0');
}

/** YYYY-MM-DD of a date in the browser's time zone. */
export function localDay(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function today() {
  return localDay(new Date());
}

export function isDay(text) {
  return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T12:00:00`));
}

export function addDays(day, count) {
  const [year, month, date] = day.split('-').map(Number);
  // Noon: never a time a daylight-saving change skips.
  return localDay(new Date(year, month - 1, date + count, 12));
}

export function daysBetween(from, to) {
  const [a, b] = [from, to].map((day) => { const [y, m, d] = day.split('-').map(Number); return Date.UTC(y, m - 1, d); });
  return Math.round((b - a) / 86400000);
}

/** The last day of a month (YYYY-MM). */
export function lastDayOfMonth(month) {
  const [year, number] = month.split('-').map(Number);
  return `${month}-${pad(new Date(year, number, 0).getDate())}`;
}

/** The range the address names (`#from=…&to=…`, or `?from=…&to=…`), or null. */
export function rangeFromLocation() {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const parameters = hash.get('from') ? hash : new URLSearchParams(window.location.search);
  const from = parameters.get('from');
  if (!isDay(from)) return null;
  const to = parameters.get('to');
  return { from, to: isDay(to) && to >= from ? to : from };
}

function addressOf(range) {
  const isRange = range.from !== range.to;
  return isRange ? `#from=${range.from}&to=${range.to}` : `#from=${range.from}`;
}

/** The one way the dates change: the state, then the address (a new history entry unless `replace`). */
export function setRange(range, { place = true, replace = false, fromAddress = false } = {}) {
  let { from, to } = range;
  if (!isDay(from)) from = today();
  if (!isDay(to) || to < from) to = from;
  const next = { from, to };
  // The Settings view (#settings) keeps its address; the dates come back with the map.
  if (!fromAddress && !window.location.hash.startsWith('#settings')) {
    const address = addressOf(next);
    if (window.location.hash !== address || window.location.search) {
      const url = window.location.pathname + address;
      if (replace || !state.range) window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    }
  }
  update({ range: next }, { place });
}

export function isRangeMode() {
  return $('range-toggle').checked || (state.range && state.range.from !== state.range.to);
}

/** The same length of days before (-1) or after (1) the shown ones. */
export function shiftRange(direction) {
  const length = daysBetween(state.range.from, state.range.to) + 1;
  setRange({ from: addDays(state.range.from, direction * length), to: addDays(state.range.to, direction * length) });
}

/** The fields, the arrows' labels and the range mode, from the state. */
function render(current) {
  if (!current.range) return;
  const { from, to } = current.range;
  $('from').value = from;
  $('to').value = to;
  if (from !== to) $('range-toggle').checked = true;
  const isRange = $('range-toggle').checked;
  $('to-group').hidden = !isRange;
  $('from-label').textContent = isRange ? 'From' : 'Day';
  const days = isRange ? 'range' : 'day';
  $('previous').setAttribute('aria-label', `Previous ${days}`);
  $('next').setAttribute('aria-label', `Next ${days}`);
  $('today').setAttribute('aria-pressed', String(from === today() && to === today()));
}

function rangeFromInputs() {
  const from = isDay($('from').value) ? $('from').value : today();
  let to = $('range-toggle').checked && isDay($('to').value) ? $('to').value : from;
  if (to < from) to = from;
  return { from, to };
}

export function bindDates() {
  subscribe((current, changed) => { if ('range' in changed) render(current); });
  $('range-form').addEventListener('submit', (event) => event.preventDefault());
  $('from').addEventListener('change', () => setRange(rangeFromInputs()));
  $('to').addEventListener('change', () => setRange(rangeFromInputs()));
  $('range-toggle').addEventListener('change', () => {
    if (!$('range-toggle').checked) setRange({ from: state.range.from, to: state.range.from });
    else { render(state); $('to').focus(); }
  });
  $('previous').addEventListener('click', () => shiftRange(-1));
  $('next').addEventListener('click', () => shiftRange(1));
  $('today').addEventListener('click', () => {
    $('range-toggle').checked = false;
    setRange({ from: today(), to: today() });
  });
  // Back, forward, a typed or bookmarked address.
  const follow = () => {
    if (window.location.hash.startsWith('#settings')) return;
    const range = rangeFromLocation() || { from: today(), to: today() };
    if (!state.session || !state.range) return;
    if (range.from !== state.range.from || range.to !== state.range.to) {
      if (range.from === range.to) $('range-toggle').checked = false;
      setRange(range, { fromAddress: true });
    }
  };
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
  // import.js stored new history: show the days it covers.
  window.addEventListener('travelog:history-changed', (event) => {
    const { from, to } = event.detail || {};
    if (from && to && isDay(from) && isDay(to)) {
      $('range-toggle').checked = from !== to;
      setRange({ from, to });
    } else if (state.range) {
      update({ range: { ...state.range } }, { place: true });
    }
  });
}
