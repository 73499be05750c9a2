// "Share this view" in the map's panel: a small form that makes a share link of the dates shown
// (or of the live position) with POST /api/v1/shares, then shows the link with a copy button.
// The link's token is in that answer only; Settings → Shares lists the links and revokes them.
import { api, jsonRequest, timeZone } from './api.js';
import { $, element } from './dom.js';
import { state } from './state.js';

const EXPIRIES = [['1 day', 86400], ['7 days', 7 * 86400], ['30 days', 30 * 86400], ['never', null]];
const LIVE_HOURS = [1, 8, 24, 72];

function option(select, label, value, selected) {
  const item = element('option', '', label);
  item.value = value;
  item.selected = selected;
  select.append(item);
}

function labelled(text, control) {
  const label = element('label', 'share-field', text);
  label.append(control);
  return label;
}

function build(panel) {
  const form = element('form', 'share-form');
  form.id = 'share-form';
  const what = element('select');
  what.id = 'share-what';
  const dates = state.range.from === state.range.to ? state.range.from : `${state.range.from} – ${state.range.to}`;
  option(what, `These dates (${dates})`, 'range', true);
  option(what, 'My live position from now on', 'live', false);
  const hours = element('select');
  hours.id = 'share-live-hours';
  for (const value of LIVE_HOURS) option(hours, `${value} h`, String(value), value === 24);
  const liveField = labelled('For ', hours);
  liveField.hidden = true;
  const expires = element('select');
  expires.id = 'share-expires';
  EXPIRIES.forEach(([label, seconds], index) => option(expires, label, seconds === null ? 'never' : String(seconds), index === 1));
  const expiresField = labelled('Expires after ', expires);
  const title = element('input');
  title.id = 'share-title-input';
  title.maxLength = 200;
  title.placeholder = 'optional';
  const password = element('input');
  password.id = 'share-password-input';
  password.type = 'password';
  password.autocomplete = 'new-password';
  password.minLength = 8;
  password.placeholder = 'optional, 8 characters or more';
  const hide = element('input');
  hide.id = 'share-hide-visits';
  hide.type = 'checkbox';
  const hideField = element('label', 'check');
  hideField.append(hide, ' Hide the journal\'s places');
  const photos = element('input');
  photos.id = 'share-include-photos';
  photos.type = 'checkbox';
  const photosField = element('label', 'check');
  photosField.append(photos, ' Include the photos taken then');
  const create = element('button', 'primary', 'Create link');
  create.type = 'submit';
  const cancel = element('button', '', 'Close');
  cancel.type = 'button';
  const result = element('div', 'share-result');
  result.id = 'share-result';
  what.addEventListener('change', () => {
    liveField.hidden = what.value !== 'live';
    expiresField.hidden = what.value === 'live';
  });
  cancel.addEventListener('click', () => { panel.hidden = true; });
  form.append(labelled('Share ', what), liveField, expiresField, labelled('Title ', title), labelled('Password ', password),
    hideField, photosField, create, ' ', cancel, result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = what.value === 'live'
      ? { kind: 'live', forSeconds: Number(hours.value) * 3600 }
      : state.range.from === state.range.to
        ? { kind: 'day', day: state.range.from, timezone: timeZone }
        : { kind: 'range', from: state.range.from, to: state.range.to, timezone: timeZone };
    if (what.value !== 'live') {
      if (expires.value === 'never') body.expires = 'never';
      else body.expiresInSeconds = Number(expires.value);
    }
    if (title.value.trim()) body.title = title.value.trim();
    if (password.value) body.password = password.value;
    body.hideVisits = hide.checked;
    body.photos = photos.checked;
    body.url = window.location.origin;
    create.disabled = true;
    result.replaceChildren();
    try {
      const made = await api('/api/v1/shares', jsonRequest('POST', body));
      showLink(result, made);
    } catch (error) {
      result.append(element('p', 'error', error.message));
    } finally {
      create.disabled = false;
    }
  });
  panel.replaceChildren(form);
}

function showLink(result, made) {
  const link = element('input', 'share-link');
  link.id = 'share-link';
  link.readOnly = true;
  link.value = made.url || `${window.location.origin}${made.path}`;
  const copy = element('button', '', 'Copy');
  copy.type = 'button';
  copy.id = 'share-copy';
  const said = element('span', 'muted');
  copy.addEventListener('click', async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      said.textContent = ' Copied.';
    } catch (_) {
      said.textContent = document.execCommand && document.execCommand('copy') ? ' Copied.' : ' Select and copy it.';
    }
  });
  const expiry = made.expiresAt ? `until ${new Date(made.expiresAt).toLocaleString()}` : 'until you revoke it';
  result.append(link, copy, said,
    element('p', 'muted', `Anyone with this link sees what it shares, ${expiry}. It is shown once: Settings → Shares lists and revokes links.`));
}

function start() {
  const button = $('share-view');
  const panel = $('share-panel');
  if (!button || !panel) return;
  button.addEventListener('click', () => {
    if (!state.range) return;
    if (panel.hidden) build(panel);
    panel.hidden = !panel.hidden;
  });
}

start();
