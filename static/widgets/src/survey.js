// Hearken survey loader: <script src=".../survey.js" data-project-key="..."> on every page. It fetches
// the project's active surveys and shows one when its trigger matches, loading the renderer
// (survey-renderer.js, beside this file) only then. Global: Hearken {track(name), survey: {show(id,
// {force}), setUser(id, signature), remove()}}. Every failure is caught: a widget never breaks the page.

import { apiBase } from './shared/config.js';
import { surveys } from './survey-triggers.js';

try {
  const script = document.currentScript;
  const data = script.dataset;
  if (!data.projectKey) throw 'no data-project-key';
  let renderer;
  const load = () =>
    (renderer ||= new Promise((ok, fail) => {
      const tag = document.createElement('script');
      tag.src = new URL('survey-renderer.js', script.src);
      tag.onload = () => ok(window.HearkenSurveyRenderer);
      tag.onerror = fail;
      document.head.append(tag);
    }));
  // An inline survey goes into data-container, else right after this tag (in <head>: the end of <body>).
  const place = (host) => {
    const container = data.container && document.querySelector(data.container);
    container ? container.append(host) : script.closest('head') ? document.body.append(host) : script.after(host);
  };
  Object.assign((window.Hearken ||= {}), surveys({ key: data.projectKey, base: apiBase(data.apiUrl, script.src), lang: data.language, place, data }, load));
} catch (error) {
  console.warn('Hearken:', error);
}
