// The Shares part of the Settings view: the person's share links (GET /api/v1/shares), newest
// first, with what each shows, its views, its expiry and its state, and Revoke for a working one
// (DELETE /api/v1/shares/{id}) after an inline confirm. Links are made with "Share this view".
import { api } from './api.js';
import { element } from './dom.js';
import { count, formatTime } from './format.js';

/** Draws the list of share links into `container`. */
export async function renderShares(container, said = '') {
  const list = element('ol', 'settings-list');
  list.id = 'shares-list';
  const note = element('p', 'muted');
  container.replaceChildren(note, list);
  try {
    const shares = await api('/api/v1/shares');
    note.textContent = said || (shares.length === 0 ? 'No share links yet: "Share this view" in the map\'s panel makes one.'
      : `${count(shares.length, 'share link')}, newest first:`);
    list.replaceChildren(...shares.map((share) => shareItem(container, share)));
  } catch (error) {
    note.textContent = `The share links could not be loaded: ${error.message}`;
  }
}

function shown(share) {
  if (share.kind === 'live') return `live position until ${formatTime(Date.parse(share.to), true)}`;
  return `${formatTime(Date.parse(share.from), true)} – ${formatTime(Date.parse(share.to), true)}`;
}

function shareItem(container, share) {
  const expiry = share.status === 'revoked' ? 'revoked'
    : share.status === 'expired' ? 'expired'
      : share.expiresAt ? `expires ${formatTime(Date.parse(share.expiresAt), true)}` : 'never expires';
  const row = element('li', 'settings-wrap share-item',
    `${share.title ? `${share.title}: ` : ''}${shown(share)} · ${count(share.views, 'view')} · ${expiry}`
    + `${share.hasPassword ? ' · password' : ''}${share.hideVisits ? ' · places hidden' : ''}${share.photos ? ' · photos' : ''} `);
  row.dataset.status = share.status;
  if (share.status !== 'active') return row;
  const revoke = element('button', 'share-revoke', 'Revoke…');
  revoke.type = 'button';
  const panel = element('div', 'share-confirm');
  panel.hidden = true;
  panel.append('Revoke this link? It stops working at once. ');
  const confirm = element('button', 'danger share-revoke-confirm', 'Revoke');
  confirm.type = 'button';
  const cancel = element('button', '', 'Cancel');
  cancel.type = 'button';
  panel.append(confirm, ' ', cancel);
  revoke.addEventListener('click', () => { panel.hidden = false; revoke.hidden = true; });
  cancel.addEventListener('click', () => { panel.hidden = true; revoke.hidden = false; });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      await api(`/api/v1/shares/${share.id}`, { method: 'DELETE' });
      await renderShares(container, 'Revoked: the link reads nothing any more.');
    } catch (error) {
      panel.append(element('span', 'error', ` ${error.message}`));
      confirm.disabled = false;
    }
  });
  row.append(revoke, panel);
  return row;
}
