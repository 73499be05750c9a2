// The device filter: a switch per device of the user, in its colour; a hidden device's path,
// journal, statistics and locations are left out (the read routes take repeated `?device=NAME`).
import { api } from './api.js';
import { deviceColor } from './colors.js';
import { $, element } from './dom.js';
import { state, subscribe, update } from './state.js';

/** The user's devices, from the server (names only). */
export async function loadDevices() {
  try {
    const devices = await api('/api/v1/devices');
    const names = devices.map((device) => device.name).filter(Boolean);
    update({ devices: [...new Set([...state.devices, ...names])].sort() });
    return devices;
  } catch (error) {
    return [];
  }
}

function render(current) {
  const box = $('device-filter');
  box.replaceChildren();
  const shown = current.devices.filter((device) => !current.hiddenDevices.has(device));
  for (const device of current.devices) {
    const label = element('label', 'device-choice');
    const input = element('input');
    input.type = 'checkbox';
    input.checked = !current.hiddenDevices.has(device);
    input.dataset.device = device;
    // The last device shown stays shown: a filter that hides everything shows nothing useful.
    input.disabled = input.checked && shown.length === 1;
    input.addEventListener('change', () => {
      const hidden = new Set(state.hiddenDevices);
      if (input.checked) hidden.delete(device); else hidden.add(device);
      update({ hiddenDevices: hidden });
    });
    const swatch = element('span', 'device-swatch');
    swatch.style.setProperty('--swatch', deviceColor(device, current.devices));
    label.append(input, swatch, document.createTextNode(device));
    box.append(label);
  }
  $('devices-group').hidden = current.devices.length < 2;
}

export function bindDevices() {
  subscribe((current, changed) => { if ('devices' in changed || 'hiddenDevices' in changed) render(current); });
  render(state);
}
