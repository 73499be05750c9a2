// Friends on the owner's map: each friend's devices at their latest position (GET
// /api/v1/friends/positions, asked again every few seconds while the map is shown), as a round
// badge with the friend's picture (their OwnTracks card's face) or initial and their name beside
// it, in orange: not the blue dot of the user's own position. The server applies the friend's
// privacy zones and ends a friendship at the next request; a friend gone from the answer is taken
// off the map. A click on the marker of a friend who shares their history draws their path over
// the days shown (GET /api/v1/friends/{name}/path, through their zones), dashed orange; a second
// click takes it off. Friends are invited and answered in Settings → Friends.
//
// For tests: `#map[data-friend-count]` counts the markers, and each one's element is
// `.friend-marker[data-friend=NAME][data-device=DEVICE][data-position="lat,lon"]`;
// `#map[data-friend-path]` names the friend whose path is drawn and `[data-friend-path-points]` counts its points.
import { api, timeZone } from './api.js';
import { formatTime } from './format.js';
import { state } from './state.js';

/** How often the positions are asked for again (see docs/ARCHITECTURE.md for why a poll). */
const POLL_MILLISECONDS = 4000;

const friends = { map: null, group: null, markers: new Map(), timer: null, running: false, path: null, pathName: null, sharing: new Set() };

/** Starts drawing the friends on `map` and keeps them current until `stopFriends`. */
export function startFriends(map) {
  friends.map = map;
  if (!friends.group) friends.group = L.featureGroup().addTo(map);
  if (friends.running) return;
  friends.running = true;
  poll();
}

// Back to the page (another tab, another window, a phone woken): the positions at once, not at the next poll.
window.addEventListener('focus', refreshFriends);
document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshFriends(); });

export function stopFriends() {
  friends.running = false;
  window.clearTimeout(friends.timer);
  if (friends.group) friends.group.clearLayers();
  friends.markers.clear();
  hidePath();
}

/** Asks for the positions now (after Settings → Friends changed something). */
export function refreshFriends() {
  if (!friends.running) return;
  window.clearTimeout(friends.timer);
  poll();
}

async function poll() {
  try {
    // Not while the page is hidden: a tab left open in the background asks for nothing.
    if (!document.hidden) draw(await api('/api/v1/friends/positions'));
  } catch (_) { /* the markers shown stay until the next answer */ }
  if (friends.running) friends.timer = window.setTimeout(poll, POLL_MILLISECONDS);
}

function draw(list) {
  const seen = new Set();
  friends.sharing = new Set(list.filter((friend) => friend.sharesHistory).map((friend) => friend.name));
  // A friend who stopped sharing (or is no longer a friend): their path goes too.
  if (friends.pathName && !friends.sharing.has(friends.pathName)) hidePath();
  for (const friend of list) {
    for (const device of friend.devices) {
      const key = `${friend.name}\u0000${device.device}`;
      seen.add(key);
      const latlng = [device.latitude, device.longitude];
      const label = `${friend.name} (${device.device}), ${formatTime(Date.parse(device.time), true)}`
        + (typeof device.accuracy === 'number' ? `, within ${Math.round(device.accuracy)} m` : '')
        + (friend.sharesHistory ? ' · click: their path' : '');
      let marker = friends.markers.get(key);
      if (!marker) {
        marker = L.marker(latlng, { icon: icon(friend, device), keyboard: false, title: label, zIndexOffset: 500 });
        // Beside the marker, towards the map's wider side, and wrapped (friends.css): on a phone a
        // label above it ran off the screen.
        marker.bindTooltip(label, { direction: 'auto', offset: [14, 0], className: 'friend-tooltip' });
        marker.on('click', () => togglePath(friend.name));
        marker.addTo(friends.group);
        friends.markers.set(key, marker);
      } else {
        marker.setLatLng(latlng).setTooltipContent(label);
        if (marker.getElement()) marker.getElement().title = label;
      }
      const element = marker.getElement() && marker.getElement().querySelector('.friend-marker');
      if (element) element.dataset.position = `${device.latitude.toFixed(6)},${device.longitude.toFixed(6)}`;
    }
  }
  for (const [key, marker] of friends.markers) {
    if (!seen.has(key)) {
      marker.remove();
      friends.markers.delete(key);
    }
  }
  friends.map.getContainer().dataset.friendCount = String(friends.markers.size);
}

function hidePath() {
  if (friends.path) friends.path.remove();
  friends.path = null;
  friends.pathName = null;
  if (friends.map) {
    delete friends.map.getContainer().dataset.friendPath;
    delete friends.map.getContainer().dataset.friendPathPoints;
  }
}

/** Draws the friend's path over the days shown, or takes it off when it is drawn. */
async function togglePath(name) {
  const wasShown = friends.pathName === name;
  hidePath();
  if (wasShown || !friends.sharing.has(name) || !state.range) return;
  const query = new URLSearchParams({ from: state.range.from, to: state.range.to, timezone: timeZone,
    zoom: String(Math.round(friends.map.getZoom())) });
  let path;
  try {
    path = await api(`/api/v1/friends/${encodeURIComponent(name)}/path?${query}`);
  } catch (_) {
    return;
  }
  friends.path = L.geoJSON(path, { style: { color: '#ef6c00', weight: 3, dashArray: '6 6', opacity: 0.9 }, interactive: false })
    .addTo(friends.map);
  friends.pathName = name;
  const container = friends.map.getContainer();
  container.dataset.friendPath = name;
  container.dataset.friendPathPoints = String((path.properties && path.properties.pointCount) || 0);
}

/** A badge of the friend's picture (or initial) with their name beside it. */
function icon(friend, device) {
  const root = document.createElement('div');
  root.className = 'friend-marker';
  root.dataset.friend = friend.name;
  root.dataset.device = device.device;
  const badge = document.createElement('span');
  badge.className = 'friend-badge';
  if (friend.picture && /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/.test(friend.picture)) {
    const picture = document.createElement('img');
    picture.src = friend.picture;
    picture.alt = '';
    badge.append(picture);
  } else {
    badge.textContent = friend.name.slice(0, 1).toUpperCase();
  }
  const name = document.createElement('span');
  name.className = 'friend-name';
  name.textContent = friend.name;
  root.append(badge, name);
  return L.divIcon({ html: root, className: 'friend-icon', iconSize: [32, 32], iconAnchor: [16, 16] });
}
