// Hearken helpful widget: "Was this page helpful?" with Yes and No (interface.md "Embeddable widgets").
// After No it can offer a comment: the feedback widget's dialog when that widget is on the page,
// otherwise an inline comment form. Global: HearkenHelpful {setUser, reset, container}.

import baseCss from './shared/base.css';
import helpfulCss from './helpful.css';
import { color, flag } from './shared/config.js';
import { h, say } from './shared/dom.js';
import { LENGTH, fill } from './shared/strings.js';
import { start } from './shared/widget.js';

const STRINGS = {
  en: { question: 'Was this page helpful?', yes: 'Yes', no: 'No', more: 'Tell us more', comment: 'Comment', got: 'Comment sent. Thank you!' },
  de: { question: 'War diese Seite hilfreich?', yes: 'Ja', no: 'Nein', more: 'Mehr erzählen', comment: 'Kommentar', got: 'Kommentar gesendet. Danke!' },
  sv: { question: 'Var den här sidan till hjälp?', yes: 'Ja', no: 'Nej', more: 'Berätta mer', comment: 'Kommentar', got: 'Kommentaren har skickats. Tack!' },
};

start({ name: 'helpful', global: 'HearkenHelpful', strings: [LENGTH, STRINGS] }, (w) => {
  const { t, data, region } = w;
  const offerComment = flag(data.showCommentLink, false);
  const comment = h('textarea', { id: 'c' });
  const yes = h('button', {}, t.yes);
  const no = h('button', {}, t.no);
  const ask = h('div', { role: 'group', 'aria-labelledby': 'q' }, h('b', { id: 'q' }, data.question || t.question), yes, no);
  const more = h('button', { class: 'm', hidden: true }, t.more);
  const form = h('form', { hidden: true }, h('label', { for: 'c' }, t.comment), comment, h('button', { class: 'p' }, t.send));

  const rate = async (value) => {
    if (await w.send('/api/v1/rating/submit', { project_key: data.projectKey, value, ...w.context() })) {
      ask.hidden = true;
      more.hidden = value || !offerComment;
      say(region, t.thanks);
    }
  };
  yes.onclick = () => rate(true);
  no.onclick = () => rate(false);
  more.onclick = () => {
    if (window.HearkenFeedback?.open) return HearkenFeedback.open();
    more.hidden = true;
    form.hidden = false;
    comment.focus();
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const message = comment.value.trim();
    const problem = message.length < 3 ? fill(t.min, 3) : message.length > 5000 ? fill(t.max, 5000) : '';
    comment.setAttribute('aria-invalid', !!problem);
    if (problem) {
      say(region, problem, true);
      comment.focus();
    } else if (await w.send('/api/v1/feedback/submit', { project_key: data.projectKey, message, ...w.context() })) {
      form.hidden = true;
      say(region, t.got);
    }
  };

  w.style(baseCss + helpfulCss, color(data.buttonColor, '#2563eb'));
  w.root.append(h('div', { class: 'w' }, ask, region, more, form, w.powered(false)));
  return {
    reset() {
      ask.hidden = false;
      more.hidden = form.hidden = true;
      form.reset();
      say(region, '');
    },
  };
});
