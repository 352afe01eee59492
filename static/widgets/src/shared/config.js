// Reads a widget's settings from the data- attributes of its <script> tag.

/** data-language if `texts` has it, else the first browser language it has, else English. */
export const language = (wanted, texts) =>
  [wanted, ...navigator.languages].map((tag) => (tag + '').slice(0, 2).toLowerCase()).find((code) => texts[code]) || 'en';

/** A boolean attribute: absent is the default; present, it is on unless it says false, 0 or no. */
export const flag = (value, fallback) => (value == null ? fallback : !/^(false|0|no)$/i.test(value));

/** A #rgb or #rrggbb colour, or the fallback: the value is written into CSS text, so nothing else passes. */
export const color = (value, fallback) => (/^#([0-9a-f]{3}){1,2}$/i.test(value) ? value : fallback);

/** The API address: data-api-url, else the origin of `src` (the script's); a trailing / or /api/v1 is dropped. */
export const apiBase = (override, src) => (override || new URL(src).origin).replace(/\/(api\/v1)?\/*$/, '');
