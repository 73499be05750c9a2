// Single sign-on: when the server offers it (GET /api/v1/oidc), the login form gets a
// "Log in with <provider>" link to /api/v1/oidc/login, which sends the browser to the provider
// and, once back, sets the same session cookie as the password login.
import { $, element } from './dom.js';

async function offerSingleSignOn() {
  const form = $('login-form');
  if (!form) return;
  let offer;
  try {
    const answer = await fetch('/api/v1/oidc', { headers: { Accept: 'application/json' } });
    if (!answer.ok) return;
    offer = await answer.json();
  } catch (_) { return; }
  if (!offer.enabled || !offer.loginURL) return;
  const link = element('a', 'button sso', `Log in with ${offer.providerName || 'single sign-on'}`);
  link.id = 'login-sso';
  link.href = offer.loginURL;
  form.append(link);
}

offerSingleSignOn();
