// Starts a widget from its <script> tag: reads the data- attributes, places the widget and publishes
// its global object. Every failure is caught and logged: a widget must never break the page.

import { apiBase } from './config.js';
import { create } from './widget.js';

/** start(widget): `widget` as create() takes it, plus `floating` (placed at the end of <body>). */
export function start(widget) {
  try {
    // A classic script is always current while it runs, however it was put on the page.
    const script = document.currentScript;
    const data = script.dataset;
    window[widget.global] = create(widget, data, apiBase(data.apiUrl, script.src), (host, signal) =>
      place(host, script, data.container, widget.floating, signal),
    );
  } catch (error) {
    console.warn('Hearken:', error);
  }
}

/** Into data-container, else right after the script tag (inline widgets), else at the end of <body>. */
function place(host, script, selector, floating, signal) {
  const inline = !selector && !floating && !script.closest('head');
  const put = () => {
    const target = selector ? document.querySelector(selector) : inline ? script.parentNode : document.body;
    target?.insertBefore(host, inline ? script.nextSibling : null);
    return target;
  };
  if (!put()) {
    document.addEventListener('DOMContentLoaded', () => put() || console.warn('Hearken: no element for', selector), { signal });
  }
}
