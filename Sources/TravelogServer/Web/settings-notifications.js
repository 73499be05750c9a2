// The Notifications part of the Settings view: the person's channels (a webhook with its signing
// secret, or an ntfy topic with an optional token), a test message, and the delivery log.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { formatTime } from './format.js';
import { field } from './settings-fields.js';

/** Draws the notifications part into `container`. */
export async function renderNotifications(container) {
  const channels = element('ol', 'settings-list');
  channels.id = 'channels';
  const log = element('ol', 'settings-list');
  log.id = 'deliveries';
  const status = element('p', 'status');
  status.id = 'notifications-status';
  status.setAttribute('role', 'status');
  const test = element('button', null, 'Send a test message');
  test.type = 'button';
  test.id = 'notifications-test';
  test.addEventListener('click', async () => {
    test.disabled = true;
    try {
      const deliveries = await api('/api/v1/notifications/test', { method: 'POST' });
      status.textContent = deliveries.length === 0 ? 'No channel to send to: add one first.'
        : deliveries.map((delivery) => `${delivery.type}: ${delivery.state}${delivery.lastResult ? ` (${delivery.lastResult})` : ''}`).join(' · ');
      await loadLog(log);
    } catch (error) {
      status.textContent = error.message;
    } finally {
      test.disabled = false;
    }
  });
  container.replaceChildren(element('h4', null, 'Channels'), channels, addForm(channels, status), test, status,
    element('h4', null, 'Delivery log'), log);
  await Promise.all([loadChannels(channels), loadLog(log)]);
}

async function loadChannels(list) {
  const channels = await api('/api/v1/notifications/channels');
  if (channels.length === 0) {
    list.replaceChildren(element('li', 'muted', 'No channel yet.'));
    return;
  }
  list.replaceChildren(...channels.map((channel) => {
    const row = element('li', 'settings-row');
    row.append(element('span', 'settings-wrap', `${channel.type} · ${channel.url}`));
    const remove = element('button', null, 'Remove');
    remove.type = 'button';
    remove.addEventListener('click', async () => {
      await api(`/api/v1/notifications/channels/${channel.id}`, { method: 'DELETE' });
      loadChannels(list);
    });
    row.append(remove);
    return row;
  }));
}

function addForm(list, status) {
  const form = element('form', 'settings-form');
  form.id = 'channel-form';
  const typeLabel = element('label', 'settings-field');
  const type = element('select');
  type.id = 'channel-type';
  for (const [value, text] of [['ntfy', 'ntfy topic'], ['webhook', 'Webhook (signed JSON POST)']]) {
    type.append(Object.assign(element('option', null, text), { value }));
  }
  typeLabel.append(element('span', null, 'Kind'), type);
  const url = field('Address (https://…)', { type: 'url', required: '', id: 'channel-url', placeholder: 'https://ntfy.sh/my-topic' });
  const secret = field('Access token (optional)', { type: 'password', autocomplete: 'new-password', id: 'channel-secret' });
  const secretName = secret.label.querySelector('span');
  type.addEventListener('change', () => {
    const webhook = type.value === 'webhook';
    secretName.textContent = webhook ? 'Signing secret (16 characters or more)' : 'Access token (optional)';
    secret.input.required = webhook;
  });
  const submit = element('button', null, 'Add channel');
  submit.type = 'submit';
  form.append(typeLabel, url.label, secret.label, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { type: type.value, url: url.input.value };
    if (secret.input.value) body[type.value === 'webhook' ? 'secret' : 'token'] = secret.input.value;
    try {
      await api('/api/v1/notifications/channels', jsonRequest('POST', body));
      form.reset();
      type.dispatchEvent(new Event('change'));
      status.textContent = 'Channel added.';
      await loadChannels(list);
    } catch (error) {
      status.textContent = error.message;
    }
  });
  return form;
}

async function loadLog(list) {
  const deliveries = await api('/api/v1/notifications/log?limit=20');
  if (deliveries.length === 0) {
    list.replaceChildren(element('li', 'muted', 'Nothing sent yet.'));
    return;
  }
  list.replaceChildren(...deliveries.map((delivery) => element('li', 'settings-wrap',
    `${formatTime(Date.parse(delivery.updatedAt), true)} · ${delivery.type} · ${delivery.title} · ${delivery.state}`
    + `${delivery.lastResult ? ` (${delivery.lastResult})` : ''}`)));
}
