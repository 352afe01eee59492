// Builds a widget in a shadow root from its settings and gives it its methods, the same for a script
// tag (script.js) and the npm package (mount): `remove()` takes it all away again.

import { color, flag, language } from './config.js';
import { h } from './dom.js';
import { sender } from './send.js';
import { COMMON, texts } from './strings.js';

const USER_ID = /^[\w-]{1,255}$/; // the rule for submitted_by: letters, digits, "_" and "-"

/**
 * create({name, global, strings, perPage, build}, data, base, place) → the widget's methods with
 * `container` (its element), `setUser(id, signature)` and `remove`; `place(element, signal)` puts the element on the
 * page (signal: aborted by remove, when a widget not yet placed never will be). `data` holds the
 * settings by their data-attribute names in camelCase (projectKey, textNotLikely); `build(w)` fills the
 * shadow root `w.root` and returns the widget's own methods. `strings` is a list of text tables
 * (strings.js) merged for the chosen language; textFooBar replaces the text foo_bar. `perPage(reset,
 * signal)` (nav.js) resets a widget that asks once per page when the page's path changes.
 */
export function create({ name, global, strings, perPage, build }, data, base, place) {
  if (!data.projectKey) throw 'no data-project-key';
  const t = texts([COMMON, ...strings], language(data.language, COMMON));
  for (const key in data) {
    const name = key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()); // textNotLikely: text_not_likely
    if (name.startsWith('text_')) t[name.slice(5)] = data[key];
  }
  const host = h('hearken-' + name);
  const root = host.attachShadow({ mode: 'open' });
  const region = h('p', { class: 'st', role: 'status' });
  const life = new AbortController(); // remove() aborts: listeners go, a widget not yet placed never is
  const w = {
    data,
    t,
    root,
    region,
    send: sender(base, data.projectKey, t, region),
    context: () => ({ path: location.pathname.slice(0, 2048), version: data.version, ...w.user }),
    /** Constructable stylesheets are not blocked by CSP style-src (Chrome 73, Firefox 101, Safari 16.4). */
    style(css, fallback, hex) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`${css}:host{--c:${color(hex, fallback)}}`);
      root.adoptedStyleSheets = [sheet];
    },
    powered: (shown) => (flag(data.showPoweredBy, shown) ? h('p', { class: 'pw' }, t.powered_by || 'Powered by Hearken') : ''),
  };
  const api = build(w);
  api.container = host;
  // setUser(id, signature): the signature is the site's backend's HMAC of the id (docs/widgets.md)
  api.setUser = (id, signature) => {
    const valid = !id || USER_ID.test(id); // an invalid id changes nothing: the answer false says so
    if (valid) w.user = id && { submitted_by: String(id), user_signature: signature };
    return valid;
  };
  api.remove = () => {
    life.abort();
    host.remove(); // its shadow root goes with it, and every listener inside
    if (window[global] === api) delete window[global];
  };
  perPage?.(api.reset, life.signal);
  place(host, life.signal);
  return api;
}
