// A year or a month in review (issue 33): the figures of GET /api/v1/review with the days behind
// each as links to those days (the page's date model: `#from=DAY`), the image the server draws
// (PNG, and the PDF to download), for the year or month chosen.
import { api, timeZone } from './api.js';
import { $, element } from './dom.js';
import { formatDistance, units } from './format.js';
import { state } from './state.js';

/** Days listed openly under a figure; more are behind a "N days" disclosure. */
const OPEN_DAYS = 6;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];

const review = { sequence: 0 };

/** The chosen period: `2025` or `2025-07`. */
function period() {
  const month = $('review-month').value;
  return month ? `${$('review-year').value}-${month}` : $('review-year').value;
}

function query(extra = {}) {
  return new URLSearchParams({ period: period(), timezone: timeZone, units: units(), ...extra }).toString();
}

async function show() {
  const sequence = ++review.sequence;
  const figures = $('review-figures');
  $('review-status').textContent = 'Computing…';
  figures.replaceChildren();
  try {
    const found = await api(`/api/v1/review?${query()}`);
    if (sequence !== review.sequence) return;
    render(found);
    $('review-image').src = `/api/v1/review?${query({ format: 'png' })}`;
    // The image at its own size in a tab of its own (the panel shows it small).
    $('review-open').href = $('review-image').src;
    $('review-image').alt = `${found.period} in review: a map of the paths with the figures`;
    $('review-image').hidden = found.activeDays.count === 0;
    // Hidden with its image: an empty link has no name (axe-core's link-name) and is a tab stop to nothing.
    $('review-open').hidden = found.activeDays.count === 0;
    $('review-pdf').href = `/api/v1/review?${query({ format: 'pdf' })}`;
    $('review-pdf').download = `travelog-review-${found.period}.pdf`;
    $('review-pdf').hidden = false;
    $('review-status').textContent = found.activeDays.count === 0 ? `No locations in ${found.period}.` : '';
    $('review').dataset.period = found.period;
  } catch (error) {
    if (error.status !== 401 && sequence === review.sequence) {
      $('review-status').textContent = `The review could not be computed: ${error.message}`;
    }
  }
}

/** A link to one day. */
function dayLink(day) {
  const link = element('a', 'review-day', day);
  link.href = `#from=${day}`;
  return link;
}

/** The days behind a figure: links, the rest behind a disclosure. */
function days(list) {
  const holder = element('span', 'review-days');
  list.slice(0, OPEN_DAYS).forEach((day) => holder.append(dayLink(day)));
  if (list.length > OPEN_DAYS) {
    const more = element('details', 'review-more');
    more.append(element('summary', null, `${list.length - OPEN_DAYS} more days`));
    list.slice(OPEN_DAYS).forEach((day) => more.append(dayLink(day)));
    holder.append(more);
  }
  return holder;
}

function figure(label, value, list, key) {
  const item = element('li', 'review-figure');
  item.dataset.figure = key;
  item.append(element('span', 'label', label), element('span', 'review-value', value));
  if (list && list.length) item.append(days(list));
  $('review-figures').append(item);
}

function count(number, word) { return `${new Intl.NumberFormat().format(number)} ${word}${number === 1 ? '' : 's'}`; }

function render(found) {
  figure('Distance', `${formatDistance(found.distanceMeters)} on ${count(found.activeDays.count, 'day')} with fixes`,
    found.activeDays.days, 'distance');
  for (const mode of found.distanceByMode) {
    figure(`By ${mode.mode}`, `${formatDistance(mode.distanceMeters)} in ${count(mode.trips, 'trip')}`, mode.days, `mode-${mode.mode}`);
  }
  for (const country of found.countries) {
    figure(country.new ? 'New country' : 'Country', `${country.code}: ${count(country.days.length, 'day')}`, country.days,
      `country-${country.code}`);
  }
  for (const city of found.cities.slice(0, 10)) {
    figure(city.new ? 'New city' : 'City', `${city.name} (${city.countryCode}): ${count(city.visits, 'visit')}`, city.days,
      'city');
  }
  if (found.home && found.daysAway) {
    figure('Days away from home', `${count(found.daysAway.count, 'day')} (home: ${found.home.name})`, found.daysAway.days, 'away');
  }
  if (found.longestTrip) {
    const trip = found.longestTrip;
    figure('Longest trip', `${formatDistance(trip.distanceMeters)}, ${trip.mode}`, trip.days, 'longest-trip');
  }
  for (const place of found.places) figure('Most visited', `${place.name}: ${count(place.visits, 'visit')}`, place.days, 'place');
  if (found.furthestFromHome) {
    figure('Furthest from home', formatDistance(found.furthestFromHome.distanceMeters), found.furthestFromHome.days, 'furthest');
  }
  if (found.busiestDay) figure('Busiest day', formatDistance(found.busiestDay.distanceMeters), found.busiestDay.days, 'busiest');
  if (found.photos) figure('Photos', count(found.photos.count, 'photo'), found.photos.days, 'photos');
}

function bindReview() {
  const year = $('review-year');
  const now = new Date().getFullYear();
  for (let value = now; value >= 1990; value -= 1) year.append(new Option(String(value), String(value)));
  const month = $('review-month');
  month.append(new Option('The whole year', ''));
  MONTHS.forEach((name, index) => month.append(new Option(name, String(index + 1).padStart(2, '0'))));
  // The year of the dates shown, once they are known.
  const shown = state.range ? Number(state.range.from.slice(0, 4)) : now - 1;
  year.value = String(Math.min(now, Math.max(1990, shown)));
  $('review-form').addEventListener('submit', (event) => {
    event.preventDefault();
    show();
  });
  $('review-figures').addEventListener('click', (event) => {
    // A day link changes the dates; the map shows it (the address is the date model's).
    if (event.target.closest('a.review-day')) $('map').scrollIntoView({ block: 'nearest' });
  });
}

bindReview();
