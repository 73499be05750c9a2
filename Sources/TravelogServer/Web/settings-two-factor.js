// Settings → Two-factor login: turn a TOTP second factor on (a QR code and the secret as text for
// the authenticator app, ten recovery codes, then a code of the app to confirm) or off (the password
// again). The server's routes: /api/v1/account/two-factor, …/confirm, …/disable.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { button, field } from './settings-fields.js';

export async function renderTwoFactor(content) {
  const note = element('p', 'muted');
  note.id = 'two-factor-state';
  content.replaceChildren(note);
  let status;
  try {
    status = await api('/api/v1/account/two-factor');
  } catch (error) {
    note.textContent = `Two-factor login cannot be read: ${error.message}`;
    return;
  }
  if (status.enabled) renderOn(content, note, status);
  else renderOff(content, note);
}

function renderOff(content, note) {
  note.textContent = 'Off: the password alone logs in. With two-factor login, the page also asks for a 6-digit code '
    + 'from an authenticator app on your phone (any app that reads QR codes of type TOTP).';
  const start = button('Turn on two-factor login…', async () => {
    start.disabled = true;
    try {
      showSetup(content, note, await api('/api/v1/account/two-factor', { method: 'POST' }));
    } catch (error) {
      note.textContent = error.message;
      start.disabled = false;
    }
  }, 'two-factor-start');
  content.append(start);
}

function showSetup(content, note, setup) {
  note.textContent = '1. Scan the code with the authenticator app, or type the secret into it. '
    + '2. Keep the recovery codes somewhere apart from the phone: each logs in once without the app. '
    + '3. Type the code the app shows to turn it on.';
  const image = element('img', 'device-qr');
  image.id = 'two-factor-qr';
  // As an image: the SVG cannot run anything, whatever it holds.
  if (setup.qrSVG) image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSVG)}`;
  image.alt = 'QR code of the two-factor secret, for an authenticator app';
  const secret = element('p', null, 'Secret: ');
  const secretText = element('code', null, setup.secret.replace(/(.{4})/g, '$1 ').trim());
  secretText.id = 'two-factor-secret';
  secret.append(secretText);
  const codes = element('ol', 'two-factor-codes');
  codes.id = 'two-factor-recovery';
  for (const code of setup.recoveryCodes) {
    const item = element('li');
    item.append(element('code', null, code));
    codes.append(item);
  }
  const form = element('form', 'settings-form');
  form.id = 'two-factor-confirm';
  const code = field('Code from the app', {
    autocomplete: 'one-time-code', inputmode: 'numeric', required: '', id: 'two-factor-code', maxlength: '7', pattern: '[0-9 ]{6,7}',
  });
  const submit = element('button', null, 'Turn on');
  submit.type = 'submit';
  const status = element('p', 'status');
  status.setAttribute('role', 'status');
  form.append(code.label, submit, status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    status.classList.remove('is-error');
    try {
      await api('/api/v1/account/two-factor/confirm', jsonRequest('POST', { code: code.input.value }));
      await renderTwoFactor(content);
      const state = content.querySelector('#two-factor-state');
      if (state) state.textContent = `On. ${state.textContent}`;
    } catch (error) {
      status.textContent = error.message;
      status.classList.add('is-error');
      submit.disabled = false;
    }
  });
  content.replaceChildren(note, image, secret, element('h4', null, 'Recovery codes'), codes, form);
}

function renderOn(content, note, status) {
  note.textContent = `On: a login with the password also asks for a code from the app. ${status.recoveryCodesLeft} of 10 recovery codes left. `
    + 'Scripts use device tokens (HTTP Basic with the password is refused).';
  const form = element('form', 'settings-form');
  form.id = 'two-factor-disable';
  const password = field('Password', { type: 'password', autocomplete: 'current-password', required: '', id: 'two-factor-password' });
  const submit = element('button', null, 'Turn off two-factor login');
  submit.type = 'submit';
  const line = element('p', 'status');
  line.setAttribute('role', 'status');
  form.append(password.label, submit, line);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    line.classList.remove('is-error');
    try {
      await api('/api/v1/account/two-factor/disable', jsonRequest('POST', { password: password.input.value }));
      await renderTwoFactor(content);
    } catch (error) {
      line.textContent = error.message;
      line.classList.add('is-error');
      submit.disabled = false;
    }
  });
  content.append(form);
}
