// The survey loader's work, the same for the script tag (survey.js) and the npm package: it fetches the
// project's active surveys once, watches each trigger (pages, event, time on page, scroll), samples the
// audience, keeps the cooldown, and when a survey is due loads the renderer, which fetches the survey's
// questions. Nothing more is fetched before a trigger matches, so a page pays for the renderer only when
// it shows a survey.

const DAY_MS = 864e5;

/** A page glob as a RegExp: `*` stays within one path segment, `**` crosses them, the rest is itself. */
const glob = (pattern) =>
  RegExp(
    '^' +
      pattern
        .split(/(\*\*?)/)
        .map((part, i) => (i % 2 ? (part[1] ? '.*' : '[^/]*') : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join('') +
      '$',
  );
const anyMatch = (globs, path) => globs?.some((pattern) => glob(pattern).test(path));

/**
 * surveys({key, base, lang, place}, load) → {track, survey: {show, remove, setUser}}. `place(host)` puts an
 * inline survey on the page; `load()` resolves to the renderer (survey-form.js's render).
 *
 * What the visitor did is kept per project in localStorage under `hearken-survey-<key>`: `u`, the time
 * until which no survey of the project shows (the cooldown of the last one answered or closed), and per
 * survey a number drawn once in [0, 100): the visitor is in its sample while it is below sample_percent.
 * An answered or closed survey gets 101, which no sample reaches: never again.
 */
export function surveys(o, load) {
  const lang = (o.lang || navigator.language || 'en').slice(0, 2).toLowerCase();
  const name = 'hearken-survey-' + o.key;
  const tracked = {};
  let list = [];
  let path = location.pathname;
  let since = 0; // performance.now() of the last page change: 0 is the page load
  let seen = 0; // the deepest point of the page seen, in percent of its height
  let user;
  let open; // the survey on screen: its renderer's handle (1 while it loads); set for good by remove()
  const read = () => {
    try {
      return JSON.parse(localStorage[name]) || {};
    } catch {
      return {};
    }
  };
  const write = (value) => {
    try {
      localStorage[name] = JSON.stringify(value);
    } catch {} // storage refused (a private window, a full quota): the survey may show again
  };

  /** Audience and storage: sampled in, not in a cooldown, not done, verified and language as asked. */
  const allowed = ({ id, audience }) => {
    const a = audience || {};
    const stored = read();
    if (!(id in stored)) (stored[id] = Math.random() * 100), write(stored);
    return (
      stored[id] < (a.sample_percent || 100) &&
      !(stored.u > Date.now()) &&
      !(a.verified_only && !user?.user_signature) &&
      !(a.languages?.length && !a.languages.some((code) => code.slice(0, 2) == lang))
    );
  };

  /** Every condition the trigger gives holds (a missing number compares false); a trigger of only a
   * lifecycle event belongs to the links sent by the customer's backend, never to the page. */
  const due = ({ trigger }, t = trigger || {}) =>
    !anyMatch(t.exclude_pages, path) &&
    (!t.pages?.length || anyMatch(t.pages, path)) &&
    (!t.event || tracked[t.event]) &&
    !(performance.now() - since < t.seconds_on_page * 1000) &&
    !(seen < t.scroll_percent) &&
    (!t.lifecycle_event || t.pages?.length || t.event || t.seconds_on_page != null || t.scroll_percent != null);

  const show = (survey, force) => {
    if (open || !survey || !(force || allowed(survey))) return;
    open = 1;
    const end = (closed) => {
      const stored = read();
      stored[survey.id] = 101;
      stored.u = Date.now() + (survey.cooldown_days ?? 90) * DAY_MS;
      write(stored);
      if (closed) open = 0;
    };
    load().then(
      (render) => timer && (open = render({ ...o, survey, lang, user, end })),
      (error) => console.warn('Hearken:', error), // stays "open": no survey shows on this page load
    );
  };

  const check = () => list.forEach((survey) => due(survey) && show(survey));

  // The path, the time and the scroll are looked at four times a second, as the other widgets follow
  // single-page navigation (shared/nav.js): pushState, replaceState, back and forward alike. A new path
  // restarts the time on page and the scroll depth.
  let timer = setInterval(() => {
    if (path != location.pathname) (path = location.pathname), (since = performance.now()), (seen = 0);
    const page = document.documentElement;
    seen = Math.max(seen, ((scrollY + innerHeight) / page.scrollHeight) * 100);
    check();
  }, 250);

  // Once per page load; the server's ETag lets the browser's cache answer a repeat with a 304.
  const ready = fetch(`${o.base}/api/v1/surveys/active?project_key=${encodeURIComponent(o.key)}`)
    .then((response) => response.ok && response.json())
    .then((body) => (list = body.surveys || []))
    .catch(() => {}); // a refused origin or an unreachable server: no survey, and the page goes on
  ready.then(() => list[0] || clearInterval(timer)); // no survey to show: nothing to watch

  return {
    track(event) {
      tracked[event] = 1;
      check();
    },
    survey: {
      /** Shows the survey now, whatever its trigger; {force: true} also ignores sample, cooldown and "never again". */
      show: (id, options) => ready.then(() => show(list.find((survey) => survey.id == id), options?.force)),
      /** Sends `id` as submitted_by with the site backend's signature (verified_only surveys need it);
       * false, and no change, for an id the server would refuse. */
      setUser(id, signature) {
        const valid = !id || /^[\w-]{1,255}$/.test(id);
        if (valid) user = id && { submitted_by: String(id), user_signature: signature };
        return valid;
      },
      remove() {
        clearInterval(timer);
        timer = 0;
        list = [];
        open?.remove?.();
        open = 1;
      },
    },
  };
}
