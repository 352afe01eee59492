// Boots a widget: reads its <script> tag, builds it in a shadow root, places it on the page and
// publishes its global object. Every failure is caught and logged: a widget must never break the page.

import { apiBase, flag, language } from './config.js';
import { adopt, h } from './dom.js';
import { sender } from './send.js';
import { COMMON } from './strings.js';

const USER_ID = /^[\w-]{1,255}$/; // the rule for submitted_by: letters, digits, "_" and "-"

/**
 * start({name, global, strings, floating}, build): `build(w)` fills the shadow root `w.root` and
 * returns the widget's methods; start adds `container` and `setUser` and sets `window[global]`.
 * `strings` is a list of tables ({en, de, sv}) merged for the chosen language.
 */
export function start({ name, global, strings, floating }, build) {
  try {
    const script = document.currentScript || document.querySelector(`script[src*="widgets/v1/${name}"]`);
    const data = script ? script.dataset : {};
    if (!data.projectKey) return console.warn('Hearken: data-project-key is missing');
    const lang = language(data.language);
    const t = Object.assign({}, ...[COMMON, ...strings].map((table) => table[lang]));
    const host = h('hearken-' + name);
    const root = host.attachShadow({ mode: 'open' });
    const region = h('p', { class: 'st', role: 'status' });
    const w = {
      data,
      t,
      root,
      region,
      send: sender(apiBase(data.apiUrl, script), t, region),
      context: () => ({ path: location.pathname.slice(0, 2048), version: data.version || undefined, submitted_by: w.user }),
      style: (css, hex) => adopt(root, `${css}:host{--c:${hex}}`),
      powered: (shown) => (flag(data.showPoweredBy, shown) ? h('p', { class: 'pw' }, t.powered) : ''),
    };
    const api = build(w);
    api.container = host;
    api.setUser = (id) => {
      const valid = !id || USER_ID.test(id);
      if (valid) w.user = id ? String(id) : undefined;
      else console.warn('Hearken: setUser ignored an invalid id');
      return valid;
    };
    window[global] = api;
    place(host, script, data.container, floating);
  } catch (error) {
    console.warn('Hearken:', error);
  }
}

/** Into data-container, else right after the script tag (inline widgets), else at the end of <body>. */
function place(host, script, selector, floating) {
  const inline = !selector && !floating && script?.parentNode && !script.closest('head');
  const put = () => {
    const target = selector ? document.querySelector(selector) : inline ? script.parentNode : document.body;
    target?.insertBefore(host, inline ? script.nextSibling : null);
    return target;
  };
  if (!put()) {
    document.addEventListener('DOMContentLoaded', () => put() || console.warn('Hearken: no element for', selector));
  }
}
