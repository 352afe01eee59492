// Sends a submission and tells the visitor what happened: "thanks" only for a stored submission,
// otherwise that it failed (or how long to wait before retrying), in the widget's language. Why it
// failed is for the site's developers, who see the answer in the browser's network panel.

import { say } from './dom.js';
import { fill } from './strings.js';

const COOLDOWN_MS = 10000;

/**
 * A send(endpoint, body, payload) for one widget's project (it adds project_key to the body; a payload is sent
 * as given): it refuses a second submission
 * to the same endpoint within 10 seconds of a stored one (the public endpoints' limit), announces
 * failures in `region`, and resolves true only when the server stored it (a falsy value otherwise).
 */
export function sender(base, projectKey, t, region) {
  const last = {};
  return async (endpoint, body, payload) => {
    const before = last[endpoint]; // none yet: the wait below is NaN, never above 0
    const wait = Math.ceil((before + COOLDOWN_MS - Date.now()) / 1000);
    if (wait > 0) return say(region, fill(t.wait, wait), true);
    last[endpoint] = Date.now(); // also stops a double click from sending twice
    let problem = t.failed; // unless stored: unreachable, refused by CORS or the server, or timed out
    try {
      // Sent as text/plain (which the public endpoints read as JSON), or as the `payload` given (the feedback
      // form with images: multipart/form-data, with its own project_key): either is a simple request, which needs no CORS preflight.
      const response = await fetch(base + endpoint, {
        method: 'POST',
        body: payload || JSON.stringify({ project_key: projectKey, ...body }),
        signal: AbortSignal.timeout(15000),
      });
      if (response.ok) problem = '';
      else if (response.status === 429) problem = fill(t.wait, (await response.json()).retry_after || 60);
    } catch {}
    if (problem) last[endpoint] = before;
    say(region, problem, true);
    return !problem;
  };
}
