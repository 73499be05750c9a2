// The login's second step: for a user with two-factor login on, the server answers the password
// with a 401 whose `secondFactor` is `totp`; the form then shows the code field (one-time-code
// autocomplete) and sends user, password and code together.
import { ApiError } from './api.js';
import { $ } from './dom.js';

/** POST /api/v1/session; resolves to the session, or to `{secondFactor, error}` when a code is needed or was wrong. */
export async function postLogin(body) {
  let response;
  try {
    response = await fetch('/api/v1/session', {
      method: 'POST', credentials: 'same-origin', body: JSON.stringify(body),
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Requested-With': 'fetch' },
    });
  } catch (_) {
    throw new ApiError(0, 'The server cannot be reached.');
  }
  let answer = null;
  try { answer = await response.json(); } catch (_) { /* not JSON */ }
  if (response.ok) return answer;
  if (response.status === 401 && answer && answer.secondFactor) return { secondFactor: answer.secondFactor, error: answer.error };
  throw new ApiError(response.status, (answer && answer.error) || `${response.status} ${response.statusText}`);
}

/** Whether the form is at its second step (the code is sent with the password). */
export function codeStepShown() {
  return !$('login-code').hidden;
}

/** Shows the code field, the password kept; `again`: a code was sent and refused. */
export function showCodeStep(again) {
  $('login-code-label').hidden = false;
  $('login-code').hidden = false;
  $('login-submit').textContent = 'Verify';
  $('login-error').textContent = again ? 'Wrong code, or one used already: type the code the app shows now.' : '';
  $('login-code').value = '';
  $('login-code').focus();
}

export function hideCodeStep() {
  $('login-code-label').hidden = true;
  $('login-code').hidden = true;
  $('login-code').value = '';
  $('login-submit').textContent = 'Log in';
}
