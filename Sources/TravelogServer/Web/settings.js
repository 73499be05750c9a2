// The Settings view (#settings): account, devices, notifications, rejected items, imports,
// preferences and, for an administrator, the server's users and data files. Shown instead of the
// map and its panel while the address ends in #settings.
import { renderDeviceSettings } from './settings-devices.js';

export { renderDeviceSettings };
