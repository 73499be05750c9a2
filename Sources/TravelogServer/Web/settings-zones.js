// The Zones part of the Settings view: the person's privacy zones (GET /api/v1/zones), oldest
// first, with their rule and area, and Remove (DELETE /api/v1/zones/{id}) after an inline confirm.
// Zones are made on the map with the Regions panel's tools ("Make: a privacy zone").
import { api } from './api.js';
import { element } from './dom.js';
import { count } from './format.js';

const RULES = { hide: 'hidden on share links', drop: 'not stored' };

/** Draws the list of zones into `container`. */
export async function renderZones(container, said = '') {
  const list = element('ol', 'settings-list');
  list.id = 'zones-list';
  const note = element('p', 'muted');
  container.replaceChildren(note, list);
  try {
    const zones = await api('/api/v1/zones');
    note.textContent = said || (zones.length === 0
      ? 'No privacy zones yet: draw one on the map with the Regions panel, choosing "Make: a privacy zone".'
      : `${count(zones.length, 'privacy zone')}: fixes inside a hide zone are never shown on share links; inside a drop zone they are not stored.`);
    list.replaceChildren(...zones.map((zone) => zoneItem(container, zone)));
  } catch (error) {
    note.textContent = `The zones could not be loaded: ${error.message}`;
  }
}

function area(zone) {
  if (zone.circle) return `circle of ${Math.round(zone.circle.radiusMeters)} m at ${zone.circle.latitude.toFixed(4)}, ${zone.circle.longitude.toFixed(4)}`;
  return `polygon of ${zone.polygon[0].length - 1} corners`;
}

function zoneItem(container, zone) {
  const row = element('li', 'settings-wrap zone-item', `${zone.name}: ${RULES[zone.rule] || zone.rule} · ${area(zone)} `);
  row.dataset.zoneId = String(zone.id);
  row.dataset.rule = zone.rule;
  const remove = element('button', 'zone-remove', 'Remove…');
  remove.type = 'button';
  remove.setAttribute('aria-label', `Remove the privacy zone ${zone.name}`);
  const panel = element('div', 'zone-confirm');
  panel.hidden = true;
  panel.append(zone.rule === 'drop' ? 'Remove this zone? Fixes there are stored again from now on. '
    : 'Remove this zone? Share links show the fixes there from now on. ');
  const confirm = element('button', 'danger zone-remove-confirm', 'Remove');
  confirm.type = 'button';
  const cancel = element('button', '', 'Cancel');
  cancel.type = 'button';
  panel.append(confirm, ' ', cancel);
  remove.addEventListener('click', () => { panel.hidden = false; remove.hidden = true; });
  cancel.addEventListener('click', () => { panel.hidden = true; remove.hidden = false; });
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    try {
      await api(`/api/v1/zones/${zone.id}`, { method: 'DELETE' });
      if (window.TravelogZones) window.TravelogZones.reload();
      await renderZones(container, `Removed ${zone.name}.`);
    } catch (error) {
      panel.append(element('span', 'error', ` ${error.message}`));
      confirm.disabled = false;
    }
  });
  row.append(remove, panel);
  return row;
}
