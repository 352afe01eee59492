// Hearken helpful widget: "Was this page helpful?" with Yes and No. With data-reasons, a No asks why
// (a few fixed reasons, one tap stores the rating with its reason). After No it can offer a comment: the
// feedback widget's dialog when that widget is on the page, otherwise an inline comment box.
// Global: HearkenHelpful {setUser, reset, remove, container}.

import baseCss from './shared/base.css';
import helpfulCss from './helpful.css';
import { flag } from './shared/config.js';
import { h, say } from './shared/dom.js';
import { followPath } from './shared/nav.js';

const STRINGS = {
  names: 'question yes no why_not tell_us_more comment_sent',
  en: 'Was this page helpful?|Yes|No|What was wrong?|Tell us more|Comment sent. Thank you!',
  de: 'War diese Seite hilfreich?|Ja|Nein|Was hat nicht gepasst?|Mehr erzählen|Kommentar gesendet. Danke!',
  sv: 'Var den här sidan till hjälp?|Ja|Nej|Vad var fel?|Berätta mer|Kommentaren har skickats. Tack!',
};

/** The reasons offered after No (data-reasons); a rating stores its reason by name. */
const REASONS = {
  names: 'inaccurate hard_to_understand missing_information code_sample_wrong other',
  en: 'Inaccurate|Hard to understand|Missing information|Code sample wrong|Other',
  de: 'Ungenau|Schwer verständlich|Fehlende Informationen|Codebeispiel falsch|Sonstiges',
  sv: 'Felaktig|Svår att förstå|Information saknas|Kodexemplet är fel|Annat',
};

export default {
  name: 'helpful',
  global: 'HearkenHelpful',
  strings: [STRINGS, REASONS],
  perPage: followPath,
  build(w) {
    const { t, data, region } = w;
    const question = data.question || t.question;
    const offerComment = flag(data.showCommentLink, false);
    const send = h('button', { class: 'p', disabled: true, onclick: sendComment }, t.send);
    // Send waits for the shortest comment the server takes (3 characters); the textarea stops at the longest.
    const comment = h('textarea', { maxlength: 5000, oninput: () => (send.disabled = comment.value.trim().length < 3) });
    const yes = h('button', {}, t.yes);
    const no = h('button', {}, t.no);
    const reasons = REASONS.names.split(' ').map((name) => h('button', { onclick: () => rate(false, name) }, t[name]));
    const label = h('b', { id: 'q' });
    const ask = h('div', { role: 'group', 'aria-labelledby': 'q' });
    const more = h('button', { class: 'm', hidden: true }, t.tell_us_more);
    const box = h('div', { hidden: true }, h('label', {}, t.tell_us_more, comment), send);

    /** The group asks `text` with `buttons`: the question with Yes and No, or why not with the reasons. */
    const show = (text, ...buttons) => {
      label.textContent = text;
      ask.replaceChildren(label, ...buttons);
    };
    const rate = async (value, reason) => {
      if (await w.send('/api/v1/rating/submit', { value, ...w.context(), metadata: reason && { reason } })) {
        ask.hidden = true;
        more.hidden = value || !offerComment;
        say(region, t.thanks);
      }
    };
    yes.onclick = () => rate(true);
    no.onclick = () => {
      if (!flag(data.reasons, false)) return rate(false);
      show(t.why_not, ...reasons);
      reasons[0].focus();
    };
    more.onclick = () => {
      if (window.HearkenFeedback) return HearkenFeedback.open();
      more.hidden = true;
      box.hidden = false;
      comment.focus();
    };
    async function sendComment() {
      if (await w.send('/api/v1/feedback/submit', { message: comment.value.trim(), ...w.context() })) {
        box.hidden = true;
        say(region, t.comment_sent);
      }
    }

    show(question, yes, no);
    w.style(baseCss + helpfulCss, '#2563eb', data.buttonColor);
    w.root.append(h('div', { class: 'w' }, ask, region, more, box, w.powered(false)));
    return {
      reset() {
        show(question, yes, no);
        ask.hidden = false;
        more.hidden = box.hidden = true;
        comment.value = '';
        send.disabled = true;
        say(region, '');
      },
    };
  },
};
