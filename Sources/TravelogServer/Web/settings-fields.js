// Form pieces the Settings view's parts share.
import { element } from './dom.js';

/** A labelled input: `{label, input}`. */
export function field(labelText, attributes) {
  const label = element('label', 'settings-field');
  const input = element('input');
  for (const [name, value] of Object.entries(attributes)) input.setAttribute(name, value);
  label.append(element('span', null, labelText), input);
  return { label, input };
}

/** A button that does not submit a form. */
export function button(text, onClick, id) {
  const node = element('button', null, text);
  node.type = 'button';
  if (id) node.id = id;
  if (onClick) node.addEventListener('click', onClick);
  return node;
}
