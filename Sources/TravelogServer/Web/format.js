// How the page writes distances, durations and times: one place for each.
import { state } from './state.js';

/** Metres in an international mile. */
export const METERS_PER_MILE = 1609.344;

export function units() { return state.units === 'imperial' ? 'imperial' : 'metric'; }

export function formatTime(time, withDate) {
  const options = withDate ? { dateStyle: 'medium', timeStyle: 'medium' } : { timeStyle: 'medium' };
  return new Intl.DateTimeFormat(undefined, options).format(new Date(time));
}

/** "12.35 km" / "7.67 mi", grouped digits ("141,934.83 km"). */
export function formatDistance(meters) {
  const imperial = units() === 'imperial';
  const value = imperial ? meters / METERS_PER_MILE : meters / 1000;
  const number = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return `${number} ${imperial ? 'mi' : 'km'}`;
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
