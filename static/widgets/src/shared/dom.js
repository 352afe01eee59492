// Builds DOM without innerHTML (page and visitor text is always inserted as text) and styles a shadow
// root without style attributes or <style> elements, so a strict Content-Security-Policy allows it.

/** h('button', {type: 'button', onclick: fn}, 'Yes') → an element; `on*` props become listeners. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const key in props) {
    const value = props[key];
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (value != null && value !== false) el.setAttribute(key, value === true ? '' : value);
  }
  el.append(...children);
  return el;
}

/** Constructable stylesheets are not blocked by CSP style-src (Chrome 73, Firefox 101, Safari 16.4). */
export function adopt(root, css) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [sheet];
}

/** Puts `text` in a live region so screen readers announce it; errors are styled as such. */
export function say(region, text, isError) {
  region.textContent = text;
  region.classList.toggle('er', !!isError);
}
