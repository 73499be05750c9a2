// Settings → Your data: download everything of the account as one zip (GET /api/v1/account/export),
// and delete the account (DELETE /api/v1/account, the password again and, with two-factor login on,
// a code; or, for someone who signs in through the single sign-on provider and has no password, a
// sign-in of the last ten minutes). After a deletion the page goes back to the login.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { button, field } from './settings-fields.js';

export async function renderData(content) {
  if (content.childElementCount) return;
  content.append(downloadPart(), element('h4', null, 'Delete my account'), await deletionForm());
}

function downloadPart() {
  const part = element('div');
  part.id = 'data-export';
  const note = element('p', 'muted', 'One zip with all of your data in open formats: every device\'s locations (CSV), the journal with '
    + 'your renames, merges and deletions, places, regions, privacy zones, notification channels (without their secrets), '
    + 'rejected items, share links (they cannot be reopened elsewhere) and your photos\' details. '
    + 'travelog import reads it back on any Travelog server.');
  const photos = element('input');
  photos.type = 'checkbox';
  photos.id = 'data-export-photos';
  const photosField = element('label', 'check');
  photosField.append(photos, ' With the photos\' files (the originals, as they were added; a larger download)');
  // A navigation to an attachment downloads it and leaves the page as it is.
  const link = button('Download all my data', () => {
    window.location.assign(`/api/v1/account/export${photos.checked ? '?photos=true' : ''}`);
  }, 'data-export-download');
  part.append(note, photosField, link);
  return part;
}

/** The sign-in part of the form: how this session can confirm a deletion without a password. */
async function signInConfirmation() {
  const [session, offer] = await Promise.all([
    api('/api/v1/session').catch(() => ({})),
    fetch('/api/v1/oidc', { headers: { Accept: 'application/json' } }).then((answer) => (answer.ok ? answer.json() : {})).catch(() => ({})),
  ]);
  const until = session.signInConfirmsUntil ? new Date(session.signInConfirmsUntil) : null;
  const part = element('div', 'muted');
  part.id = 'account-delete-sign-in';
  if (until && until > new Date()) {
    const time = until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    part.textContent = `You signed in a moment ago: until ${time} that confirms it is you, and no password is needed.`;
    return { part, confirmed: true };
  }
  if (!offer.enabled || !offer.loginURL) return { part: null, confirmed: false };
  const provider = offer.providerName || 'single sign-on';
  const again = element('a', 'button', `Sign in again with ${provider}`);
  again.id = 'account-delete-sign-in-again';
  again.href = `${offer.loginURL}?return=${encodeURIComponent('/#settings/data')}`;
  part.append(element('p', null, `Signed in with ${provider}, without a password of Travelog? Sign in again to confirm `
    + 'it is you; for ten minutes after, you can delete without a password.'), again);
  return { part, confirmed: false };
}

async function deletionForm() {
  let twoFactor = false;
  try {
    twoFactor = Boolean((await api('/api/v1/account/two-factor')).enabled);
  } catch (_) { /* the form then asks for the code when the server says it is needed */ }
  const signIn = await signInConfirmation();
  const form = element('form', 'settings-form');
  form.id = 'account-delete';
  const note = element('p', 'muted', 'This deletes your account at once and for good: your devices and their tokens, every location, '
    + 'the journal, places, regions, zones, share links (they stop working), photos you uploaded, notification channels, '
    + 'imports and their records, two-factor login, and every login of yours on every browser. Nothing can bring it back: '
    + 'download your data first.');
  const password = field('Your password', { type: 'password', autocomplete: 'current-password', id: 'account-delete-password' });
  // Required unless a recent sign-in confirms, or the provider's sign-in is offered instead.
  if (!signIn.part) password.input.required = true;
  password.label.hidden = signIn.confirmed;
  const code = field('Code from the authenticator app (or a recovery code)', {
    autocomplete: 'one-time-code', inputmode: 'numeric', id: 'account-delete-code', maxlength: '12',
  });
  code.label.hidden = !twoFactor || signIn.confirmed;
  const confirm = element('label', 'check');
  const box = element('input');
  box.type = 'checkbox';
  box.required = true;
  box.id = 'account-delete-confirm';
  confirm.append(box, ' I understand that everything of mine is deleted');
  const submit = element('button', 'danger', 'Delete my account');
  submit.type = 'submit';
  submit.id = 'account-delete-submit';
  const status = element('p', 'status');
  status.id = 'account-delete-status';
  status.setAttribute('role', 'status');
  form.append(note, ...(signIn.part ? [signIn.part] : []), password.label, code.label, confirm, submit, status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    status.classList.remove('is-error');
    status.textContent = 'Deleting…';
    const body = password.label.hidden ? {} : { password: password.input.value };
    if (!code.label.hidden && code.input.value.trim()) body.code = code.input.value.trim();
    try {
      await api('/api/v1/account', jsonRequest('DELETE', body));
      status.textContent = 'Your account is deleted.';
      window.location.replace('/');
    } catch (error) {
      if (/code/.test(error.message)) code.label.hidden = false;
      if (/sign in again/.test(error.message)) password.label.hidden = false; // the sign-in is too old now
      status.textContent = error.message;
      status.classList.add('is-error');
      submit.disabled = false;
    }
  });
  return form;
}
