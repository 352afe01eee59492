// Builds DOM without innerHTML (page and visitor text is always inserted as text) and without style
// attributes, so a strict Content-Security-Policy allows it.

/** h('button', {type: 'button', onclick: fn}, 'Yes') → an element; `on*` props set its handlers. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const key in props) {
    const value = props[key];
    if (key.startsWith('on')) el[key] = value;
    else if (value != null && value !== false) el.setAttribute(key, value); // true: a boolean attribute is there
  }
  el.append(...children);
  return el;
}

/** Puts `text` in a live region so screen readers announce it; errors are styled as such. */
export function say(region, text, isError) {
  region.textContent = text;
  region.classList.toggle('er', !!isError);
}
