// Settings → Retention: how long the history is kept (GET/PUT /api/v1/account/retention), what a
// run would delete now (…/preview) and "Delete now" after an inline confirm (POST …/run). The
// server deletes what is older than the period once a day by itself.
import { api, jsonRequest } from './api.js';
import { element } from './dom.js';
import { count, formatTime } from './format.js';
import { button, field } from './settings-fields.js';

const UNITS = [['d', 'days'], ['w', 'weeks'], ['y', 'years']];

export async function renderRetention(content, said = '') {
  const note = element('p', 'muted');
  note.id = 'retention-state';
  content.replaceChildren(note);
  let setting;
  try {
    setting = await api('/api/v1/account/retention');
  } catch (error) {
    note.textContent = `Retention cannot be read: ${error.message}`;
    return;
  }
  note.textContent = said || describe(setting);
  content.append(form(content, setting), actions(content, setting));
}

function describe(setting) {
  const journal = setting.journal === 'delete' ? 'journal entries older than that are deleted too' : 'journal entries are kept';
  let text;
  if (setting.days === undefined || setting.days === null) {
    text = 'Everything is kept: no fix is ever deleted by age.';
  } else {
    const whose = setting.source === 'server' ? "the server's default" : 'your setting';
    text = `Fixes older than ${count(setting.days, 'day')} are deleted once a day (${whose}); ${journal}.`;
  }
  const run = setting.lastRun;
  return run ? `${text} Last run ${formatTime(run.ranAt, true)}: ${count(run.deletedFixes, 'fix', 'fixes')} and ${count(run.deletedVisits, 'journal entry', 'journal entries')} deleted.`
    : `${text} It has not run yet.`;
}

function select(labelText, id, options, chosen) {
  const label = element('label', 'settings-field');
  const input = element('select');
  input.id = id;
  for (const [value, text] of options) {
    const option = element('option', null, text);
    option.value = value;
    option.selected = value === chosen;
    input.append(option);
  }
  label.append(element('span', null, labelText), input);
  return { label, input };
}

function form(content, setting) {
  const node = element('form', 'settings-form retention-form');
  node.id = 'retention-form';
  const kinds = [['off', 'Keep everything'], ['period', 'Delete fixes older than…']];
  if (setting.serverDefault !== 'off') kinds.push(['default', `The server's default (${setting.serverDefault})`]);
  const chosenKind = setting.source === 'server' ? 'default' : (setting.days ? 'period' : 'off');
  const kind = select('Retention', 'retention-kind', kinds, chosenKind);
  const days = setting.days || 365;
  const [amountValue, unitValue] = days % 365 === 0 ? [days / 365, 'y'] : (days % 7 === 0 ? [days / 7, 'w'] : [days, 'd']);
  const amount = field('Older than', { type: 'number', min: '1', max: '36500', step: '1', required: '', id: 'retention-amount', value: String(amountValue) });
  const unit = select('Unit', 'retention-unit', UNITS, unitValue);
  const journal = select('Journal entries older than that', 'retention-journal',
    [['keep', 'Keep them'], ['delete', 'Delete them too']], setting.journal);
  const save = element('button', null, 'Save');
  save.type = 'submit';
  save.id = 'retention-save';
  const error = element('p', 'error');
  const shown = () => {
    const period = kind.input.value === 'period';
    amount.label.hidden = !period;
    unit.label.hidden = !period;
    journal.label.hidden = kind.input.value !== 'period';
  };
  kind.input.addEventListener('change', shown);
  shown();
  node.append(kind.label, amount.label, unit.label, journal.label, save, error);
  node.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = kind.input.value === 'period'
      ? { period: `${amount.input.value}${unit.input.value}`, journal: journal.input.value }
      : { period: kind.input.value };
    save.disabled = true;
    try {
      const saved = await api('/api/v1/account/retention', jsonRequest('PUT', body));
      await renderRetention(content, `Saved. ${describe(saved)}`);
    } catch (failure) {
      error.textContent = failure.message;
      save.disabled = false;
    }
  });
  return node;
}

function actions(content, setting) {
  const node = element('div', 'retention-actions');
  const result = element('div', 'retention-preview');
  result.id = 'retention-preview-result';
  const preview = button('Preview', async () => {
    preview.disabled = true;
    try {
      showPreview(result, await api('/api/v1/account/retention/preview'));
    } catch (error) {
      result.replaceChildren(element('p', 'error', error.message));
    }
    preview.disabled = false;
  }, 'retention-preview');
  const run = button('Delete now…', () => { confirm.hidden = false; run.hidden = true; }, 'retention-run');
  run.disabled = !setting.days;
  const confirm = element('div', 'retention-confirm');
  confirm.hidden = true;
  confirm.append('Delete every fix older than the saved period now? This cannot be undone. ');
  const yes = button('Delete', async () => {
    yes.disabled = true;
    try {
      const done = await api('/api/v1/account/retention/run', { method: 'POST' });
      await renderRetention(content, `Deleted ${count(done.deletedFixes, 'fix', 'fixes')} before ${formatTime(done.cutoff, true)}`
        + ` and ${count(done.deletedVisits, 'journal entry', 'journal entries')}.`);
    } catch (error) {
      confirm.append(element('span', 'error', ` ${error.message}`));
      yes.disabled = false;
    }
  }, 'retention-run-confirm');
  yes.className = 'danger';
  const cancel = button('Cancel', () => { confirm.hidden = true; run.hidden = false; });
  confirm.append(yes, ' ', cancel);
  node.append(preview, ' ', run, confirm, result);
  return node;
}

function showPreview(result, preview) {
  if (!preview.cutoff) {
    result.replaceChildren(element('p', null, 'Retention is off: nothing would be deleted.'));
    return;
  }
  const head = element('p', null, `${count(preview.fixes, 'fix', 'fixes')} before ${formatTime(preview.cutoff, true)} would be deleted.`);
  const list = element('ul', 'settings-list');
  for (const device of preview.devices) {
    list.append(element('li', null, `${device.device}: ${count(device.fixes, 'fix', 'fixes')}, ${formatTime(device.oldest, true)} to ${formatTime(device.newest, true)}`));
  }
  const journal = element('p', null, `${count(preview.journalEntries, 'journal entry', 'journal entries')} ended before then: `
    + (preview.journal === 'delete' ? 'they would be deleted.' : 'they are kept.'));
  result.replaceChildren(head, list, journal);
}
