// Travelog's day timeline and statistics chart: a plain script (no build step) that app.js calls
// through window.TravelogTimeline once the journal of a range is loaded.
//
// The timeline lists visits and trips in time order, as Google Timeline does: times in the
// place's own zone (the offset the API wrote), durations, the trip's mode and distance. Where the
// device recorded nothing for longer than the journal trusts (a gap), the timeline says so instead
// of inventing a stay or a trip. The chart draws distance per period as SVG bars, with the
// movement across gaps (unrecorded, a straight line) noted beside it, never added to it.
(() => {
  'use strict';

  /** A silence longer than this between two entries is a gap, seconds (the journal's bound). */
  const GAP_SECONDS = 18 * 3600;
  const SVG = 'http://www.w3.org/2000/svg';

  /** The page's one clock format: the browser's locale ("08:00", "8:00 AM"), hours and minutes. */
  const CLOCK = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

  /** The wall clock at the place, from an ISO time with the place's offset: its local date and time
   * are read as if they were UTC and formatted in UTC, so the browser's own zone never shifts them. */
  function wallClock(iso) { return iso ? CLOCK.format(new Date(`${iso.slice(0, 16)}:00Z`)) : ''; }

  /** "08:00", or "3 Jun 08:00" when the day differs from `sameDayAs` (an end after its start). */
  function clock(iso, sameDayAs) {
    if (!iso) return '';
    if (!sameDayAs || iso.slice(0, 10) === sameDayAs.slice(0, 10)) return wallClock(iso);
    const day = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
    const label = day.toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    return `${label} ${wallClock(iso)}`;
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return 'ongoing';
    const minutes = Math.round(seconds / 60);
    if (minutes >= 48 * 60) return `${Math.floor(minutes / 1440)} d ${Math.floor((minutes % 1440) / 60)} h`;
    return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  }

  function distance(meters, units) {
    return units === 'imperial' ? `${(meters / 1609.344).toFixed(2)} mi` : `${(meters / 1000).toFixed(2)} km`;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** Visits and trips in time order, with gaps where consecutive entries are too far apart. */
  function entries(visits, trips) {
    const items = visits.map((visit) => ({ kind: 'visit', start: Date.parse(visit.arrival),
      end: visit.departure ? Date.parse(visit.departure) : null, visit }))
      .concat(trips.map((trip) => ({ kind: 'trip', start: Date.parse(trip.start), end: Date.parse(trip.end), trip })))
      .sort((a, b) => a.start - b.start || (a.kind === 'visit' ? -1 : 1));
    const result = [];
    for (const item of items) {
      const previous = result[result.length - 1];
      if (previous && previous.end !== null && (item.start - previous.end) / 1000 > GAP_SECONDS) {
        result.push({ kind: 'gap', start: previous.end, end: item.start });
      }
      result.push(item);
    }
    return result;
  }

  function renderTimeline(container, visits, trips, units) {
    container.replaceChildren();
    const items = entries(visits, trips);
    container.dataset.visitCount = String(visits.length);
    container.dataset.tripCount = String(trips.length);
    container.dataset.gapCount = String(items.filter((item) => item.kind === 'gap').length);
    if (!items.length) {
      container.append(element('li', 'timeline-empty muted', 'No visits or trips in this range.'));
      return;
    }
    for (const item of items) {
      const row = element('li', `timeline-${item.kind}`);
      if (item.kind === 'visit') {
        const visit = item.visit;
        row.append(element('span', 'timeline-time',
          `${clock(visit.localArrival)}–${visit.localDeparture ? clock(visit.localDeparture, visit.localArrival) : '…'}`));
        row.append(element('strong', 'timeline-place', visit.place));
        row.append(element('span', 'timeline-detail muted', duration(visit.durationSeconds)));
      } else if (item.kind === 'trip') {
        const trip = item.trip;
        row.dataset.mode = trip.mode;
        row.append(element('span', 'timeline-time', `${clock(trip.localStart)}–${clock(trip.localEnd, trip.localStart)}`));
        row.append(element('span', 'timeline-mode', trip.mode === 'unknown' ? 'moving' : trip.mode));
        row.append(element('span', 'timeline-detail muted',
          `${distance(trip.distanceMeters, units)} · ${duration(trip.durationSeconds)}`));
      } else {
        const format = (time) => new Date(time).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
        row.append(element('span', 'timeline-time', `${format(item.start)} – ${format(item.end)}`));
        row.append(element('span', 'timeline-gap-label', 'no data'));
        row.append(element('span', 'timeline-detail muted', duration((item.end - item.start) / 1000)));
      }
      container.append(row);
    }
  }

  /** Distance per period as SVG bars; unrecorded movement written under the chart. */
  function renderChart(svg, note, stats, units) {
    svg.replaceChildren();
    const periods = stats.periods || [];
    const width = 300, height = 120, bottom = 16, top = 12;
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.dataset.barCount = String(periods.length);
    const largest = Math.max(0, ...periods.map((period) => period.distance));
    const step = periods.length ? width / periods.length : width;
    periods.forEach((period, index) => {
      const barHeight = largest > 0 ? (period.distance / largest) * (height - bottom - top) : 0;
      const bar = document.createElementNS(SVG, 'rect');
      bar.setAttribute('x', String(index * step + step * 0.1));
      bar.setAttribute('y', String(height - bottom - barHeight));
      bar.setAttribute('width', String(Math.max(1, step * 0.8)));
      bar.setAttribute('height', String(barHeight));
      bar.setAttribute('class', 'chart-bar');
      const title = document.createElementNS(SVG, 'title');
      title.textContent = `${period.period}: ${period.distance.toFixed(2)} ${period.unit}`;
      bar.append(title);
      svg.append(bar);
    });
    if (periods.length) {
      for (const [index, anchor] of [[0, 'start'], [periods.length - 1, 'end']]) {
        const label = document.createElementNS(SVG, 'text');
        label.setAttribute('x', String(anchor === 'start' ? 0 : width));
        label.setAttribute('y', String(height - 3));
        label.setAttribute('text-anchor', anchor);
        label.setAttribute('class', 'chart-label');
        label.textContent = periods[index].period;
        svg.append(label);
      }
      const maximum = document.createElementNS(SVG, 'text');
      maximum.setAttribute('x', '0');
      maximum.setAttribute('y', '9');
      maximum.setAttribute('class', 'chart-label');
      maximum.textContent = `${largest.toFixed(1)} ${periods[0].unit}`;
      svg.append(maximum);
    }
    const total = stats.total || {};
    note.textContent = total.unrecordedMovements
      ? `Unrecorded movement across gaps: ${total.unrecordedMovements} × ${distance(total.unrecordedMovementMeters, units)} `
        + '(straight lines, not in the distance)'
      : '';
  }

  window.TravelogTimeline = {
    /** Draws the timeline and the chart; `units` is 'metric' or 'imperial'. */
    render({ visits, trips, stats, units }) {
      const list = document.getElementById('timeline');
      if (list) renderTimeline(list, visits, trips, units);
      const chart = document.getElementById('chart');
      const note = document.getElementById('unrecorded');
      if (chart && note) renderChart(chart, note, stats, units);
    },
    clock,
  };
})();
