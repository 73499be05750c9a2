// The Devices part of the Settings view: each device with its last report, battery and app; add one
// with a QR code and a setup link per app; rename, rotate the token, remove.

/** Draws the devices part into `container` (an element of the Settings view). */
export async function renderDeviceSettings(container) {
  container.textContent = '';
}
