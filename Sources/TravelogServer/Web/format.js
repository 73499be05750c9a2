// How the page writes distances, durations and times: one place for each.
import { timeZone } from './api.js';
import { state } from './state.js';

/** Metres in an international mile. */
export const METERS_PER_MILE = 1609.344;

export function units() { return state.units === 'imperial' ? 'imperial' : 'metric'; }

/** A moment in the page's zone (Settings, else the browser's), or in `zone` (an IANA name: a place's). */
export function formatTime(time, withDate, zone) {
  const options = withDate ? { dateStyle: 'medium', timeStyle: 'medium' } : { timeStyle: 'medium' };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: zone || timeZone }).format(new Date(time));
  } catch (_) {
    // A zone this browser does not know.
    return new Intl.DateTimeFormat(undefined, options).format(new Date(time));
  }
}

/** "12.35 km" / "7.67 mi", grouped digits ("141,934.83 km"). */
export function formatDistance(meters) {
  const imperial = units() === 'imperial';
  const value = imperial ? meters / METERS_PER_MILE : meters / 1000;
  const number = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return `${number} ${imperial ? 'mi' : 'km'}`;
}

/** A distance from here to somewhere: "350 m", "1.2 km", "24 km" / "800 ft", "0.7 mi", "15 mi". */
export function formatDistanceAway(meters) {
  const format = (value, digits) => new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }).format(value);
  if (units() === 'imperial') {
    const miles = meters / METERS_PER_MILE;
    const feet = meters / 0.3048;
    return miles < 0.2 ? `${format(Math.round(feet / 10) * 10, 0)} ft` : `${format(miles, miles < 10 ? 1 : 0)} mi`;
  }
  return meters < 1000 ? `${format(Math.round(meters / 10) * 10, 0)} m` : `${format(meters / 1000, meters < 10000 ? 1 : 0)} km`;
}

/** "3 May 2025" (in the browser's language), the day in the page's time zone. */
export function formatDay(time) {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone }).format(new Date(time));
}

/** The line under a journal entry's title: its street address when the title does not already say
 * it ("Café Regatta" over "Merikannontie 8, 00260 Helsinki"; under a title "Merikannontie 8" only
 * "00260 Helsinki"); '' without an address (entries described before OSM extracts). */
export function placeSubtitle(visit) {
  const address = typeof visit.address === 'string' ? visit.address.trim() : '';
  const title = typeof visit.place === 'string' ? visit.place.trim() : '';
  if (!address || address === title) return '';
  if (title && address.startsWith(`${title}, `)) return address.slice(title.length + 2);
  return address;
}

export function durationText(seconds) {
  if (seconds === null || seconds === undefined) return 'ongoing';
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

/** "3 days", "1 day". */
export function count(number, singular, plural = `${singular}s`) {
  return `${new Intl.NumberFormat().format(number)} ${number === 1 ? singular : plural}`;
}
