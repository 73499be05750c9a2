// The administrator's part of the Settings view: every user (add, disable or enable, make or
// revoke administrator, reset the password, delete with the name typed again), their devices,
// locations and storage, and the server's version, database and data files. Only shown to an
// administrator; the server refuses these routes to anyone else anyway.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { count, formatTime } from './format.js';
import { button, field } from './settings-fields.js';

/** Draws the administration part into `container`. */
export async function renderAdministration(container) {
  const users = element('ol', 'settings-list admin-users');
  users.id = 'admin-users';
  const status = element('p', 'status');
  status.id = 'admin-status';
  status.setAttribute('role', 'status');
  const server = element('div', 'admin-server');
  server.id = 'admin-server';
  container.replaceChildren(element('h4', null, 'Users'), users, status, element('h4', null, 'Add a user'),
    addUserForm(users, status), element('h4', null, 'Server'), server);
  await Promise.all([loadUsers(users, status), loadServer(server)]);
}

/** "1.2 MB". */
function bytes(value) {
  if (value === null || value === undefined) return '–';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let amount = value;
  let unit = 0;
  while (amount >= 1000 && unit < units.length - 1) { amount /= 1000; unit += 1; }
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(amount)} ${units[unit]}`;
}

async function loadUsers(list, status) {
  const users = await api('/api/v1/admin/users');
  list.replaceChildren(...users.map((user) => userRow(user, () => loadUsers(list, status), status)));
}

function userRow(user, reload, status) {
  const row = element('li', 'admin-user');
  row.dataset.user = user.name;
  const flags = [user.administrator ? 'administrator' : null, user.disabled ? 'disabled' : null, user.canLogIn ? null : 'no password']
    .filter(Boolean);
  const name = element('strong', null, user.name);
  row.append(name);
  if (flags.length) row.append(element('span', 'admin-flags', ` ${flags.join(' · ')}`));
  row.append(element('span', 'muted admin-figures',
    `${count(user.devices, 'device')} · ${count(user.locations, 'location')} · about ${bytes(user.storageEstimateBytes)}`));
  const change = async (body, done) => {
    status.classList.remove('is-error');
    try {
      await api(`/api/v1/admin/users/${user.id}`, jsonRequest('PATCH', body));
      status.textContent = done;
      reload();
    } catch (error) {
      status.textContent = error.message;
      status.classList.add('is-error');
    }
  };
  const actions = element('div', 'actions');
  actions.append(
    button(user.disabled ? 'Enable' : 'Disable',
      () => change({ disabled: !user.disabled }, `${user.name} ${user.disabled ? 'enabled' : 'disabled'}.`)),
    button(user.administrator ? 'Revoke administrator' : 'Make administrator',
      () => change({ administrator: !user.administrator }, `${user.name} ${user.administrator ? 'is no longer' : 'is now'} an administrator.`)),
    button('Reset password', () => toggle(row, passwordForm(user, change))),
    button('Delete…', () => toggle(row, deleteForm(user, reload, status))));
  row.append(actions);
  return row;
}

/** Shows `form` under the row's actions, or hides the one shown. */
function toggle(row, form) {
  const open = row.querySelector('form');
  if (open) open.remove();
  if (!open || open.className !== form.className) row.append(form);
}

function passwordForm(user, change) {
  const form = element('form', 'settings-form admin-password');
  const password = field(`New password for ${user.name}`, { type: 'password', autocomplete: 'new-password', required: '', minlength: '8' });
  const submit = element('button', null, 'Set password');
  submit.type = 'submit';
  form.append(password.label, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    change({ password: password.input.value }, `Password of ${user.name} set; their logins ended.`);
  });
  return form;
}

function deleteForm(user, reload, status) {
  const form = element('form', 'settings-form admin-delete');
  const confirm = field(`Deleting removes ${user.name} and all of their history. Type the name to confirm`,
    { autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', required: '' });
  const submit = element('button', 'danger', `Delete ${user.name}`);
  submit.type = 'submit';
  submit.disabled = true;
  confirm.input.addEventListener('input', () => { submit.disabled = confirm.input.value !== user.name; });
  form.append(confirm.label, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (confirm.input.value !== user.name) return;
    try {
      await api(`/api/v1/admin/users/${user.id}`, { method: 'DELETE' });
      status.textContent = `${user.name} deleted.`;
      reload();
    } catch (error) {
      status.textContent = error.message;
      status.classList.add('is-error');
    }
  });
  return form;
}

function addUserForm(list, status) {
  const form = element('form', 'settings-form');
  form.id = 'admin-add-user';
  const name = field('Name', { autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', required: '', id: 'admin-new-name' });
  const password = field('Password (8 characters or more)', { type: 'password', autocomplete: 'new-password', required: '', minlength: '8', id: 'admin-new-password' });
  const administrator = element('label', 'check');
  const box = element('input');
  box.type = 'checkbox';
  box.id = 'admin-new-administrator';
  administrator.append(box, ' Administrator');
  const submit = element('button', null, 'Add user');
  submit.type = 'submit';
  form.append(name.label, password.label, administrator, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.classList.remove('is-error');
    try {
      await api('/api/v1/admin/users', jsonRequest('POST', { name: name.input.value, password: password.input.value, administrator: box.checked }));
      status.textContent = `${name.input.value} added.`;
      form.reset();
      await loadUsers(list, status);
    } catch (error) {
      status.textContent = error.message;
      status.classList.add('is-error');
    }
  });
  return form;
}

async function loadServer(container) {
  const server = await api('/api/v1/admin/server');
  const facts = element('dl', 'admin-facts');
  const add = (term, value) => facts.append(element('dt', null, term), element('dd', 'settings-wrap', value));
  add('Version', server.version);
  add('Database', `${server.database.kind} · ${server.database.location} · ${bytes(server.database.sizeBytes)}`);
  add('Users', String(server.users));
  for (const file of server.dataFiles) {
    add(file.name, file.found
      ? `${file.path} · ${bytes(file.sizeBytes)} · ${file.modifiedAt ? formatTime(Date.parse(file.modifiedAt), true) : ''}`
      : `not found: ${file.make} makes it`);
  }
  container.replaceChildren(facts);
}
