// Where I have been: while the map's Explored layer (the fog of war, /api/v1/tiles/explored) is
// chosen, the figures of GET /api/v1/explore under the layer switch: the explored area, the
// countries shaded by the local days spent there, and the cities explored most.
// `#explore-figures[data-area]` holds the area in km² for tests.
import { api } from './api.js';
import { element } from './dom.js';

let shown = null;

function area(squareKilometers) {
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: squareKilometers < 10 ? 2 : 1 }).format(squareKilometers)} km²`;
}

/** The panel's content from the figures. */
function render(box, figures) {
  box.replaceChildren();
  box.dataset.area = String(figures.areaSquareKilometers);
  box.append(element('p', 'explore-total', `Explored ${area(figures.areaSquareKilometers)}: `
    + `${new Intl.NumberFormat().format(figures.cells)} cells of ${figures.cellSizeMeters} m`));
  const most = Math.max(1, ...figures.countries.map((country) => country.days));
  if (figures.countries.length > 0) {
    const list = element('ul', 'explore-countries');
    list.setAttribute('aria-label', 'Countries by local days spent there');
    for (const country of figures.countries) {
      const item = element('li', 'explore-country');
      // The darker, the more days: a scratch map as a list (the offline data has no country outlines).
      item.style.setProperty('--days', String(0.15 + 0.85 * (country.days / most)));
      item.append(element('span', 'explore-code', country.code),
        element('span', 'explore-name', country.name || ''),
        element('span', 'explore-days', `${country.days} ${country.days === 1 ? 'day' : 'days'}`),
        element('span', 'explore-area', area(country.areaSquareKilometers)));
      list.append(item);
    }
    box.append(list);
  }
  if (figures.cities.length > 0) {
    box.append(element('p', 'explore-cities muted', `Explored most: ${figures.cities.slice(0, 5)
      .map((city) => `${city.name} ${area(city.areaSquareKilometers)}`).join(', ')}`));
  }
}

async function show(fieldset) {
  if (!shown) {
    shown = element('div', 'explore-figures');
    shown.id = 'explore-figures';
    shown.setAttribute('aria-live', 'polite');
    fieldset.after(shown);
  }
  shown.hidden = false;
  shown.textContent = 'Measuring where you have been…';
  try {
    render(shown, await api('/api/v1/explore'));
  } catch (error) {
    shown.textContent = `Could not measure the explored area: ${error.message || error}`;
  }
}

/** Shows the figures whenever the Explored layer is chosen, hides them otherwise. */
export function bindExplore() {
  const fieldset = document.getElementById('layer-switch');
  if (!fieldset) return;
  const update = () => {
    const input = fieldset.querySelector('input[name=layer]:checked');
    if (input && input.value === 'explored') show(fieldset);
    else if (shown) shown.hidden = true;
  };
  for (const input of fieldset.querySelectorAll('input[name=layer]')) input.addEventListener('change', update);
  update();
}
