// The launcher button and modal form of the contact and feedback widgets. The form lives in a native
// <dialog> opened with showModal(): it sits in the top layer above any page z-index, keeps focus
// inside, and gives focus back to the launcher when it closes (Escape, a click outside, or Close).

import { h, say } from './dom.js';
import { check } from './form.js';

const SVG = 'http://www.w3.org/2000/svg';

function icon() {
  const svg = document.createElementNS(SVG, 'svg');
  const path = document.createElementNS(SVG, 'path');
  svg.setAttribute('viewBox', '0 0 24 24');
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z');
  svg.append(path);
  return svg;
}

/**
 * modalForm(w, {label, title, fields, endpoint, body, done, position, extra, encode, cleared, top}) builds
 * the launcher (at data-button-position, else `position`) and the dialog, and returns {open, close, reset}.
 * `body(values)` is the JSON to send, unless `encode(body)` gives another payload; `done` the message
 * once stored; `extra` an element after the fields, `top` one before the form; `cleared()` runs when a
 * stored form is emptied.
 */
export function modalForm(w, { label, title, fields, endpoint, body, done, position, extra, encode, cleared, top }) {
  const { t, region } = w;
  const wanted = w.data.buttonPosition;
  const place = /^(bottom-right|right-side|icon-only)$/.test(wanted) ? wanted : position;
  const iconOnly = place === 'icon-only';
  const launcher = h(
    'button',
    { class: 'l ' + place, 'aria-haspopup': 'dialog', 'aria-label': iconOnly && label },
    iconOnly ? icon() : label,
  );
  const dismiss = h('button', { class: 'x', 'aria-label': t.close }, '×');
  // A field people never see or reach; bots that fill every field fill it. With the time the form was open
  // (a person needs more than a moment to write), the server judges spam, stored apart, never dropped.
  const trap = h('input', { name: 'website', class: 'hp', tabindex: -1, autocomplete: 'off', 'aria-hidden': 'true' });
  const form = h('form', { novalidate: true }, ...fields.map((f) => f.el), extra || '', trap, h('button', { class: 'p' }, t.send));
  const dialog = h(
    'dialog',
    { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 't' },
    h('div', { class: 'w' }, h('h2', { id: 't' }, title), dismiss, top || '', form, region, w.powered(true)),
  );
  let sent;
  let opened = Date.now();

  const open = () => {
    if (dialog.open || !dialog.isConnected) return;
    opened = Date.now();
    dialog.showModal();
    fields[0].control.focus();
  };
  const close = () => dialog.close();

  launcher.onclick = open;
  dismiss.onclick = close;
  dialog.onclick = (event) => {
    if (event.target === dialog) close(); // a click on the backdrop (a handler returning false would cancel the click)
  };
  dialog.onclose = () => {
    // A stored form starts afresh next time; an unsent one keeps what the visitor typed.
    if (sent) form.reset(), cleared?.();
    sent = form.hidden = false;
    say(region, '');
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const values = check(fields, t);
    const data = values && { ...body(values), website: trap.value || undefined, elapsed_ms: Date.now() - opened };
    if (data && (await w.send(endpoint, data, encode?.(data)))) {
      sent = form.hidden = true;
      dismiss.focus();
      say(region, done);
    }
  };
  w.root.append(launcher, dialog);
  return { open, close, reset: close };
}
