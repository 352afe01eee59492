// Hearken NPS widget: "How likely are you to recommend us to a friend or colleague?" with the scores 0 to
// 10 as a radio group, then an optional comment and Send. It posts a typed nps rating and, when a comment
// is written, a feedback item that carries the score. Global: HearkenNps {setUser, reset, remove, container}.

import baseCss from './shared/base.css';
import npsCss from './nps.css';
import { h, say } from './shared/dom.js';
import { followPath } from './shared/nav.js';

const STRINGS = {
  names: 'question not_likely very_likely comment',
  en: 'How likely are you to recommend us to a friend or colleague?|Not likely|Very likely|Why this score? (optional)',
  de: 'Wie wahrscheinlich ist es, dass Sie uns einem Freund oder Kollegen empfehlen?|Unwahrscheinlich|Sehr wahrscheinlich|Warum diese Bewertung? (optional)',
  sv: 'Hur troligt är det att du skulle rekommendera oss till en vän eller kollega?|Inte troligt|Mycket troligt|Varför detta betyg? (valfritt)',
};

export default {
  name: 'nps',
  global: 'HearkenNps',
  strings: [STRINGS],
  perPage: followPath,
  build(w) {
    const { t, data, region } = w;
    const send = h('button', { class: 'p' }, t.send);
    // Send waits while a comment is shorter than the server takes (3 characters); no comment is fine.
    const comment = h('textarea', { id: 'c', maxlength: 5000, oninput: () => (send.disabled = [1, 2].includes(comment.value.trim().length)) });
    const more = h('div', { hidden: true }, h('label', { for: 'c', class: 'c' }, t.comment), comment, send);
    const scores = h('div', { class: 's' });
    for (let n = 0; n <= 10; n++) {
      // the radio covers its number, which names it; the extremes also describe the words under them
      const radio = h('input', { type: 'radio', name: 's', value: n, 'aria-describedby': n % 10 ? null : 'e' + n });
      scores.append(h('label', {}, radio, n));
    }
    const group = h(
      'fieldset',
      { role: 'radiogroup', onchange: () => (more.hidden = false) },
      h('legend', {}, data.question || t.question),
      scores,
      h('p', { class: 'e' }, h('span', { id: 'e0' }, t.not_likely), h('span', { id: 'e10' }, t.very_likely)),
    );
    const form = h('form', { novalidate: true, onsubmit: submit }, group, more);
    let stored; // the score once its rating is stored: a comment that failed is then sent again alone

    async function submit(event) {
      event.preventDefault();
      const message = comment.value.trim();
      if (stored == null) {
        const rating = { type: 'nps', value: +form.s.value };
        if (!(await w.send('/api/v1/ratings', { rating, context: w.context() }))) return;
        stored = rating.value;
        group.disabled = true;
      }
      if (message && !(await w.send('/api/v1/feedback/submit', { message, ...w.context(), metadata: { nps: stored } }))) return;
      form.hidden = true;
      say(region, t.thanks);
    }

    w.style(baseCss + npsCss, '#2563eb', data.color);
    w.root.append(h('div', { class: 'w' }, form, region, w.powered(false)));
    return {
      reset() {
        form.reset();
        stored = undefined;
        form.hidden = group.disabled = send.disabled = false;
        more.hidden = true;
        say(region, '');
      },
    };
  },
};
