// The feedback widget's Messages view, fetched only when an identified person opens it: their
// conversations with the team (one per feedback item or contact message they sent identified), a thread
// with its messages, and a box to answer. It shows in place of the feedback form, in the same dialog.
// While it shows it asks every few seconds for what is new (the list, or the thread's messages after the
// last one it has), and stops once the dialog closes or the person goes back to the form.
// Sets window.HearkenFeedbackMessages = {open}; open takes {shadow, status, base, key, who (the identity as
// query pairs), lang, back}.

import css from './feedback-messages.css';
import { language } from './shared/config.js';
import { h, say } from './shared/dom.js';
import { fill, texts } from './shared/strings.js';

const STRINGS = {
  names: 'title back answer you team none new send failed feedback contact',
  en: 'Messages|Back|Your answer|You|Team|No conversations yet: send feedback while signed in and the team’s answers show here.|{n} new|Send|Sorry, that failed. Please try again later.|Feedback|Message',
  de: 'Nachrichten|Zurück|Ihre Antwort|Sie|Team|Noch keine Unterhaltungen: Senden Sie angemeldet Feedback, dann erscheinen hier die Antworten des Teams.|{n} neu|Senden|Das hat leider nicht geklappt. Bitte versuchen Sie es später erneut.|Feedback|Nachricht',
  sv: 'Meddelanden|Tillbaka|Ditt svar|Du|Team|Inga samtal än: skicka feedback när du är inloggad, så visas teamets svar här.|{n} nya|Skicka|Det gick tyvärr inte. Försök igen senare.|Feedback|Meddelande',
};
const EVERY_MS = 4000;
const styled = new WeakSet();

function open(ui) {
  const lang = language(ui.lang, STRINGS);
  const t = texts([STRINGS], lang);
  const form = ui.back.nextElementSibling; // the feedback form, which the view stands in for
  const url = (path, query) =>
    `${ui.base}/api/v1/conversations${path}?` + new URLSearchParams([...Object.entries({ project_key: ui.key, lang, ...query }), ...ui.who]);
  const call = async (path, query, body) => {
    const response = await fetch(url(path, query), {
      method: body ? 'POST' : 'GET',
      body: body && JSON.stringify(body), // text/plain: a simple request, no preflight
      signal: AbortSignal.timeout(15000),
    });
    if (!response.ok) throw response.status;
    return response.json();
  };
  if (!styled.has(ui.shadow)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    ui.shadow.adoptedStyleSheets = [...ui.shadow.adoptedStyleSheets, sheet];
    styled.add(ui.shadow);
  }
  ui.shadow.querySelector('.cv')?.remove();
  const heading = h('h3', { tabindex: -1 }, t.title);
  const back = h('button', { type: 'button' }, t.back);
  const body = h('div');
  const view = h('section', { class: 'cv', 'aria-label': t.title }, h('div', { class: 'cvh' }, back, heading), body);
  let shown; // the conversation shown, or none for the list
  let last = 0; // the id of the newest message shown
  let timer;
  const fail = () => say(ui.status, t.failed, true);
  const stop = () => {
    clearInterval(timer);
    view.remove();
    form.hidden = ui.back.hidden = false;
  };
  const close = () => {
    stop();
    ui.back.focus();
  };
  const when = (iso) => new Date(iso).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const item = (m) => h('li', { class: m.from === 'team' ? 'tm' : 'me' }, h('small', {}, m.from === 'team' ? t.team : t.you), h('p', {}, m.message), h('small', {}, when(m.created_at)));

  async function list() {
    shown = null;
    const { conversations } = await call('');
    const entries = conversations.map((c) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', onclick: () => thread(c.id).catch(fail) },
          c.unread ? h('span', { class: 'nb' }, fill(t.new, c.unread)) : '',
          h('small', {}, `${c.subject.kind === 'feedback' ? t.feedback : t.contact} · ${when(c.updated_at)}`),
          (c.messages[0]?.message || '').slice(0, 90),
        ),
      ),
    );
    body.replaceChildren(entries.length ? h('ul', { class: 'cl' }, ...entries) : h('p', {}, t.none));
  }

  async function thread(id) {
    const conversation = await call('/' + id);
    shown = id;
    last = conversation.messages.at(-1)?.id || 0;
    const messages = h('ol', { class: 'ml', 'aria-live': 'polite' }, ...conversation.messages.map(item));
    const box = h('textarea', { id: 'cva', rows: 3, maxlength: 5000, required: true });
    const reply = h('form', {}, h('label', { for: 'cva' }, t.answer), box, h('button', { class: 'p' }, t.send));
    reply.onsubmit = async (event) => {
      event.preventDefault();
      const message = box.value.trim();
      if (!message) return box.focus();
      try {
        await call(`/${id}/messages`, {}, { message });
        box.value = '';
        say(ui.status, '');
        await fresh();
      } catch {
        fail();
      }
    };
    body.replaceChildren(messages, reply);
    messages.scrollTop = messages.scrollHeight;
    box.focus();
  }

  // What is new since the last look: the thread's messages after the last one shown, or the whole list.
  async function fresh() {
    if (!view.isConnected) return clearInterval(timer);
    if (!shown) return list();
    const { messages } = await call('/' + shown, { after: last });
    const box = body.querySelector('.ml');
    for (const m of messages) if (m.id > last) box.append(item(m)), (last = m.id);
    box.scrollTop = box.scrollHeight;
  }

  back.onclick = () => (shown ? list().catch(fail) : close());
  form.hidden = ui.back.hidden = true;
  form.after(view);
  view.closest('dialog')?.addEventListener('close', stop, { once: true }); // the next opening starts at the form
  say(ui.status, '');
  list().then(() => heading.focus(), fail);
  timer = setInterval(() => document.hidden || fresh().catch(() => {}), EVERY_MS); // not while the tab is hidden
}

window.HearkenFeedbackMessages = { open };
