// The Imports part of the Settings view: the files imported (on the page or with `travelog
// import`), newest first, with what each stored (GET /api/v1/imports), each of which may be
// discarded with the locations it stored (DELETE /api/v1/imports/{id}) after an inline confirm.
import { api } from './api.js';
import { element } from './dom.js';
import { count, formatTime } from './format.js';

/** Draws the list of imports into `container`. */
export async function renderImports(container, said = '') {
  const list = element('ol', 'settings-list');
  list.id = 'imports-list';
  const note = element('p', 'muted');
  container.replaceChildren(note, list);
  try {
    const imports = await api('/api/v1/imports?limit=200');
    note.textContent = said || (imports.length === 0 ? 'Nothing imported yet: the map\'s Import panel takes files.'
      : `${count(imports.length, 'import')}, newest first:`);
    list.replaceChildren(...imports.map((item) => importItem(container, item)));
  } catch (error) {
    note.textContent = `The imports could not be loaded: ${error.message}`;
  }
}

function importItem(container, item) {
  const row = element('li', 'settings-wrap',
    `${formatTime(Date.parse(item.importedAt), true)} · ${item.fileName} (${item.format}) → ${item.device || 'a removed device'}: `
    + `${count(item.inserted, 'new location')}, ${count(item.duplicates, 'known before', 'known before')}`
    + `${item.rejected ? `, ${count(item.rejected, 'record')} refused` : ''} `);
  const discard = element('button', 'import-discard', 'Discard…');
  discard.type = 'button';
  const panel = element('div', 'import-confirm');
  panel.hidden = true;
  panel.append(`Discard ${item.fileName} and the ${count(item.inserted, 'location')} it stored? `
    + 'Visits detected from them go too. ');
  const confirm = element('button', 'danger import-discard-confirm', 'Discard');
  confirm.type = 'button';
  const cancel = element('button', 'import-cancel', 'Cancel');
  cancel.type = 'button';
  panel.append(confirm, ' ', cancel);
  discard.addEventListener('click', () => { panel.hidden = false; discard.hidden = true; });
  cancel.addEventListener('click', () => { panel.hidden = true; discard.hidden = false; });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      await api(`/api/v1/imports/${item.id}`, { method: 'DELETE' });
      await renderImports(container, `Discarded ${item.fileName} and its ${count(item.inserted, 'location')}.`);
    } catch (error) {
      panel.append(element('span', 'error', ` ${error.message}`));
      confirm.disabled = false;
    }
  });
  row.append(discard, panel);
  return row;
}
