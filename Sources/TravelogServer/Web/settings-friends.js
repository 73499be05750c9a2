// The Friends part of the Settings view: invite a user of this server by name (POST
// /api/v1/friends), the invitations received with Accept and Decline, those sent (Withdraw), and
// the friends, each with "Share my history" (PUT /api/v1/friends/{name}/history) and Remove after
// an inline confirm (DELETE /api/v1/friends/{name}). Friends' markers are drawn by friends.js.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { count } from './format.js';
import { refreshFriends } from './friends.js';

/** Draws the invitation form and the list into `container`. */
export async function renderFriends(container, said = '') {
  const form = element('form', 'settings-wrap');
  form.id = 'friend-invite';
  const input = element('input');
  input.id = 'friend-name';
  input.name = 'name';
  input.required = true;
  input.maxLength = 200;
  input.autocomplete = 'off';
  input.placeholder = 'user name';
  const label = element('label', null, 'Invite a user of this server: ');
  label.htmlFor = input.id;
  const submit = element('button', null, 'Invite');
  submit.type = 'submit';
  form.append(label, input, ' ', submit);
  const note = element('p', 'muted');
  note.id = 'friends-note';
  note.setAttribute('role', 'status');
  const list = element('ol', 'settings-list');
  list.id = 'friends-list';
  container.replaceChildren(form, note, list);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    try {
      const made = await api('/api/v1/friends', jsonRequest('POST', { name: input.value.trim() }));
      await renderFriends(container, made.state === 'friend' ? `${made.name} had invited you: you are friends now.`
        : `Invited ${made.name}: once they accept, each of you sees the other on the map.`);
    } catch (error) {
      note.textContent = error.message;
      note.classList.add('error');
      submit.disabled = false;
    }
  });
  try {
    const entries = await api('/api/v1/friends');
    const friendCount = entries.filter((entry) => entry.state === 'friend').length;
    note.textContent = said || (entries.length === 0
      ? 'No friends yet. Friends see your latest position (never inside your privacy zones), and your history only if you share it.'
      : `${count(friendCount, 'friend')}. They see your latest position (never inside your privacy zones), and your history only where you share it.`);
    list.replaceChildren(...entries.map((entry) => friendItem(container, entry)));
  } catch (error) {
    note.textContent = `The friends could not be loaded: ${error.message}`;
  }
}

function button(className, text) {
  const node = element('button', className, text);
  node.type = 'button';
  return node;
}

function friendItem(container, entry) {
  const row = element('li', 'settings-wrap friend-item');
  row.dataset.friend = entry.name;
  row.dataset.state = entry.state;
  const name = element('strong', null, entry.name);
  const act = async (request, said, control) => {
    control.disabled = true;
    try {
      await request();
      refreshFriends();
      await renderFriends(container, said);
    } catch (error) {
      row.append(element('span', 'error', ` ${error.message}`));
      control.disabled = false;
    }
  };
  const path = `/api/v1/friends/${encodeURIComponent(entry.name)}`;
  if (entry.state === 'invitedYou') {
    const accept = button('friend-accept', 'Accept');
    const decline = button('friend-decline', 'Decline');
    accept.addEventListener('click', () => act(() => api(`${path}/accept`, { method: 'POST' }),
      `You and ${entry.name} are friends: each sees the other on the map.`, accept));
    decline.addEventListener('click', () => act(() => api(`${path}/decline`, { method: 'POST' }),
      `Declined ${entry.name}'s invitation.`, decline));
    row.append(name, ' invites you to be friends ', accept, ' ', decline);
    return row;
  }
  if (entry.state === 'invited') {
    const withdraw = button('friend-withdraw', 'Withdraw');
    withdraw.addEventListener('click', () => act(() => api(path, { method: 'DELETE' }), `Withdrew the invitation to ${entry.name}.`, withdraw));
    row.append(name, ' invited, waiting for an answer ', withdraw);
    return row;
  }
  const toggle = element('input', 'friend-history');
  toggle.type = 'checkbox';
  toggle.id = `friend-history-${entry.name}`;
  toggle.checked = entry.sharesMyHistory;
  const toggleLabel = element('label', null, ' Share my history');
  toggleLabel.prepend(toggle);
  toggle.addEventListener('change', () => act(() => api(`${path}/history`, jsonRequest('PUT', { shared: toggle.checked })),
    toggle.checked ? `${entry.name} may read your history now.` : `${entry.name} sees only your latest position now.`, toggle));
  const remove = button('friend-remove', 'Remove…');
  remove.setAttribute('aria-label', `Remove ${entry.name} from your friends`);
  const panel = element('div', 'friend-confirm');
  panel.hidden = true;
  panel.append(`End the friendship? Neither of you sees the other from now on. `);
  const confirm = button('danger friend-remove-confirm', 'Remove');
  const cancel = button('', 'Cancel');
  panel.append(confirm, ' ', cancel);
  remove.addEventListener('click', () => { panel.hidden = false; remove.hidden = true; });
  cancel.addEventListener('click', () => { panel.hidden = true; remove.hidden = false; });
  confirm.addEventListener('click', () => act(() => api(path, { method: 'DELETE' }), `${entry.name} is no longer your friend.`, confirm));
  const theirs = entry.sharesTheirHistory ? ' · shares their history with you' : '';
  row.append(name, theirs, ' ', toggleLabel, ' ', remove, panel);
  return row;
}
