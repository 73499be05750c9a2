// The Devices part of the Settings view: each device with its last report, battery and app; add one
// with a QR code and a setup link per app; rename, watch for silence, rotate the token, remove;
// for OwnTracks, the encryption secret, and the MQTT mode's setup (which needs no token) again.
//
// Tokens are stored as digests, so a token (and the links that carry it) can be shown only in the
// answer that makes it: adding a device or giving it a new token. The page says so.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';

const APPS = [
  ['owntracks', 'OwnTracks'],
  ['owntracks-mqtt', 'OwnTracks (MQTT)'],
  ['overland', 'Overland'],
  ['traccar', 'Traccar Client'],
  ['osmand', 'OsmAnd'],
  ['gpslogger', 'GPSLogger'],
  ['other', 'Script (HTTP API)'],
];
const APP_NAMES = Object.fromEntries(APPS);

/** Choices for "tell me when silent for": seconds (null: never). */
const SILENCE = [
  [null, 'Never'], [3600, '1 h'], [3 * 3600, '3 h'], [6 * 3600, '6 h'], [12 * 3600, '12 h'], [86400, '24 h'], [3 * 86400, '3 days'],
];

/** Draws the devices part into `container` (an element of the Settings view). */
export async function renderDeviceSettings(container) {
  if (!container.querySelector('.devices-list')) build(container);
  await refresh(container);
  // "3 h ago" and the silent marks stay current while the list is on screen.
  if (!container.dataset.refreshing) {
    container.dataset.refreshing = 'yes';
    const timer = setInterval(() => {
      if (!container.isConnected) { clearInterval(timer); delete container.dataset.refreshing; return; }
      // Not while the person is in the middle of something (a rename, a new token, a removal).
      const busy = container.querySelector('.device-panel:not([hidden])');
      if (!busy && container.offsetParent !== null && document.visibilityState === 'visible') refresh(container);
    }, REFRESH_MILLISECONDS);
  }
}

/** How often the list is read again while shown. */
const REFRESH_MILLISECONDS = 60000;

function build(container) {
  const intro = element('p', 'devices-note',
    'Each phone or tracker reports with a token of its own. Tokens are kept only as digests: one is shown once, when it is made ' +
    '(adding a device, or giving it a new token), with the link and QR code that set up its app.');
  const list = element('ul', 'devices-list');
  list.id = 'devices-list';
  list.setAttribute('aria-live', 'polite');
  const status = element('p', 'status');
  status.id = 'devices-status';
  status.setAttribute('role', 'status');
  const heading = element('h4', null, 'Add a device');
  const form = element('form', 'devices-add');
  form.id = 'device-add-form';
  const name = labelled('Name', element('input'));
  name.input.id = 'device-add-name';
  name.input.required = true;
  name.input.maxLength = 100;
  name.input.placeholder = 'phone';
  name.input.autocomplete = 'off';
  const app = labelled('App', element('select'));
  app.input.id = 'device-add-app';
  for (const [value, title] of APPS) app.input.append(option(value, title));
  const submit = element('button', null, 'Add device');
  submit.type = 'submit';
  form.append(name.label, app.label, submit);
  const setup = element('section', 'device-setup');
  setup.id = 'device-setup';
  setup.hidden = true;
  setup.setAttribute('aria-live', 'polite');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    say(container, '');
    try {
      const answer = await api('/api/v1/devices', jsonRequest('POST', { name: name.input.value.trim(), app: app.input.value, url: window.location.origin }));
      name.input.value = '';
      showSetup(container, answer, 'added');
      await refresh(container);
    } catch (error) {
      say(container, error.message, true);
    } finally {
      submit.disabled = false;
    }
  });
  container.replaceChildren(intro, list, status, heading, form, setup);
}

function labelled(text, input) {
  const label = element('label', 'devices-field');
  label.append(element('span', null, text), input);
  return { label, input };
}

function option(value, title) {
  const node = element('option', null, title);
  node.value = value === null ? '' : String(value);
  return node;
}

function say(container, message, isError = false) {
  const status = container.querySelector('#devices-status');
  status.textContent = message;
  status.classList.toggle('is-error', isError);
}

async function refresh(container) {
  const list = container.querySelector('.devices-list');
  let devices;
  try {
    devices = await api('/api/v1/devices');
  } catch (error) {
    say(container, error.message, true);
    return;
  }
  const now = Date.now();
  const active = devices.filter((device) => !device.retiredAt);
  const retired = devices.filter((device) => device.retiredAt);
  list.replaceChildren(...active.map((device) => deviceItem(container, device, now)), ...retired.map((device) => deviceItem(container, device, now)));
  if (devices.length === 0) list.append(element('li', 'devices-empty', 'No devices yet: add one below.'));
}

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
export function ago(milliseconds) {
  const minutes = Math.floor(milliseconds / 60000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** "last report 3 h ago · 54 % battery · OwnTracks". */
export function statusLine(device, now) {
  const parts = [];
  const report = device.lastReport;
  if (report) {
    parts.push(`last report ${ago(now - Date.parse(report.receivedAt))}`);
    if (typeof report.batteryPercent === 'number') {
      parts.push(`${Math.round(report.batteryPercent)} % battery${report.charging ? ' (charging)' : ''}`);
    }
    if (report.phone && report.phone.summary) parts.push(report.phone.summary);
  } else {
    parts.push(device.locations > 0 ? `${device.locations} locations, no report from an app yet` : 'no report yet');
  }
  if (device.app) parts.push(APP_NAMES[device.app] || device.app);
  return parts.join(' · ');
}

function deviceItem(container, device, now) {
  const item = element('li', 'device-item');
  item.dataset.device = device.name;
  item.dataset.id = String(device.id);
  item.classList.toggle('is-silent', Boolean(device.silent));
  item.classList.toggle('is-retired', Boolean(device.retiredAt));
  const head = element('div', 'device-head');
  const name = element('strong', 'device-name', device.name);
  head.append(name);
  if (device.silent) head.append(element('span', 'device-badge is-silent', 'Silent'));
  if (device.retiredAt) head.append(element('span', 'device-badge', 'Removed · history kept'));
  const line = element('div', 'device-status', statusLine(device, now));
  if (device.lastReport && device.lastReport.userAgent) line.title = device.lastReport.userAgent;
  if (device.lastReport && device.lastReport.fixAt) {
    line.title = `${line.title ? `${line.title}\n` : ''}newest fix ${new Date(device.lastReport.fixAt).toLocaleString()}`;
  }
  item.append(head, line);
  const actions = element('div', 'device-actions');
  const panel = element('div', 'device-panel');
  panel.hidden = true;
  const open = (builder) => {
    if (!panel.hidden && panel.dataset.kind === builder.name) { panel.hidden = true; return; }
    panel.dataset.kind = builder.name;
    panel.replaceChildren(...builder(container, device, panel));
    panel.hidden = false;
    const first = panel.querySelector('input, select, button');
    if (first) first.focus();
  };
  if (!device.retiredAt) {
    actions.append(
      action('Rename', 'device-rename', () => open(renamePanel)),
      silenceControl(container, device),
      action('New token…', 'device-rotate', () => open(rotatePanel)),
    );
    if (device.app === 'owntracks-mqtt') actions.append(action('Setup', 'device-show-setup', () => showStoredSetup(container, device)));
    if (device.app === 'owntracks' || device.app === 'owntracks-mqtt') {
      actions.append(action(device.ownTracksSecretSet ? 'Encryption: on…' : 'Encryption…', 'device-secret', () => open(secretPanel)));
    }
  }
  actions.append(action('Remove…', 'device-remove', () => open(removePanel)));
  item.append(actions, panel);
  return item;
}

function action(text, className, handler) {
  const button = element('button', className, text);
  button.type = 'button';
  button.addEventListener('click', handler);
  return button;
}

function silenceControl(container, device) {
  const { label, input } = labelled('Tell me when silent for', element('select'));
  label.classList.add('device-silence');
  input.className = 'device-silence-select';
  const known = SILENCE.some(([seconds]) => seconds === (device.silentAfterSeconds ?? null));
  for (const [seconds, title] of SILENCE) input.append(option(seconds, title));
  if (!known) input.append(option(device.silentAfterSeconds, `${Math.round(device.silentAfterSeconds / 60)} min`));
  input.value = device.silentAfterSeconds ? String(device.silentAfterSeconds) : '';
  input.addEventListener('change', async () => {
    input.disabled = true;
    try {
      await api(`/api/v1/devices/${device.id}`, jsonRequest('PATCH', { silentAfterSeconds: input.value ? Number(input.value) : null }));
      say(container, input.value ? `${device.name}: you will be told (through your notification channels) when it is silent, and when it reports again.`
        : `${device.name}: not watched for silence.`);
      await refresh(container);
    } catch (error) {
      say(container, error.message, true);
      input.disabled = false;
    }
  });
  return label;
}

function renamePanel(container, device) {
  const form = element('form', 'device-inline');
  const { label, input } = labelled('New name', element('input'));
  input.className = 'device-rename-input';
  input.value = device.name;
  input.required = true;
  input.maxLength = 100;
  const save = element('button', 'device-rename-save', 'Save');
  save.type = 'submit';
  form.append(label, save, cancelButton(form));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      await api(`/api/v1/devices/${device.id}`, jsonRequest('PATCH', { name: input.value.trim() }));
      say(container, `Renamed ${device.name} to ${input.value.trim()}.`);
      await refresh(container);
    } catch (error) {
      say(container, error.message, true);
      save.disabled = false;
    }
  });
  return [form];
}

function rotatePanel(container, device) {
  const note = element('p', 'device-warning', `${device.name}'s current token stops working at once: the app reports again once it has the new one.`);
  const confirm = element('button', 'device-rotate-confirm', 'Give it a new token');
  confirm.type = 'button';
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      const answer = await api(`/api/v1/devices/${device.id}/token`, jsonRequest('POST', { url: window.location.origin }));
      showSetup(container, answer, 'rotated');
      await refresh(container);
    } catch (error) {
      say(container, error.message, true);
      confirm.disabled = false;
    }
  });
  return [note, confirm, cancelButton(note)];
}

/** The OwnTracks encryption secret: set (or replace) it, or clear it. */
function secretPanel(container, device) {
  const form = element('form', 'device-inline device-secret-form');
  const note = element('p', 'devices-note', device.ownTracksSecretSet
    ? `${device.name} has an encryption secret: its encrypted messages are opened with it. Replace it, or remove it.`
    : `The app's Encryption key, if ${device.name} encrypts its messages (the apps use its first 32 bytes).`);
  const { label, input } = labelled('Secret', element('input'));
  input.className = 'device-secret-input';
  input.type = 'password';
  input.autocomplete = 'off';
  input.required = true;
  input.maxLength = 1024;
  const save = element('button', 'device-secret-save', 'Save secret');
  save.type = 'submit';
  form.append(note, label, save);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      await api(`/api/v1/devices/${device.id}/owntracks-secret`, jsonRequest('PUT', { secret: input.value }));
      say(container, `${device.name}: its encrypted messages are opened with the secret set; the app's Encryption key must be the same.`);
      await afterSecret(container, device);
    } catch (error) {
      say(container, error.message, true);
      save.disabled = false;
    }
  });
  if (device.ownTracksSecretSet) {
    const clear = element('button', 'danger device-secret-clear', 'Remove secret');
    clear.type = 'button';
    clear.addEventListener('click', async () => {
      clear.disabled = true;
      try {
        await api(`/api/v1/devices/${device.id}/owntracks-secret`, { method: 'DELETE' });
        say(container, `${device.name}: no encryption secret; its encrypted messages are set aside among the rejected items.`);
        await afterSecret(container, device);
      } catch (error) {
        say(container, error.message, true);
        clear.disabled = false;
      }
    });
    form.append(clear);
  }
  form.append(cancelButton(form));
  return [form];
}

/** After the secret changed: the list again, and an MQTT phone's setup with the new key in its link. */
async function afterSecret(container, device) {
  await refresh(container);
  if (device.app === 'owntracks-mqtt') await showStoredSetup(container, device);
}

/** The setup the server gives without a token (all an MQTT phone needs: it logs in to the broker). */
async function showStoredSetup(container, device) {
  try {
    const setup = await api(`/api/v1/devices/${device.id}/setup?url=${encodeURIComponent(window.location.origin)}`);
    showSetup(container, { device, setup }, 'stored');
  } catch (error) {
    say(container, error.message, true);
  }
}

function removePanel(container, device) {
  const fieldset = element('fieldset', 'device-inline device-remove-choice');
  fieldset.append(element('legend', null, `Remove ${device.name}: its token stops working at once.`));
  const choices = device.retiredAt ? [['delete', 'Delete its history too: every location, journal entry, import and rejected item of it, for good.']]
    : [
      ['keep', 'Keep its history: it stays on the map and in the journal under this name.'],
      ['delete', 'Delete its history too: every location, journal entry, import and rejected item of it, for good.'],
    ];
  for (const [value, text] of choices) {
    const label = element('label', 'device-choice');
    const radio = element('input');
    radio.type = 'radio';
    radio.name = `history-${device.id}`;
    radio.value = value;
    radio.checked = value === choices[0][0];
    label.append(radio, element('span', null, text));
    fieldset.append(label);
  }
  const confirm = element('button', 'danger device-remove-confirm', 'Remove');
  confirm.type = 'button';
  confirm.addEventListener('click', async () => {
    const history = fieldset.querySelector('input:checked').value;
    confirm.disabled = true;
    try {
      await api(`/api/v1/devices/${device.id}?history=${history}`, { method: 'DELETE' });
      say(container, history === 'delete' ? `Deleted ${device.name} and its history.` : `Removed ${device.name}; its history stays.`);
      await refresh(container);
    } catch (error) {
      say(container, error.message, true);
      confirm.disabled = false;
    }
  });
  fieldset.append(confirm, cancelButton(fieldset));
  return [fieldset];
}

function cancelButton(inside) {
  const button = element('button', 'device-cancel', 'Cancel');
  button.type = 'button';
  button.addEventListener('click', () => { inside.closest('.device-panel').hidden = true; });
  return button;
}

/** The answer that made a token: per app, the QR code, the link to open on this phone, the settings. */
function showSetup(container, answer, why) {
  const setup = container.querySelector('#device-setup');
  const title = element('h4', null, `${why === 'rotated' ? 'New token for' : 'Set up'} ${answer.device.name}`);
  const mqtt = answer.setup.some((app) => app.app === 'owntracks-mqtt');
  const note = element('p', 'device-warning', why === 'stored'
    ? 'Scan the code with the phone, or open the link on the phone itself. In MQTT mode the phone logs in to the broker with ' +
      'its own password there, which the app asks for; the encryption key, when set, is in the link.'
    : 'Scan the code with the phone, or open the link on the phone itself. The token is in them and is shown only now: ' +
      'once you close this, a new token (which stops the old one) is the way to see it again.' +
      (mqtt ? ' (An MQTT phone needs no token: it logs in to the broker.)' : ''));
  const apps = element('div', 'device-setup-apps');
  for (const app of answer.setup) apps.append(setupCard(app));
  const done = element('button', 'device-setup-done', 'Done');
  done.type = 'button';
  done.addEventListener('click', () => { setup.hidden = true; setup.replaceChildren(); });
  setup.replaceChildren(title, note, apps, done);
  setup.hidden = false;
  setup.scrollIntoView({ block: 'nearest' });
}

function setupCard(app) {
  const card = element('article', 'device-setup-app');
  card.dataset.app = app.app;
  card.append(element('h5', null, app.title));
  if (app.qrSVG) {
    // As an image: the SVG cannot run anything, whatever it holds.
    const image = element('img', 'device-qr');
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(app.qrSVG)}`;
    image.alt = `QR code that sets up ${app.title}`;
    card.append(image);
  }
  if (app.link) {
    const link = element('a', 'device-setup-link', app.link.startsWith('http') ? 'The URL' : `Open in ${app.title.split(' (')[0]} on this phone`);
    link.href = app.link;
    link.rel = 'noreferrer';
    const code = element('code', 'device-link-text', app.link);
    card.append(link, code);
  }
  const settings = element('dl', 'device-settings');
  for (const [name, value] of app.settings) settings.append(element('dt', null, name), element('dd', null, value));
  card.append(settings);
  return card;
}
