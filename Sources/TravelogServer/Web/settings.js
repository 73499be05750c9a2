// The Settings view (#settings): account, devices, notifications, regions, rejected items,
// imports, share links, privacy zones, friends, preferences, your data (download, delete the account) and, for an administrator, the server's users and data files. Shown
// instead of the map and its panel while the address starts with #settings (#settings/imports
// opens that section); a nav list beside the sections on a wide screen, collapsible ones on a phone.
import { api, jsonRequest } from './api.js';
import { $, element } from './dom.js';
import { formatTime } from './format.js';
import { drawn } from './map.js';
import { fetchRejected, rejectedNote, rejectedRow } from './rejected.js';
import { renderAdministration } from './settings-admin.js';
import { renderData } from './settings-data.js';
import { renderDeviceSettings } from './settings-devices.js';
import { renderFriends } from './settings-friends.js';
import { field } from './settings-fields.js';
import { renderImports } from './settings-imports.js';
import { renderNotifications } from './settings-notifications.js';
import { renderRetention } from './settings-retention.js';
import { renderShares } from './settings-shares.js';
import { renderZones } from './settings-zones.js';
import { renderTwoFactor } from './settings-two-factor.js';
import { state, subscribe, update } from './state.js';

/** Where the page keeps its fixed display time zone (api.js reads it; absent: the browser's). */
export const TIME_ZONE_KEY = 'travelog.timeZone';

const SECTIONS = [
  { id: 'account', title: 'Account', render: renderAccount },
  { id: 'two-factor', title: 'Two-factor login', render: renderTwoFactor },
  { id: 'devices', title: 'Devices', render: renderDeviceSettings },
  { id: 'notifications', title: 'Notifications', render: renderNotifications },
  { id: 'regions', title: 'Regions', render: renderRegions },
  { id: 'rejected', title: 'Rejected items', render: renderRejected },
  { id: 'imports', title: 'Imports', render: renderImports },
  { id: 'shares', title: 'Shares', render: renderShares },
  { id: 'zones', title: 'Zones', render: renderZones },
  { id: 'retention', title: 'Retention', render: renderRetention },
  { id: 'friends', title: 'Friends', render: renderFriends },
  { id: 'preferences', title: 'Preferences', render: renderPreferences },
  { id: 'data', title: 'Your data', render: renderData },
  { id: 'administration', title: 'Administration', render: renderAdministration, administrator: true },
];

export function isSettingsAddress() {
  return window.location.hash.startsWith('#settings');
}

/** Shows the Settings view or the map, as the address says, once someone is logged in. */
export function routeSettings() {
  const view = $('settings');
  if (!state.session) {
    view.hidden = true;
    return;
  }
  if (!isSettingsAddress()) {
    if (!view.hidden) {
      view.hidden = true;
      $('app').hidden = false;
      // The map was sized while hidden.
      if (drawn.map) drawn.map.invalidateSize();
    }
    return;
  }
  build();
  $('app').hidden = true;
  view.hidden = false;
  const wanted = window.location.hash.split('/')[1];
  select(SECTIONS.some((section) => section.id === wanted && visible(section)) ? wanted : 'account');
}

function visible(section) {
  return !section.administrator || Boolean(state.session && state.session.administrator);
}

let builtFor = null;

/** The view's frame: a way back to the map, the nav list, one <details> per section. */
function build() {
  if (builtFor === state.session) return;
  builtFor = state.session;
  const view = $('settings');
  const head = element('div', 'settings-head');
  const back = element('a', 'button settings-back', '‹ Back to the map');
  back.id = 'settings-back';
  back.href = '#';
  back.addEventListener('click', (event) => { event.preventDefault(); showMap(); });
  const title = element('h2', null, 'Settings');
  title.id = 'settings-title';
  head.append(back, title);
  const nav = element('nav', 'settings-nav');
  nav.setAttribute('aria-label', 'Settings sections');
  const list = element('ul');
  const sections = element('div', 'settings-sections');
  for (const section of SECTIONS.filter(visible)) {
    const link = element('a', null, section.title);
    link.href = `#settings/${section.id}`;
    link.id = `settings-link-${section.id}`;
    const item = element('li');
    item.append(link);
    list.append(item);
    const details = element('details', 'settings-section');
    details.id = `settings-${section.id}`;
    const summary = element('summary');
    summary.append(element('h3', null, section.title));
    const content = element('div', 'settings-content');
    details.append(summary, content);
    details.addEventListener('toggle', () => { if (details.open) section.render(content); });
    sections.append(details);
  }
  nav.append(list);
  const body = element('div', 'settings-body');
  body.append(nav, sections);
  view.replaceChildren(head, body);
}

function select(id) {
  for (const details of document.querySelectorAll('.settings-section')) {
    const current = details.id === `settings-${id}`;
    details.classList.toggle('is-current', current);
    if (current && !details.open) details.open = true;
    // On a phone the sections are stacked: bring the chosen one up when its top is out of view.
    if (current && window.matchMedia('(max-width: 760px)').matches) {
      const top = details.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) details.scrollIntoView({ block: 'start' });
    }
  }
  for (const link of document.querySelectorAll('.settings-nav a')) {
    if (link.id === `settings-link-${id}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

/** Back to the map at the dates shown before. */
function showMap(then) {
  const range = state.range;
  const address = range ? (range.from === range.to ? `#from=${range.from}` : `#from=${range.from}&to=${range.to}`) : '';
  window.history.pushState(null, '', window.location.pathname + address);
  routeSettings();
  if (then) then();
}

window.addEventListener('hashchange', routeSettings);
window.addEventListener('popstate', routeSettings);
subscribe((current, changed) => { if ('session' in changed) routeSettings(); });

// MARK: Account

function renderAccount(content) {
  if (content.childElementCount) { loadSessions(); return; }
  const form = element('form', 'settings-form');
  form.id = 'password-form';
  const current = field('Current password', { type: 'password', autocomplete: 'current-password', required: '', id: 'password-current' });
  const fresh = field('New password (8 characters or more)', { type: 'password', autocomplete: 'new-password', required: '', minlength: '8', id: 'password-new' });
  const again = field('New password again', { type: 'password', autocomplete: 'new-password', required: '', id: 'password-again' });
  const submit = element('button', null, 'Change password');
  submit.type = 'submit';
  const status = element('p', 'status');
  status.id = 'password-status';
  status.setAttribute('role', 'status');
  form.append(current.label, fresh.label, again.label, submit, status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.classList.remove('is-error');
    if (fresh.input.value !== again.input.value) {
      status.textContent = 'The new passwords do not match.';
      status.classList.add('is-error');
      return;
    }
    submit.disabled = true;
    try {
      await api('/api/v1/account/password', jsonRequest('POST', { current: current.input.value, new: fresh.input.value }));
      form.reset();
      status.textContent = 'Password changed. Every other login has ended.';
      loadSessions();
    } catch (error) {
      status.textContent = error.message;
      status.classList.add('is-error');
    } finally {
      submit.disabled = false;
    }
  });
  const sessions = element('ol', 'settings-list');
  sessions.id = 'sessions';
  const endOthers = element('button', null, 'Log out everywhere else');
  endOthers.type = 'button';
  endOthers.id = 'sessions-end-others';
  endOthers.addEventListener('click', async () => {
    const all = await api('/api/v1/sessions');
    for (const session of all.filter((one) => !one.current)) await api(`/api/v1/sessions/${session.id}`, { method: 'DELETE' });
    loadSessions();
  });
  content.append(element('h4', null, 'Password'), form, element('h4', null, 'Logins'), sessions, endOthers);
  loadSessions();
}

async function loadSessions() {
  const list = $('sessions');
  if (!list) return;
  const sessions = await api('/api/v1/sessions');
  list.replaceChildren(...sessions.map((session) => {
    const row = element('li', 'settings-row');
    row.append(element('span', null, `${session.current ? 'This browser' : 'Another login'} · until ${formatTime(Date.parse(session.expiresAt), true)}`));
    if (!session.current) {
      const end = element('button', null, 'Log out');
      end.type = 'button';
      end.addEventListener('click', async () => { await api(`/api/v1/sessions/${session.id}`, { method: 'DELETE' }); loadSessions(); });
      row.append(end);
    }
    return row;
  }));
}

// MARK: Regions, rejected items, preferences

function renderRegions(content) {
  if (content.childElementCount) return;
  const open = element('button', null, 'Open the regions on the map');
  open.type = 'button';
  open.addEventListener('click', () => showMap(() => {
    const panel = $('section-regions');
    panel.open = true;
    panel.scrollIntoView({ block: 'start' });
  }));
  content.append(element('p', 'muted', 'Regions are drawn and edited on the map, in its Regions panel.'), open);
}

async function renderRejected(content) {
  const note = element('p', 'muted');
  const list = element('ol', 'settings-list rejected');
  list.id = 'rejected-items';
  const clear = element('button', null, 'Dismiss all');
  clear.type = 'button';
  clear.addEventListener('click', async () => { await api('/api/v1/rejected', { method: 'DELETE' }); renderRejected(content); });
  content.replaceChildren(note, list);
  try {
    const answer = await fetchRejected();
    note.textContent = rejectedNote(answer);
    list.replaceChildren(...answer.items.map((item) => {
      const row = rejectedRow(item);
      row.classList.add('settings-row');
      if (item.retryable) {
        // An OwnTracks message set aside before its device's secret was set: it may open now.
        const retry = element('button', 'rejected-retry', 'Retry');
        retry.type = 'button';
        retry.title = 'Send it through again (after setting the device\'s OwnTracks secret)';
        retry.addEventListener('click', async () => {
          retry.disabled = true;
          try {
            const answer = await api(`/api/v1/rejected/${item.id}/retry`, { method: 'POST' });
            await renderRejected(content);
            const fresh = content.querySelector('p');
            if (fresh) fresh.textContent = `Stored (${answer.stored} new). ${fresh.textContent}`;
          } catch (error) {
            const why = element('span', 'error rejected-retry-error', ` ${error.message}`);
            row.querySelector('.rejected-retry-error')?.remove();
            row.append(why);
            retry.disabled = false;
          }
        });
        row.append(retry);
      }
      const dismiss = element('button', null, 'Dismiss');
      dismiss.type = 'button';
      dismiss.addEventListener('click', async () => { await api(`/api/v1/rejected/${item.id}`, { method: 'DELETE' }); renderRejected(content); });
      row.append(dismiss);
      return row;
    }));
    if (answer.total > 0) content.append(clear);
  } catch (error) {
    note.textContent = `The refused items could not be loaded: ${error.message}`;
  }
}

function renderPreferences(content) {
  if (content.childElementCount) return;
  const units = element('fieldset', 'units settings-units');
  units.append(element('legend', 'label', 'Distances in'));
  for (const [value, text] of [['metric', 'kilometres'], ['imperial', 'miles']]) {
    const label = element('label');
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name: 'settings-units', value, checked: state.units === value });
    radio.addEventListener('change', () => update({ units: value }));
    label.append(radio, ` ${text}`);
    units.append(label);
  }
  subscribe((current, changed) => {
    if ('units' in changed) for (const radio of units.querySelectorAll('input')) radio.checked = radio.value === current.units;
  });
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = element('label', 'settings-field');
  const select = element('select');
  select.id = 'settings-time-zone';
  const automatic = element('option', null, `Automatic (this browser's: ${browserZone})`);
  automatic.value = '';
  select.append(automatic);
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [browserZone];
  for (const name of zones) select.append(Object.assign(element('option', null, name), { value: name }));
  select.value = localStorage.getItem(TIME_ZONE_KEY) || '';
  select.addEventListener('change', () => {
    if (select.value) localStorage.setItem(TIME_ZONE_KEY, select.value);
    else localStorage.removeItem(TIME_ZONE_KEY);
    // Every module reads the zone when the page loads: load it again, back in Settings.
    window.location.reload();
  });
  zone.append(element('span', null, 'Days are counted in'), select);
  content.append(units, zone,
    element('p', 'muted', 'Kept in this browser. The map\'s own km/miles switch is the same setting.'));
}
