// Boots a widget: reads its <script> tag, builds it in a shadow root, places it on the page and
// publishes its global object, which can take it all away again (remove). Every failure is caught and
// logged: a widget must never break the page.

import { apiBase, flag, language } from './config.js';
import { h } from './dom.js';
import { sender } from './send.js';
import { COMMON, texts } from './strings.js';

const USER_ID = /^[\w-]{1,255}$/; // the rule for submitted_by: letters, digits, "_" and "-"

/**
 * start({name, global, strings, floating}, build): `build(w)` fills the shadow root `w.root` and
 * returns the widget's methods; start adds `container`, `setUser` and `remove` and sets `window[global]`.
 * `strings` is a list of text tables (strings.js) merged for the chosen language; a data-text-<name>
 * attribute replaces the text <name> (data-text-not-likely replaces not_likely).
 */
export function start({ name, global, strings, floating }, build) {
  try {
    // A classic script is always current while it runs, however it was put on the page.
    const script = document.currentScript;
    const data = script.dataset;
    if (!data.projectKey) return console.warn('Hearken: data-project-key is missing');
    const t = texts([COMMON, ...strings], language(data.language, COMMON));
    for (const key in data) {
      const name = key.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()); // data-text-not-likely: text_not_likely
      if (name.startsWith('text_')) t[name.slice(5)] = data[key];
    }
    const host = h('hearken-' + name);
    const root = host.attachShadow({ mode: 'open' });
    const region = h('p', { class: 'st', role: 'status' });
    const placing = new AbortController(); // a page still loading may call remove() before the widget is placed
    const w = {
      data,
      t,
      root,
      region,
      send: sender(apiBase(data.apiUrl, script), data.projectKey, t, region),
      context: () => ({ path: location.pathname.slice(0, 2048), version: data.version, submitted_by: w.user }),
      /** Constructable stylesheets are not blocked by CSP style-src (Chrome 73, Firefox 101, Safari 16.4). */
      style(css, hex) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(`${css}:host{--c:${hex}}`);
        root.adoptedStyleSheets = [sheet];
      },
      powered: (shown) => (flag(data.showPoweredBy, shown) ? h('p', { class: 'pw' }, t.powered_by || 'Powered by Hearken') : ''),
    };
    const api = build(w);
    api.container = host;
    api.setUser = (id) => {
      const valid = !id || USER_ID.test(id); // an invalid id changes nothing: the answer false says so
      if (valid) w.user = id ? String(id) : undefined;
      return valid;
    };
    api.remove = () => {
      placing.abort();
      host.remove(); // its shadow root goes with it, and every listener inside
      if (window[global] === api) delete window[global];
    };
    window[global] = api;
    place(host, script, data.container, floating, placing.signal);
  } catch (error) {
    console.warn('Hearken:', error);
  }
}

/** Into data-container, else right after the script tag (inline widgets), else at the end of <body>. */
function place(host, script, selector, floating, signal) {
  const inline = !selector && !floating && script.parentNode && !script.closest('head');
  const put = () => {
    const target = selector ? document.querySelector(selector) : inline ? script.parentNode : document.body;
    target?.insertBefore(host, inline ? script.nextSibling : null);
    return target;
  };
  if (!put()) {
    document.addEventListener('DOMContentLoaded', () => put() || console.warn('Hearken: no element for', selector), { signal });
  }
}
