// Labelled form fields that carry their own error line, and the check that fills those lines.

import { h } from './dom.js';
import { fill } from './strings.js';

let count = 0;

/** A field: label, control and an error line that describes the control. rule: {min, max, re, bad}. */
export function field(label, control, rule) {
  const id = 'f' + ++count;
  const error = h('span', { class: 'fe', id: id + 'e' });
  control.id = id;
  control.setAttribute('aria-describedby', error.id);
  return { el: h('div', {}, h('label', { for: id }, label), control, error), control, error, rule };
}

/**
 * Checks each field against its rule (min 0 = optional); writes each error beside its field, focuses
 * the first invalid field and returns the trimmed values, or nothing when a field is invalid.
 */
export function check(fields, t) {
  let first;
  for (const { control, error, rule } of fields) {
    const value = control.value.trim();
    const message = !value
      ? rule.min ? t.required : ''
      : value.length < rule.min
        ? fill(t.too_short, rule.min)
        : value.length > rule.max
          ? fill(t.too_long, rule.max)
          : rule.re && !rule.re.test(value)
            ? rule.bad
            : '';
    error.textContent = message;
    control.setAttribute('aria-invalid', !!message);
    first = first || (message && control);
  }
  if (first) return first.focus();
  return fields.map(({ control }) => control.value.trim());
}
