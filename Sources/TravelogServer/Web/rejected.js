// Items the server could not store, with their reasons (GET /api/v1/rejected): what phone apps
// sent that was refused, listed in the Import section when it is opened, newest first, and in
// Settings (settings.js) where each can be dismissed.
import { api } from './api.js';
import { $, element } from './dom.js';
import { count, formatTime } from './format.js';

/** Items listed at most. */
const LIMIT = 50;

/** The newest refused items and their total: `{total, items}`. */
export function fetchRejected(limit = LIMIT) {
  return api(`/api/v1/rejected?limit=${limit}`);
}

/** A refused item as a list row: when, which device, which route, why. */
export function rejectedRow(item) {
  const row = element('li');
  const when = element('span', 'muted', `${formatTime(Date.parse(item.receivedAt), true)} · ${item.device || 'no device'} · ${item.route}: `);
  row.append(when, element('span', 'reason', item.reason));
  return row;
}

/** The sentence above the list. */
export function rejectedNote(answer) {
  return answer.total === 0 ? 'Nothing was refused.'
    : `${count(answer.total, 'item')} refused${answer.total > answer.items.length ? `, the newest ${answer.items.length} listed` : ''}:`;
}

export async function loadRejected() {
  const list = $('rejected');
  try {
    const answer = await fetchRejected();
    list.replaceChildren(...answer.items.map(rejectedRow));
    $('rejected-note').textContent = rejectedNote(answer);
  } catch (error) {
    if (error.status !== 401) $('rejected-note').textContent = `The refused items could not be loaded: ${error.message}`;
  }
}

export function bindRejected() {
  const section = $('section-import');
  section.addEventListener('toggle', () => { if (section.open) loadRejected(); });
  window.addEventListener('travelog:history-changed', () => { if (section.open) loadRejected(); });
}
