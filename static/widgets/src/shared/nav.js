// Single-page sites change pages without loading one: Docusaurus, VitePress, MkDocs Material's instant
// navigation and app routers call history.pushState. A widget that asks once per page asks again when
// the pathname changes; a new query or hash on the same pathname is the same page.

/** How often the pathname is looked at: a new page asks again within this. */
const LOOK_EVERY_MS = 250;

/**
 * Calls `onNewPath` each time location.pathname changes without a page load, until `signal` aborts.
 * The pathname is compared a few times a second, which sees every way a page can change it in every
 * browser: history.pushState and replaceState, back and forward, the Navigation API, and routers that
 * kept the original pushState before the widget loaded (which wrapping it would miss). Listening
 * instead (the Navigation API's currententrychange where present, wrapped pushState and replaceState
 * and popstate elsewhere) costs about 80 bytes gzipped more than the helpful widget's 3 KiB allow.
 */
export function followPath(onNewPath, signal) {
  let path = location.pathname;
  const timer = setInterval(() => path != (path = location.pathname) && onNewPath(), LOOK_EVERY_MS);
  signal.onabort = () => clearInterval(timer);
}
