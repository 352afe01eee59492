// Sends a submission and tells the visitor what happened: "thanks" only for a stored submission,
// otherwise why not (wait before retrying, server unreachable, refused), in the widget's language.

import { say } from './dom.js';
import { fill } from './strings.js';

const COOLDOWN_MS = 10000;

/**
 * A send(endpoint, body) for one widget: it refuses a second submission to the same endpoint within
 * 10 seconds of a stored one (interface.md limits), announces failures in `region`, and resolves true
 * only when the server stored the submission (a falsy value otherwise).
 */
export function sender(base, t, region) {
  const last = {};
  return async (endpoint, body) => {
    const before = last[endpoint] || 0;
    const wait = Math.ceil((before + COOLDOWN_MS - Date.now()) / 1000);
    if (wait > 0) return say(region, fill(t.wait, wait), true);
    last[endpoint] = Date.now(); // also stops a double click from sending twice
    let problem = '';
    try {
      const response = await fetch(base + endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15000),
      });
      if (!response.ok) {
        const answer = await response.json().catch(() => ({}));
        console.warn('Hearken:', response.status, answer.details);
        problem = response.status === 429 ? fill(t.wait, Math.ceil(answer.retry_after) || 60) : t.failed;
      }
    } catch {
      problem = t.down; // unreachable, refused by CORS, or timed out
    }
    if (problem) last[endpoint] = before;
    say(region, problem, true);
    return !problem;
  };
}
