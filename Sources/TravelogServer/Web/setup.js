// The first run: on a server without any account, `travelog serve` prints a one-time link
// (/#setup=TOKEN); this module shows the form behind it, which creates the first account (the
// administrator), then offers to add the first phone right away. Without the link, a visitor of
// an unclaimed server is told where to find it instead of a login that cannot work.
import { api, jsonRequest } from './api.js';
import { $, element } from './dom.js';
import { renderDeviceSettings } from './settings-devices.js';

function tokenInAddress() {
  return new URLSearchParams(window.location.hash.slice(1)).get('setup');
}

function forgetToken() {
  window.history.replaceState(null, '', window.location.pathname);
}

/**
 * Shows the first-run form when the server has no account yet and returns true; returns false
 * (and leaves the page to the login) when it has one. `enterApp(info)` opens the map once logged in.
 */
export async function showSetupIfNeeded(enterApp) {
  const token = tokenInAddress();
  let answer;
  try {
    answer = await api('/api/v1/setup', { allowUnauthorized: true });
  } catch (_) {
    return false;
  }
  if (!answer.needed) {
    if (token) forgetToken();
    return false;
  }
  $('loading').hidden = true;
  $('login').hidden = true;
  const section = $('setup');
  section.hidden = false;
  section.textContent = '';
  section.append(element('h2', '', 'Welcome to Travelog'));
  section.querySelector('h2').id = 'setup-title';
  if (!token) {
    const how = element('p');
    how.append(...(answer.linkPrinted
      ? ['To create the first one, open the link that ', element('code', '', 'travelog serve'),
        ' printed on the server\'s terminal (or in its log). It works once, and only its holder can claim this server.']
      : ['Restart ', element('code', '', 'travelog serve'), ': it prints a one-time link that creates the first account.']));
    section.append(element('p', '', 'This server has no account yet.'), how);
    return true;
  }
  drawForm(section, token, enterApp);
  return true;
}

function field(form, id, label, attributes) {
  const text = element('label', '', label);
  text.htmlFor = id;
  const input = element('input');
  input.id = id;
  Object.assign(input, attributes);
  form.append(text, input);
  return input;
}

function drawForm(section, token, enterApp) {
  section.append(element('p', '', 'Create the first account. It is this server\'s administrator: '
    + 'it can add other people later, in Settings.'));
  const form = element('form');
  form.id = 'setup-form';
  const user = field(form, 'setup-user', 'User name', {
    name: 'user', autocomplete: 'username', autocapitalize: 'none', spellcheck: false, required: true, maxLength: 100,
  });
  const password = field(form, 'setup-password', 'Password (at least 8 characters)', {
    name: 'password', type: 'password', autocomplete: 'new-password', required: true, minLength: 8,
  });
  const again = field(form, 'setup-password-again', 'The password again', {
    name: 'password-again', type: 'password', autocomplete: 'new-password', required: true, minLength: 8,
  });
  const submit = element('button', 'primary', 'Create the account');
  submit.type = 'submit';
  submit.id = 'setup-submit';
  const error = element('p', 'error');
  error.id = 'setup-error';
  error.setAttribute('role', 'alert');
  form.append(submit, error);
  section.append(form);
  user.focus();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    if (password.value !== again.value) {
      error.textContent = 'The two passwords differ.';
      again.focus();
      return;
    }
    submit.disabled = true;
    try {
      const info = await api('/api/v1/setup', {
        ...jsonRequest('POST', { token, user: user.value.trim(), password: password.value }), allowUnauthorized: true,
      });
      password.value = '';
      again.value = '';
      forgetToken();
      drawFirstPhone(section, info, enterApp);
    } catch (failure) {
      error.textContent = failure.message || String(failure);
    } finally {
      submit.disabled = false;
    }
  });
}

/** The step after the account: a phone (QR code and link per app), or straight to the map. */
function drawFirstPhone(section, info, enterApp) {
  section.textContent = '';
  const title = element('h2', '', `Welcome, ${info.user}`);
  title.id = 'setup-title';
  const devices = element('div', 'setup-devices');
  devices.id = 'setup-devices';
  const waiting = element('p', 'status');
  waiting.id = 'setup-waiting';
  waiting.setAttribute('role', 'status');
  const toMap = element('button', 'primary', 'Go to the map');
  toMap.type = 'button';
  toMap.id = 'setup-done';
  let watching = true;
  toMap.addEventListener('click', () => {
    watching = false;
    section.hidden = true;
    section.textContent = '';
    section.classList.remove('wide');
    enterApp(info);
  });
  section.append(title,
    element('p', '', 'Your account is ready. Now add the phone that will report where you are: '
      + 'choose its app, then scan the code with the phone (or open the link on it).'),
    devices, waiting, toMap);
  section.classList.add('wide');
  renderDeviceSettings(devices);
  watchFirstReport(devices, waiting, () => watching);
}

/** Until the person leaves this step: says when a phone first reports, and shows it in the list. */
async function watchFirstReport(devices, line, stillShown) {
  let seen = '';
  while (stillShown()) {
    await new Promise((resolve) => { setTimeout(resolve, 3000); });
    if (!stillShown()) return;
    let list;
    try {
      list = await api('/api/v1/devices');
    } catch (_) {
      continue;
    }
    const reported = list.filter((device) => device.lastReport);
    if (list.length === 0) continue;
    if (reported.length === 0) {
      line.textContent = 'Waiting for the phone\'s first report…';
      continue;
    }
    const names = reported.map((device) => device.name).join(', ');
    if (names !== seen) {
      seen = names;
      line.textContent = `✓ ${names} reported: its position is on the map.`;
      // Drawn anew unless the person is in the middle of something in the list.
      if (!devices.querySelector('.device-panel:not([hidden])')) renderDeviceSettings(devices);
    }
  }
}
