// The survey widget for apps: the same loader and renderer as the served survey.js, in one module (the
// renderer is bundled, not fetched). mountSurvey(element?, options) watches the project's surveys'
// triggers in this page and shows one when it is due: modal and banner surveys over the page, an inline
// one in `element` (else at the end of <body>).

import { apiBase } from '../../../static/widgets/src/shared/config.js';
import { render } from '../../../static/widgets/src/survey-form.js';
import { surveys } from '../../../static/widgets/src/survey-triggers.js';

const mounted = new Set();

/**
 * mountSurvey(element?, options) → {track, show, setUser, remove}. Options: projectKey and apiUrl
 * (required), language. Unlike the script tag, it publishes no global object: the page's events go to
 * handle.track(name), or to trackSurveyEvent(name) for every mounted survey (what React and Vue use).
 */
export function mountSurvey(element, options) {
  if (element && !(element instanceof Element)) (options = element), (element = null);
  if (!options?.apiUrl || !options.projectKey) {
    throw new TypeError('Hearken: options.projectKey and options.apiUrl (your Hearken address) are required');
  }
  const place = (host) => (element || document.body).append(host);
  const watch = surveys({ key: String(options.projectKey), base: apiBase(options.apiUrl), lang: options.language, place }, async () => render);
  const handle = {
    track: watch.track,
    show: watch.survey.show,
    setUser: watch.survey.setUser,
    remove() {
      watch.survey.remove();
      mounted.delete(handle);
    },
  };
  mounted.add(handle);
  return handle;
}

/** Tells every mounted survey that the page's event `name` happened (a trigger's "event"). */
export function trackSurveyEvent(name) {
  mounted.forEach((handle) => handle.track(name));
}
