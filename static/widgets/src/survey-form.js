// A survey on screen, loaded by the survey loader only when one is due (the script tag's renderer file,
// or bundled into the npm package): it fetches the questions in the visitor's language and shows them one
// at a time in a shadow root, as a modal dialog, a banner at the bottom of the window or inline. Each
// answer is sent as the visitor goes (completed: false, one response id), the last with completed: true;
// "thanks" shows only once the server has stored it, an error otherwise.

import baseCss from './shared/base.css';
import surveyCss from './survey.css';
import { language } from './shared/config.js';
import { h, say } from './shared/dom.js';
import { COMMON, fill, texts } from './shared/strings.js';

const STRINGS = {
  names: 'next back close required not_likely very_likely yes no',
  en: 'Next|Back|Close|Please answer this question.|Not likely|Very likely|Yes|No',
  de: 'Weiter|Zurück|Schließen|Bitte beantworten Sie diese Frage.|Unwahrscheinlich|Sehr wahrscheinlich|Ja|Nein',
  sv: 'Nästa|Tillbaka|Stäng|Svara på den här frågan.|Inte troligt|Mycket troligt|Ja|Nej',
};

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * One question's step: its element (hidden until shown), `value()` (undefined when unanswered) and
 * `focus()`. Scales (rating, nps) and choices are radio groups, which arrow keys move through; multiple
 * choice is checkboxes; open text a labelled textarea. The error line `e` describes each.
 */
function step(question, i, t) {
  const id = 'q' + i;
  if (question.type == 'open_text') {
    const area = h('textarea', { id: 'a' + i, rows: 4, maxlength: 5000, 'aria-describedby': 'e', 'aria-required': question.required });
    return {
      el: h('div', { hidden: true }, h('label', { for: area.id, id, class: 'lg' }, question.text), area),
      value: () => area.value.trim() || undefined,
      focus: () => area.focus(),
    };
  }
  const multiple = question.type == 'multiple_choice';
  const nps = question.type == 'nps';
  const scale = nps ? range(0, 10) : question.type == 'rating' && range(1, question.scale || 5);
  const options = scale
    ? scale.map((n) => [n, n])
    : question.type == 'boolean'
      ? [[true, t.yes], [false, t.no]]
      : question.choices.map((choice) => [choice.id, choice.text]);
  const inputs = options.map(([value], k) =>
    h('input', {
      type: multiple ? 'checkbox' : 'radio',
      name: 'a' + i,
      value,
      // the words under the ends of the NPS scale describe its first and last box
      'aria-describedby': nps && !(k % 10) ? id + '-' + k : null,
    }),
  );
  const group = h(
    'fieldset',
    { hidden: true, class: scale ? 's' : 'c', role: multiple ? null : 'radiogroup', 'aria-describedby': 'e', 'aria-required': question.required },
    h('legend', { id }, question.text),
    h('div', { class: 'o' }, ...options.map(([, text], k) => h('label', {}, inputs[k], text))),
    nps ? h('p', { class: 'n' }, h('span', { id: id + '-0' }, t.not_likely), h('span', { id: id + '-10' }, t.very_likely)) : '',
  );
  return {
    el: group,
    value() {
      const picked = options.filter((_, k) => inputs[k].checked).map(([value]) => value);
      return multiple ? (picked.length ? picked : undefined) : picked[0];
    },
    focus: () => (inputs.find((input) => input.checked) || inputs[0]).focus(),
  };
}

/**
 * render({base, key, survey, lang, user, place, end, data}) shows `survey` ({id, display} from the active
 * list) and returns {remove}; `data` may hold text replacements (textNotLikely, as the script tag's dataset). `end(closed)` tells the loader the visitor answered (an answer was stored) or
 * closed it; `place(host)` puts an inline survey on the page.
 */
export function render({ base, key, survey, lang, user, place, end, data }) {
  const host = h('hearken-survey');
  const api = `${base}/api/v1/surveys/${encodeURIComponent(survey.id)}`;
  let removed;
  fetch(`${api}/definition?project_key=${encodeURIComponent(key)}&lang=${lang}`)
    .then((response) => {
      if (!response.ok) throw 'survey definition: HTTP ' + response.status;
      return response.json();
    })
    .then((definition) => removed || show(definition))
    .catch((error) => console.warn('Hearken:', error));

  function show(definition) {
    const t = texts([COMMON, STRINGS], language(definition.language, COMMON));
    for (const name in data) {
      // data-text-not-likely (textNotLikely) replaces the text not_likely, as in every widget
      if (name.startsWith('text')) t[name.slice(4).replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).slice(1)] = data[name];
    }
    const display = definition.display || survey.display;
    const steps = definition.questions.map((question, i) => ({ question, ...step(question, i, t) }));
    const root = host.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet(); // constructable: a page's CSP style-src does not apply
    sheet.replaceSync(baseCss + surveyCss);
    root.adoptedStyleSheets = [sheet];

    const error = h('p', { class: 'er', id: 'e', 'aria-live': 'assertive' });
    const thanks = h('p', { class: 'ty', role: 'status', tabindex: -1 });
    const back = h('button', { type: 'button' }, t.back);
    const next = h('button', { class: 'p' });
    const form = h('form', { novalidate: true }, ...steps.map((s) => s.el), error, h('div', { class: 'b' }, back, next));
    const close = h('button', { type: 'button', class: 'x', 'aria-label': t.close }, '×');
    const box = h('div', { class: 'w' }, close, form, thanks);
    const modal = display == 'modal';
    const frame = h(modal ? 'dialog' : 'section', { class: display, 'aria-modal': modal && 'true' }, box);
    const trail = []; // the steps answered before this one, for Back
    let at;
    let responseId;
    let busy;

    /** The step the current answer leads to (skip logic), or -1 or past the last step: the end. */
    const target = (answer = steps[at].value()) => {
      const rule = answer != null && steps[at].question.next?.find((b) => (Array.isArray(answer) ? answer.includes(b.if) : b.if === answer));
      return rule ? steps.findIndex((s) => s.question.id == rule.goto) : at + 1; // "end": -1
    };
    const ends = (k) => !(k > at && k < steps.length);
    /** Send on the step that ends the survey, whether by being the last or by the answer chosen. */
    const label = () => (next.textContent = ends(target()) ? t.send : t.next);

    const go = (k, focus) => {
      steps.forEach((s, j) => (s.el.hidden = j != k));
      at = k;
      back.hidden = !trail.length;
      label();
      frame.setAttribute('aria-labelledby', 'q' + k);
      say(error, '');
      focus && steps[k].focus();
    };

    /** Sends answers; resolves to '' once the server stored them (and gave the response's id), else
     * what to tell the visitor: try again later, or in the seconds a 429 asks for. */
    const send = async (answers, completed) => {
      let problem = t.failed;
      try {
        const response = await fetch(api + '/responses/submit', {
          method: 'POST', // as text/plain (read as JSON by the server): a simple request, no CORS preflight
          body: JSON.stringify({
            project_key: key,
            answers,
            language: definition.language || lang,
            path: location.pathname.slice(0, 2048),
            completed,
            response_id: responseId,
            ...user,
          }),
          signal: AbortSignal.timeout(15000),
        });
        if (response.ok) (responseId = (await response.json()).response_id), (problem = '');
        else if (response.status == 429) problem = fill(t.wait, (await response.json()).retry_after || 60);
      } catch {}
      return problem;
    };

    const dismiss = () => {
      if (!removed) end(true);
      removed = 1;
      host.remove();
    };

    form.onsubmit = async (event) => {
      event.preventDefault();
      if (busy) return;
      const { question, value, el, focus } = steps[at];
      const answer = value();
      const missing = answer == null && question.required;
      el.setAttribute('aria-invalid', missing);
      if (missing) return say(error, t.required, true), focus();
      const to = target(answer);
      const last = ends(to);
      busy = next.disabled = back.disabled = true;
      const problem = answer == null && !last ? '' : await send(answer == null ? [] : [{ question_id: question.id, value: answer }], last);
      busy = next.disabled = back.disabled = false;
      if (problem) return say(error, problem, true);
      if (answer != null) end(false);
      if (!last) return trail.push(at), go(to, true);
      form.hidden = true;
      say(error, '');
      say(thanks, t.thanks);
      thanks.focus();
    };
    form.oninput = () => {
      // an answer given: the "please answer" goes (Send says it again if the answer is taken back)
      say(error, '');
      steps[at].el.removeAttribute('aria-invalid');
      label();
    };
    back.onclick = () => go(trail.pop(), true);
    close.onclick = dismiss;
    // (a handler that returns false cancels the event: these return nothing)
    frame.onkeydown = (event) => {
      if (event.key == 'Escape') dismiss();
    };
    if (modal) {
      frame.onclose = dismiss;
      frame.onclick = (event) => {
        if (event.target == frame) dismiss(); // the backdrop
      };
    }
    go(0);
    root.append(frame);
    modal || display == 'banner' ? (document.body || document.documentElement).append(host) : place(host);
    if (modal) frame.showModal(), steps[0].focus();
  }

  return {
    remove() {
      removed = 1;
      host.remove();
    },
  };
}
