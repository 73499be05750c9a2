// Privacy zones on the owner's map: each zone drawn in its own style (dark grey, dotted, hatched by
// its fill; not the regions' purple), with its name and rule in a popup. Zones are made with the
// Regions panel's tools (region-editor's shapes: a circle placed by a click, a polygon by its
// corners) when "Make" says "Privacy zone"; after a drop zone over stored history the page asks
// whether to delete the fixes inside (DELETE /api/v1/zones/{id}/fixes). Listed and removed in
// Settings → Zones. A plain script that regions.js calls through window.TravelogZones.
//
// `#map[data-zone-count]` counts the zones drawn and `#map path.zone-<id>` is a zone's shape, for tests.
'use strict';

window.TravelogZones = (() => {
  let map = null;
  let api = null;
  let group = null;
  let renderer = null;

  const style = { color: '#37474f', weight: 2, dashArray: '2 5', fillColor: '#263238', fillOpacity: 0.35 };

  /** Draws the zones on `leafletMap`; `request` is app.js's JSON fetch. */
  function attach(leafletMap, request) {
    if (!map) {
      map = leafletMap;
      api = request;
      group = L.featureGroup().addTo(map);
      renderer = L.svg();
    }
    return reload();
  }

  async function reload() {
    if (!map) return;
    let zones;
    try {
      zones = await api('/api/v1/zones');
    } catch (error) {
      return;
    }
    group.clearLayers();
    for (const zone of zones) {
      const options = { ...style, className: `zone-shape zone-${zone.id} zone-${zone.rule}`, renderer };
      const shape = zone.circle
        ? L.circle([zone.circle.latitude, zone.circle.longitude], { ...options, radius: zone.circle.radiusMeters })
        : L.polygon(zone.polygon.map((ring) => ring.map(([longitude, latitude]) => [latitude, longitude])), options);
      const popup = document.createElement('div');
      const name = document.createElement('strong');
      name.textContent = zone.name;
      popup.append(name, document.createElement('br'),
        zone.rule === 'drop' ? 'Privacy zone: fixes here are not stored' : 'Privacy zone: hidden on share links');
      shape.bindPopup(popup).addTo(group);
    }
    map.getContainer().dataset.zoneCount = String(zones.length);
  }

  /**
   * Makes a zone of a shape the Regions panel drew (`{ circle }` or `{ polygon }`, as the API takes
   * them) with a rule (`hide` or `drop`); `status(message, isError)` reports. A drop zone over stored
   * fixes asks whether to delete them.
   */
  async function add(name, shape, rule, status) {
    let zone;
    try {
      zone = await api('/api/v1/zones', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, rule, ...shape }),
      });
    } catch (error) {
      status(`The privacy zone could not be added: ${error.message}`, true);
      return false;
    }
    let said = `Added the privacy zone ${name} (${rule === 'drop' ? 'not stored' : 'hidden on share links'}).`;
    const inside = zone.storedFixesInside || 0;
    if (inside > 0 && window.confirm(`${inside} stored fix${inside === 1 ? ' lies' : 'es lie'} inside ${name}. Delete them?`)) {
      try {
        const deleted = await api(`/api/v1/zones/${zone.id}/fixes`, { method: 'DELETE' });
        said += ` Deleted ${deleted.deleted} stored fix${deleted.deleted === 1 ? '' : 'es'} inside.`;
        // The map, the distance and the timeline read the history anew (dates.js).
        if (deleted.deleted > 0) window.dispatchEvent(new CustomEvent('travelog:history-changed'));
      } catch (error) {
        said += ` The fixes inside could not be deleted: ${error.message}`;
      }
    } else if (inside > 0) {
      said += ` Its ${inside} stored fix${inside === 1 ? ' is' : 'es are'} kept (never shown on share links).`;
    }
    status(said);
    await reload();
    return true;
  }

  return { attach, reload, add };
})();
