// Reads a widget's settings from the data- attributes of its <script> tag.

/** data-language if supported, else the first supported browser language, else English. */
export const language = (wanted) =>
  [wanted, ...navigator.languages, 'en'].map((tag) => String(tag).slice(0, 2).toLowerCase()).find((code) => /^(en|de|sv)$/.test(code));

/** A boolean attribute: only the explicit opposite of the default ("true/1/yes" or "false/0/no") flips it. */
export const flag = (value, fallback) =>
  value == null ? fallback : fallback ? !/^(false|0|no)$/i.test(value) : /^(true|1|yes|)$/i.test(value);

/** A #rgb or #rrggbb colour, or the fallback: the value is written into CSS text, so nothing else passes. */
export const color = (value, fallback) => (/^#([0-9a-f]{3}){1,2}$/i.test(value) ? value : fallback);

/** The API address: data-api-url, else where the script came from; a trailing / or /api/v1 is dropped. */
export const apiBase = (override, script) =>
  (override || new URL(script.src).origin).replace(/\/(api\/v1)?\/*$/, '');
