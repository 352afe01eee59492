// The package's way in: a widget built by the same code as the served scripts, mounted into an element
// that the page (or its framework) owns, with options named as the data- attributes are in camelCase.

import { apiBase } from '../../../static/widgets/src/shared/config.js';
import { create } from '../../../static/widgets/src/shared/widget.js';

/**
 * mount(widget, element, options) → the widget's handle (reset, remove, setUser, container; open and
 * close for contact and feedback). Options take the data- attributes' values as strings, booleans or
 * numbers (`reasons: true`, `maxStars: 7`); `apiUrl` is required, since no script tag tells where
 * Hearken is. Unlike a script tag, a mounted widget publishes no global object.
 */
export function mount(widget, element, options) {
  if (!options?.apiUrl) throw new TypeError('Hearken: options.apiUrl (your Hearken address) is required');
  const data = {};
  for (const key in options) if (options[key] != null) data[key] = String(options[key]);
  return create(widget, data, apiBase(data.apiUrl), (host) => element.append(host));
}
