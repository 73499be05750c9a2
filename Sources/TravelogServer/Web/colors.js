// The page's colours, one table each: devices and transport modes. The map's lines, the legend,
// the timeline and the device filter all take their colour from here.

/** Twelve qualitative colours told apart with the common colour-vision deficiencies as far as
 * twelve can be: Okabe & Ito's eight (2008) without black, then Paul Tol's "muted" and "dark" ones
 * that differ most from them. A device's colour is its place among the user's devices (sorted by
 * name), so up to twelve devices never share one; the server's tiles and images draw the same
 * (RenderColor.devicePalette, HistoryIndexLoader.colorIndices). */
export const DEVICE_PALETTE = [
  '#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#332288',
  '#882255', '#117733', '#999933', '#AA4499', '#44AA99',
];

/** Colours of trips by transport mode: the map's dashed lines, the legend and the timeline. */
export const MODE_COLORS = {
  walking: '#009E73', running: '#E69F00', cycling: '#56B4E9',
  automotive: '#D55E00', airborne: '#CC79A7', unknown: '#666666',
};

export function modeColor(mode) {
  return MODE_COLORS[mode] || MODE_COLORS.unknown;
}

/** A device's colour: its place among `devices` (sorted names); past twelve, the palette repeats. */
export function deviceColor(device, devices) {
  const sorted = [...new Set([...devices, device])].sort();
  return DEVICE_PALETTE[sorted.indexOf(device) % DEVICE_PALETTE.length];
}
