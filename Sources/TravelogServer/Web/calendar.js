// Travelog's calendar: a month grid that marks the local days with data and picks a day by
// setting the address (`#from=YYYY-MM-DD`), which app.js follows. It also opens the page on the
// last day with data instead of an empty today. A plain script; app.js calls
// window.TravelogCalendar.openOnLastDay() once logged in.
(() => {
  'use strict';

  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const state = { month: null, days: new Set(), sequence: 0 };

  const pad = (number) => String(number).padStart(2, '0');
  const dayOf = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

  async function getJSON(path) {
    const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  }

  /** The day shown by the address, else today. */
  function selectedDay() {
    const from = new URLSearchParams(window.location.hash.slice(1)).get('from');
    return /^\d{4}-\d{2}-\d{2}$/.test(from || '') ? from : dayOf(new Date());
  }

  /** Days of `month` (YYYY-MM) with at least one fix, local to where each fix was. */
  async function loadMonth(month) {
    const [year, number] = month.split('-').map(Number);
    const last = new Date(year, number, 0).getDate();
    const query = new URLSearchParams({ from: `${month}-01`, to: `${month}-${pad(last)}`, by: 'day', timezone: timeZone });
    const stats = await getJSON(`/api/v1/stats?${query}`);
    return new Set(stats.periods.filter((period) => period.locations > 0).map((period) => period.period));
  }

  async function show(month) {
    const container = document.getElementById('calendar');
    if (!container) return;
    const sequence = ++state.sequence;
    state.month = month;
    let days = new Set();
    try { days = await loadMonth(month); } catch { /* not logged in yet, or offline: an unmarked month */ }
    if (sequence !== state.sequence) return;
    state.days = days;
    draw(container);
  }

  function draw(container) {
    const [year, number] = state.month.split('-').map(Number);
    const first = new Date(year, number - 1, 1, 12);
    const count = new Date(year, number, 0).getDate();
    const selected = selectedDay();
    container.replaceChildren();
    container.dataset.month = state.month;
    container.dataset.daysWithData = String(state.days.size);
    const header = document.createElement('div');
    header.className = 'calendar-header';
    const previous = button('‹', 'Previous month', () => shiftMonth(-1));
    const next = button('›', 'Next month', () => shiftMonth(1));
    const title = document.createElement('span');
    title.textContent = first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
    header.append(previous, title, next);
    const grid = document.createElement('div');
    grid.className = 'calendar-grid';
    grid.setAttribute('role', 'grid');
    // Weeks start on Monday (ISO), as the statistics' weeks do.
    const offset = (first.getDay() + 6) % 7;
    for (let blank = 0; blank < offset; blank += 1) grid.append(document.createElement('span'));
    for (let date = 1; date <= count; date += 1) {
      const day = `${state.month}-${pad(date)}`;
      const cell = button(String(date), day, () => { window.location.hash = `#from=${day}`; });
      cell.dataset.day = day;
      if (state.days.has(day)) cell.classList.add('has-data');
      if (day === selected) cell.setAttribute('aria-current', 'date');
      grid.append(cell);
    }
    container.append(header, grid);
  }

  function button(text, label, handler) {
    const element = document.createElement('button');
    element.type = 'button';
    element.textContent = text;
    element.setAttribute('aria-label', label);
    element.addEventListener('click', handler);
    return element;
  }

  function shiftMonth(direction) {
    const [year, number] = state.month.split('-').map(Number);
    const date = new Date(year, number - 1 + direction, 1, 12);
    show(`${date.getFullYear()}-${pad(date.getMonth() + 1)}`);
  }

  /** Opens the page on the day of the newest fix when the address names no day and today has none. */
  async function openOnLastDay() {
    if (new URLSearchParams(window.location.hash.slice(1)).get('from')) { show(selectedDay().slice(0, 7)); return; }
    try {
      const latest = await getJSON('/api/v1/latest');
      const newest = latest.features.map((feature) => Date.parse(feature.properties.timestamp))
        .filter((time) => !Number.isNaN(time)).sort((a, b) => b - a)[0];
      if (newest !== undefined) {
        const day = dayOf(new Date(newest));
        if (day !== dayOf(new Date())) window.location.hash = `#from=${day}`;
      }
    } catch { /* nothing stored yet */ }
    show(selectedDay().slice(0, 7));
  }

  window.addEventListener('hashchange', () => {
    const month = selectedDay().slice(0, 7);
    if (month !== state.month) show(month);
    else if (document.getElementById('calendar')) draw(document.getElementById('calendar'));
  });

  window.TravelogCalendar = { openOnLastDay, show };
})();
