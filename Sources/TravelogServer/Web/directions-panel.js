// The Directions panel's elements, built once into its section (directions.js gives them their
// behaviour): the title and close button, the mode radios (a fieldset of the radios alone: axe's
// radiogroup rule), From and To each with a combobox field, its suggestions' list and "Choose on the
// map", the swap button, and the places the route or the trip is described in.
import { element } from './dom.js';

export const MODES = [['driving', 'Driving'], ['walking', 'Walking'], ['cycling', 'Cycling']];
/** What each end is called: its field's label, and in sentences. */
export const ENDS = { from: { label: 'From', name: 'the start' }, to: { label: 'To', name: 'the destination' } };

/** One end's row: label, a field with its suggestions, "Choose on the map"; returns the row and
 * the parts search.js's `placeSuggestions` takes. */
function endRow(end) {
  const row = element('div', 'directions-end');
  const label = element('label', 'directions-end-label', ENDS[end].label);
  label.htmlFor = `directions-${end}-input`;
  const combobox = element('div', 'directions-combobox');
  combobox.id = `directions-${end}-combobox`;
  combobox.setAttribute('role', 'combobox');
  combobox.setAttribute('aria-haspopup', 'listbox');
  combobox.setAttribute('aria-owns', `directions-${end}-results`);
  combobox.setAttribute('aria-expanded', 'false');
  const input = element('input');
  input.id = `directions-${end}-input`;
  input.type = 'text';
  input.inputMode = 'search';
  input.maxLength = 200;
  input.placeholder = 'Search, or choose on the map';
  input.autocapitalize = 'none';
  input.spellcheck = false;
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', `directions-${end}-results`);
  input.setAttribute('aria-describedby', `directions-${end}-error`);
  combobox.append(input);
  const pick = element('button', 'directions-pick');
  pick.type = 'button';
  pick.id = `directions-${end}-pick`;
  pick.setAttribute('aria-pressed', 'false');
  pick.setAttribute('aria-label', `Choose ${ENDS[end].name} on the map`);
  pick.title = `Choose ${ENDS[end].name} on the map`;
  pick.append(element('span', 'directions-pick-icon'), element('span', 'directions-pick-text', 'Map'));
  pick.firstChild.setAttribute('aria-hidden', 'true');
  const suggestions = element('div', 'search-panel directions-suggestions');
  suggestions.id = `directions-${end}-panel`;
  suggestions.hidden = true;
  const list = element('ul', 'search-results');
  list.id = `directions-${end}-results`;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', `Places for ${ENDS[end].name}`);
  const footer = element('p', 'search-footer');
  footer.setAttribute('role', 'status');
  footer.hidden = true;
  suggestions.append(list, footer);
  const error = element('p', 'directions-end-error');
  error.id = `directions-${end}-error`;
  row.append(label, combobox, pick, suggestions, error);
  return { row, parts: { field: input, combobox, panel: suggestions, list, footer, container: row } };
}

/** Builds the panel into `box` (`mode`: the radio checked); returns each end's parts for its
 * suggestions ({from, to}). */
export function buildPanel(box, mode) {
  const head = element('div', 'directions-head');
  const title = element('h2', '', 'Directions');
  title.id = 'directions-title';
  const close = element('button', 'directions-close', '×');
  close.type = 'button';
  close.id = 'directions-close';
  close.setAttribute('aria-label', 'Close directions');
  head.append(title, close);

  const modes = element('fieldset', 'directions-modes');
  modes.id = 'directions-modes';
  modes.append(element('legend', 'visually-hidden', 'Travel mode'));
  for (const [value, text] of MODES) {
    const label = element('label', 'directions-mode');
    const radio = element('input');
    radio.type = 'radio';
    radio.name = 'directions-mode';
    radio.value = value;
    radio.checked = value === mode;
    label.append(radio, element('span', '', text));
    modes.append(label);
  }

  const ends = element('div', 'directions-ends');
  ends.id = 'directions-ends';
  const from = endRow('from'), to = endRow('to');
  const swap = element('button', 'directions-swap', '⇅');
  swap.type = 'button';
  swap.id = 'directions-swap';
  swap.setAttribute('aria-label', 'Swap start and destination');
  swap.title = 'Swap start and destination';
  ends.append(from.row, to.row, swap);

  const hint = element('p', 'directions-hint');
  hint.id = 'directions-hint';
  hint.setAttribute('role', 'status');
  const summary = element('div', 'directions-summary');
  summary.id = 'directions-summary';
  summary.setAttribute('aria-live', 'polite');
  const error = element('p', 'directions-error');
  error.id = 'directions-error';
  error.setAttribute('role', 'alert');
  const trip = element('p', 'directions-trip');
  trip.id = 'directions-trip';
  const roads = element('p', 'directions-roads');
  roads.id = 'directions-roads';
  const steps = element('ol', 'directions-steps');
  steps.id = 'directions-steps';
  steps.setAttribute('aria-label', 'Steps of the route');
  const credit = element('p', 'directions-credit muted');
  credit.id = 'directions-credit';
  credit.hidden = true;
  const link = element('a', '', '© OpenStreetMap contributors');
  link.href = 'https://www.openstreetmap.org/copyright';
  link.target = '_blank';
  link.rel = 'noopener';
  credit.append('Route data: ', link);
  box.replaceChildren(head, trip, modes, ends, hint, summary, error, roads, steps, credit);
  return { from: from.parts, to: to.parts };
}
