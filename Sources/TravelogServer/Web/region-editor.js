// Editing one of the user's regions on the page: its name and a circle's radius in a form in the
// region's row, the area moved by dragging its centre handle or by clicking the map where the
// centre should go, a polygon's corners dragged one by one. "Save" replaces the region through
// PUT /api/v1/regions/{id} (keeping its notify flags and beacon); "Cancel" leaves it as it was.
// A plain script that regions.js calls through window.TravelogRegionEditor.
//
// `#map[data-editing-region]` holds the id of the region being edited, for tests.
'use strict';

window.TravelogRegionEditor = (() => {
  /** The edit under way, or null: the region, its map, the edited geometry, the layers drawn. */
  let session = null;

  const style = { color: '#6a1b9a', weight: 2, dashArray: '6 4', fillOpacity: 0.2, className: 'region-editing' };

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A draggable square on the map (a div icon, so no marker image is needed). */
  function handle(map, latlng, className, label) {
    return L.marker(latlng, {
      draggable: true, keyboard: false, title: label, alt: label,
      icon: L.divIcon({ className: `region-handle ${className}`, iconSize: [14, 14] }),
    }).addTo(map);
  }

  /** The mean of a ring's corners: the point the centre handle sits on and moves. */
  function centroid(ring) {
    const sum = ring.reduce((total, point) => [total[0] + point.lat, total[1] + point.lng], [0, 0]);
    return L.latLng(sum[0] / ring.length, sum[1] / ring.length);
  }

  /**
   * Starts editing `region` (as GET /api/v1/regions gives it). `context` holds `map`, `api` (app.js's
   * JSON fetch), `row` (the region's list item, where the form goes), `status(message, isError)`,
   * `shape` (the region's drawn layer, hidden while editing), `renderer` (the regions' SVG renderer)
   * and `done()` (called after a save or a cancel, to redraw the regions).
   */
  function edit(region, context) {
    if (session) finish();
    const { map } = context;
    session = { region, context, handles: [] };
    context.shape.remove();
    if (region.circle) {
      session.center = L.latLng(region.circle.latitude, region.circle.longitude);
      session.radiusMeters = region.circle.radiusMeters;
      session.layer = L.circle(session.center, { ...style, renderer: context.renderer, radius: session.radiusMeters }).addTo(map);
    } else {
      // The API's rings are closed GeoJSON rings of [longitude, latitude]; edit their corners.
      session.rings = region.polygon.map((ring) => ring.slice(0, -1).map(([longitude, latitude]) => L.latLng(latitude, longitude)));
      session.layer = L.polygon(session.rings, { ...style, renderer: context.renderer }).addTo(map);
      session.rings[0].forEach((corner, index) => {
        const marker = handle(map, corner, 'region-corner', `Corner ${index + 1} of ${region.name}`);
        marker.on('drag', () => {
          session.rings[0][index] = marker.getLatLng();
          redraw();
        });
        session.handles.push(marker);
      });
    }
    session.centerHandle = handle(map, center(), 'region-center', `The centre of ${region.name}`);
    session.centerHandle.on('drag', () => moveTo(session.centerHandle.getLatLng()));
    session.onClick = (event) => moveTo(event.latlng);
    map.on('click', session.onClick);
    map.getContainer().dataset.editingRegion = String(region.id);
    map.getContainer().classList.add('placing-region');
    context.row.append(form(region));
    context.status(`Editing ${region.name}: drag its centre${region.circle ? '' : ' or its corners'}, or click the map where the centre goes.`);
  }

  /** The name field, a circle's radius field, Save and Cancel. */
  function form(region) {
    const editor = element('form', 'region-edit');
    const name = element('input', 'region-edit-name');
    name.value = region.name;
    name.maxLength = 100;
    name.required = true;
    name.setAttribute('aria-label', `A new name for ${region.name}`);
    editor.append(name);
    if (region.circle) {
      const radius = element('input', 'region-edit-radius');
      Object.assign(radius, { type: 'number', min: '10', max: '400000', step: '10', value: String(region.circle.radiusMeters) });
      radius.setAttribute('aria-label', `The radius of ${region.name} in meters`);
      radius.addEventListener('input', () => {
        const meters = Number(radius.value);
        if (meters > 0) {
          session.radiusMeters = meters;
          session.layer.setRadius(meters);
        }
      });
      editor.append(radius, element('span', 'muted', ' m'));
    }
    const save = element('button', 'region-save', 'Save');
    save.type = 'submit';
    const cancel = element('button', 'region-cancel', 'Cancel');
    cancel.type = 'button';
    cancel.addEventListener('click', () => {
      const { context } = session;
      finish();
      context.status('');
      context.done();
    });
    editor.addEventListener('submit', (event) => {
      event.preventDefault();
      saveAs(name.value.trim());
    });
    editor.append(' ', save, ' ', cancel);
    return editor;
  }

  function center() {
    return session.center || centroid(session.rings[0]);
  }

  /** Moves the whole area so that its centre is at `latlng` (a polygon keeps its shape). */
  function moveTo(latlng) {
    if (session.center) {
      session.center = latlng;
    } else {
      const from = centroid(session.rings[0]);
      const deltaLatitude = latlng.lat - from.lat;
      const deltaLongitude = latlng.lng - from.lng;
      session.rings = session.rings.map((ring) => ring.map((point) => L.latLng(point.lat + deltaLatitude, point.lng + deltaLongitude)));
      session.handles.forEach((marker, index) => marker.setLatLng(session.rings[0][index]));
    }
    redraw();
  }

  function redraw() {
    if (session.center) session.layer.setLatLng(session.center);
    else session.layer.setLatLngs(session.rings);
    const middle = center();
    if (!session.centerHandle.getLatLng().equals(middle)) session.centerHandle.setLatLng(middle);
  }

  /** The region as PUT takes it: the new name and area, the flags and beacon it had. */
  function body(name) {
    const { region } = session;
    const replacement = { name, notifyOnEntry: region.notifyOnEntry, notifyOnExit: region.notifyOnExit };
    if (region.beacon) replacement.beacon = region.beacon;
    if (session.center) {
      const middle = session.center.wrap();
      replacement.circle = { latitude: middle.lat, longitude: middle.lng, radiusMeters: session.radiusMeters };
    } else {
      replacement.polygon = session.rings.map((ring) => [...ring, ring[0]].map((point) => [point.lng, point.lat]));
    }
    return replacement;
  }

  async function saveAs(name) {
    const { region, context } = session;
    if (!name) return context.status('A region needs a name.', true);
    try {
      await context.api(`/api/v1/regions/${region.id}`, {
        method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body(name)),
      });
    } catch (error) {
      return context.status(`The region could not be saved: ${error.message}`, true);
    }
    finish();
    context.status(`Saved ${name}.`);
    context.done();
  }

  /** Ends the edit: its layers and form go, the map's clicks are the panel's again. */
  function finish() {
    if (!session) return;
    const { map } = session.context;
    map.off('click', session.onClick);
    session.layer.remove();
    session.centerHandle.remove();
    for (const marker of session.handles) marker.remove();
    const editor = session.context.row.querySelector('.region-edit');
    if (editor) editor.remove();
    delete map.getContainer().dataset.editingRegion;
    map.getContainer().classList.remove('placing-region');
    session = null;
  }

  return { edit, finish, active: () => session !== null };
})();
