// The Imports part of the Settings view: the files imported (on the page or with `travelog
// import`), newest first, with what each stored (GET /api/v1/imports).
import { api } from './api.js';
import { element } from './dom.js';
import { count, formatTime } from './format.js';

/** Draws the list of imports into `container`. */
export async function renderImports(container) {
  const list = element('ol', 'settings-list');
  list.id = 'imports-list';
  const note = element('p', 'muted');
  container.replaceChildren(note, list);
  try {
    const imports = await api('/api/v1/imports?limit=200');
    note.textContent = imports.length === 0 ? 'Nothing imported yet: the map\'s Import panel takes files.'
      : `${count(imports.length, 'import')}, newest first:`;
    list.replaceChildren(...imports.map((item) => element('li', 'settings-wrap',
      `${formatTime(Date.parse(item.importedAt), true)} · ${item.fileName} (${item.format}) → ${item.device || 'a removed device'}: `
      + `${count(item.inserted, 'new location')}, ${count(item.duplicates, 'known before', 'known before')}`
      + `${item.rejected ? `, ${count(item.rejected, 'record')} refused` : ''}`)));
  } catch (error) {
    note.textContent = `The imports could not be loaded: ${error.message}`;
  }
}
