// Travelog's page: log in, see the path of a day (or a range of days) on a map, follow new
// locations live, log the browser's own position, download the history. The entry module: it
// wires the others (ES modules by concern, no build step) to the one state (state.js) and loads
// what the chosen dates need whenever they, the devices shown or the units change.
import { api, onUnauthorized, rangeQuery } from './api.js';
import { bindCalendar, lastDayWithData, setFirstYear } from './calendar.js';
import { bindDates, rangeFromLocation, setRange, today } from './dates.js';
import { bindDevices, loadDevices } from './devices.js';
import { bindDirections } from './directions.js';
import { startFriends, stopFriends } from './friends.js';
import { $, showStatus } from './dom.js';
import { bindExplore } from './explore.js';
import { bindJournal, loadJournal, showDayThumbnails } from './journal.js';
import { bindPhotos, loadPhotos } from './photos.js';
import { bindFollow, closeLive, connectLive } from './live.js';
import { bindList, clearList, loadList } from './locations.js';
import { clearPath, drawn, ensureMap, loadLatest, loadTiledRange, loadVectorRange, removeCurrent } from './map.js';
import { bindRejected, loadRejected } from './rejected.js';
import { bindSearch } from './search.js';
import { codeStepShown, hideCodeStep, postLogin, showCodeStep } from './login-code.js';
import { showSetupIfNeeded } from './setup.js';
import { routeSettings } from './settings.js';
import { bindStats } from './stats.js';
import { state, subscribe, update } from './state.js';
import { bindYears, loadYears } from './years.js';

// MARK: Session

/** The readable cookie the server sets beside the session's HttpOnly one (SessionRoutes.signedInCookie). */
const SIGNED_IN_COOKIE = 'travelog_signed_in';

function signedIn() {
  return document.cookie.split(';').some((pair) => pair.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}

/** Asks who is logged in only when a login was made in this browser: no 401 for a visitor. */
async function start() {
  bindControls();
  if (!signedIn()) {
    // A server without any account shows the first-run form (with its one-time link) instead.
    if (!(await showSetupIfNeeded(enterApp))) showLogin('');
    return;
  }
  let response;
  try {
    response = await fetch('/api/v1/session', {
      credentials: 'same-origin', headers: { Accept: 'application/json', 'X-Requested-With': 'fetch' },
    });
  } catch (_) {
    $('loading').textContent = 'The server cannot be reached. Reload the page to try again.';
    return;
  }
  if (response.ok) {
    enterApp(await response.json());
  } else {
    // The session ended (expired or logged out elsewhere): forget the hint, so the next load asks nothing.
    document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
    showLogin('');
  }
}

function showLogin(message) {
  closeLive();
  stopFriends();
  state.session = null;
  $('loading').hidden = true;
  $('app').hidden = true;
  $('settings').hidden = true;
  $('account').hidden = true;
  $('login').hidden = false;
  hideCodeStep();
  $('login-error').textContent = message || '';
  $('login-user').focus();
}

async function logIn(event) {
  event.preventDefault();
  const submit = $('login-submit');
  submit.disabled = true;
  $('login-error').textContent = '';
  try {
    const body = { user: $('login-user').value, password: $('login-password').value };
    if (codeStepShown()) body.code = $('login-code').value;
    const info = await postLogin(body);
    if (info.secondFactor) {
      showCodeStep('code' in body);
      return;
    }
    $('login-password').value = '';
    hideCodeStep();
    enterApp(info);
  } catch (error) {
    $('login-error').textContent = error.status === 401 ? 'Wrong user name or password.' : (error.message || String(error));
  } finally {
    submit.disabled = false;
  }
}

async function logOut() {
  closeLive();
  try {
    await api('/api/v1/session', { method: 'DELETE', allowUnauthorized: true });
  } catch (_) { /* the login form follows anyway */ }
  clearPath();
  clearList();
  removeCurrent();
  showLogin('');
}

async function enterApp(info) {
  update({ session: info });
  $('loading').hidden = true;
  $('login').hidden = true;
  $('app').hidden = false;
  $('account').hidden = false;
  $('user-name').textContent = info.user;
  routeSettings();
  ensureMap(info);
  const devices = loadDevices();
  // The address names the dates; else the day of the newest fix (not an empty today).
  let range = rangeFromLocation();
  if (!range) {
    const last = await lastDayWithData();
    range = { from: last || today(), to: last || today() };
  }
  setRange(range, { replace: true });
  loadLatest();
  connectLive(() => { reload(false); loadLatest(); });
  startFriends(drawn.map);
  const firsts = (await devices).map((device) => device.first).filter(Boolean).sort();
  const firstYear = Number((firsts[0] || today()).slice(0, 4));
  setFirstYear(firstYear);
  loadYears(firstYear);
  if ($('section-import').open) loadRejected();
}

// MARK: Loading what the dates need

/** Loads the path (or the tiles), the list and the journal of the chosen dates and devices. */
function reload(place) {
  if (!state.range || !drawn.map) return;
  for (const link of document.querySelectorAll('.exports a')) {
    link.href = `/api/v1/export?${rangeQuery({ format: link.dataset.format })}`;
  }
  showDayThumbnails();
  loadPhotos({ place });
  update({ distanceMeters: null, locationCount: null });
  if (TravelogLayers.usesTiles(state.range)) {
    loadTiledRange({ place, whenDrawn: () => { loadList(); loadJournal(); } });
    return;
  }
  loadVectorRange({ place });
  loadList();
  loadJournal();
}

subscribe((current, changed) => {
  if (!current.session) return;
  if ('range' in changed) reload(changed.place !== false);
  else if ('hiddenDevices' in changed) reload(false);
  else if ('units' in changed) loadJournal();
});

// MARK: Controls

/** Each section of the side panel opens and closes as the person left it (localStorage). */
function bindSections() {
  for (const section of document.querySelectorAll('details[data-section]')) {
    const key = `travelog.section.${section.dataset.section}`;
    const saved = localStorage.getItem(key);
    if (saved === 'open' || saved === 'closed') section.open = saved === 'open';
    section.addEventListener('toggle', () => localStorage.setItem(key, section.open ? 'open' : 'closed'));
  }
}

function bindControls() {
  onUnauthorized(showLogin);
  bindSections();
  bindDates();
  bindCalendar();
  bindYears();
  bindStats();
  bindDevices();
  bindList();
  bindJournal();
  bindPhotos();
  bindFollow();
  bindRejected();
  bindSearch();
  bindDirections();
  $('login-form').addEventListener('submit', logIn);
  $('logout').addEventListener('click', logOut);
  for (const radio of document.querySelectorAll('input[name="units"]')) {
    radio.addEventListener('change', () => update({ units: radio.value === 'imperial' ? 'imperial' : 'metric' }));
  }
  $('log-here').addEventListener('click', logHere);
  TravelogLayers.bindSwitch(() => { if (state.range) reload(false); });
  bindExplore();
  $('view-image').addEventListener('click', () => {
    if (drawn.map && state.range) $('view-image').href = TravelogLayers.imageURL(rangeQuery());
  });
}

// MARK: Log my location


function logHere() {
  const button = $('log-here');
  if (!('geolocation' in navigator)) {
    showStatus(window.isSecureContext ? 'This browser cannot tell its location.'
      : 'The browser shares its location only with pages served over HTTPS (or from localhost).', true);
    return;
  }
  button.disabled = true;
  showStatus('Finding your location…', false);
  navigator.geolocation.getCurrentPosition(async (position) => {
    const coords = position.coords;
    const entry = {
      latitude: coords.latitude,
      longitude: coords.longitude,
      timestamp: new Date(position.timestamp || Date.now()).toISOString(),
      accuracy: coords.accuracy,
    };
    if (typeof coords.altitude === 'number') entry.altitude = coords.altitude;
    if (typeof coords.speed === 'number' && !Number.isNaN(coords.speed)) entry.speed = coords.speed;
    if (typeof coords.heading === 'number' && !Number.isNaN(coords.heading)) entry.course = coords.heading;
    try {
      await api('/api/v1/locations?source=manual', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify([entry]),
      });
      showStatus(`Logged ${coords.latitude.toFixed(5)}, ${coords.longitude.toFixed(5)} (±${Math.round(coords.accuracy)} m).`, false);
    } catch (error) {
      if (error.status !== 401) showStatus(`The location could not be saved: ${error.message}`, true);
    } finally {
      button.disabled = false;
    }
  }, (error) => {
    button.disabled = false;
    const reasons = {
      1: 'Permission to use your location was denied. Allow it in the browser\'s site settings to log it.',
      2: 'Your location is not available right now.',
      3: 'Finding your location took too long. Try again.',
    };
    showStatus(reasons[error.code] || `Your location could not be found: ${error.message}`, true);
  }, { enableHighAccuracy: true, timeout: 30000, maximumAge: 0 });
}

start();
