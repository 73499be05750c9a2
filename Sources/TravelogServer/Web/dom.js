// Small DOM helpers shared by the page's modules.

export const $ = (id) => document.getElementById(id);

/** A tooltip's content as text: Leaflet reads a string as HTML, and names come from apps. */
export function textContent(text) {
  const span = document.createElement('span');
  span.textContent = String(text);
  return span;
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The status line under the dates. */
export function showStatus(message, isError) {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('is-error', Boolean(isError));
}
