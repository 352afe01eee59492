// Hearken feedback widget: a floating "Feedback" button opening a form with the feedback type and a
// message, and with data-ask-email="true" an optional address to be told when it is resolved.
// An identified person (setUser with a signature, or setUserToken) also finds Messages: their
// conversations with the team, fetched on first use (feedback-messages.js).
// Global: HearkenFeedback {setUser, setUserToken, open, close, reset, remove, container}.

import baseCss from './shared/base.css';
import formCss from './shared/form.css';
import modalCss from './shared/modal.css';
import { apiBase, flag } from './shared/config.js';
import { h } from './shared/dom.js';
import { field } from './shared/form.js';
import { modalForm } from './shared/modal.js';
import { signed } from './shared/person.js';
import { DIALOG, LENGTH } from './shared/strings.js';

/** The body as multipart/form-data with the images, each a part named `attachments`. */
function multipart(body, files) {
  const form = new FormData();
  for (const key in body) if (body[key] != null) form.append(key, body[key]);
  files.forEach((file) => form.append('attachments', file, file.name));
  return form;
}

const TYPES = ['Bug', 'Feature', 'Improvement', 'Question', 'Praise', 'Other'];

/** The image buttons' texts; the code behind them is fetched only when a visitor uses one (feedback-media.js). */
const MEDIA = {
  names: 'screenshot attach remove not_image',
  en: 'Add a screenshot|Attach an image|Remove|Up to 3 images: PNG, JPEG or WebP, at most 5 MB each.',
  de: 'Bildschirmfoto hinzufügen|Bild anhängen|Entfernen|Bis zu 3 Bilder: PNG, JPEG oder WebP, je höchstens 5 MB.',
  sv: 'Lägg till skärmbild|Bifoga en bild|Ta bort|Upp till 3 bilder: PNG, JPEG eller WebP, högst 5 MB var.',
};

const STRINGS = {
  names: 'button title type message bug feature improvement question praise other ask_email invalid_email messages',
  en: 'Feedback|Send feedback|Type|Message|Bug|Feature request|Improvement|Question|Praise|Other|Email me when this is resolved|Please enter a valid email address.|Messages',
  de: 'Feedback|Feedback senden|Art|Nachricht|Fehler|Funktionswunsch|Verbesserung|Frage|Lob|Sonstiges|Mir eine E-Mail senden, wenn das erledigt ist|Bitte geben Sie eine gültige E-Mail-Adresse ein.|Nachrichten',
  sv: 'Feedback|Skicka feedback|Typ|Meddelande|Fel|Funktionsönskemål|Förbättring|Fråga|Beröm|Övrigt|Mejla mig när det här är löst|Ange en giltig e-postadress.|Meddelanden',
};

export default {
  name: 'feedback',
  global: 'HearkenFeedback',
  strings: [LENGTH, DIALOG, STRINGS, MEDIA],
  floating: true,
  build(w) {
    const { t, data } = w;
    const options = TYPES.map((type) => h('option', { value: type, selected: type === 'Other' }, t[type.toLowerCase()]));
    const fields = [
      field(t.type, h('select', {}, ...options), { min: 0 }),
      field(t.message, h('textarea', { rows: 5 }), { min: 3, max: 5000 }),
      flag(data.askEmail, false) &&
        field(t.ask_email, h('input', { type: 'email', autocomplete: 'email' }), { min: 0, max: 320, re: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, bad: t.invalid_email }),
    ].filter(Boolean);
    w.style(baseCss + formCss + modalCss + '.md{display:flex;flex-wrap:wrap;gap:8px;margin-top:12px}.md ul{display:contents}', '#2563eb', data.color);
    const files = [];
    const list = h('ul', { class: 'at' });
    const script = document.currentScript?.src; // this widget's own file, while it starts
    const base = () => apiBase(data.apiUrl, script);
    const loaded = {}; // the code fetched on first use
    const load = async (name, run) => {
      try {
        await (loaded[name] ||= new Promise((ok, no) =>
          document.head.append(h('script', { src: `${base()}/static/widgets/v1/feedback-${name}.js`, onload: ok, onerror: no })),
        ));
        await run();
      } catch (error) {
        loaded[name] = 0; // a failed load is tried again next time; a refused capture is no failure of the page
        console.warn('Hearken:', error);
      }
    };
    const use = (action) => () => load('media', () => window.HearkenFeedbackMedia[action]({ shadow: w.root, status: w.region, texts: t, files, list }));
    // The identity as query pairs (their names are strings: the bundler renames a property named user)
    const who = () => (w.token ? [['token', w.token]] : w.user?.user_signature ? [['user', w.user.submitted_by], ['sig', w.user.user_signature]] : 0);
    const messages = h('button', { type: 'button', hidden: true }, t.messages);
    messages.onclick = () =>
      load('messages', () =>
        window.HearkenFeedbackMessages.open({ shadow: w.root, status: w.region, base: base(), key: data.projectKey, who: who(), lang: data.language, back: messages }),
      );
    const tools = h(
      'div',
      { class: 'md' },
      navigator.mediaDevices?.getDisplayMedia ? h('button', { type: 'button', onclick: use('shot') }, t.screenshot) : '',
      h('button', { type: 'button', onclick: use('pick') }, t.attach),
      list,
    );
    const api = modalForm(w, {
      label: data.buttonText || t.button,
      title: t.title,
      fields,
      endpoint: '/api/v1/feedback/submit',
      position: 'right-side', // the usual feedback tab, clear of a contact button at the bottom right
      done: t.thanks,
      extra: tools,
      cleared: () => (files.length = 0, list.replaceChildren()),
      encode: (body) => files.length && multipart({ project_key: data.projectKey, ...body }, files),
      body([type, message, email]) {
        return { type, message, notify_email: email || undefined, ...signed(w) };
      },
      top: messages,
    });
    // Messages shows for an identified person only: setUser with a signature (wrapped once create() has
    // added it), or a token.
    const identify = () => (messages.hidden = !who());
    queueMicrotask(() => {
      const set = api.setUser;
      api.setUser = (...user) => ((user = set(...user)), identify(), user);
    });
    api.setUserToken = (token) => identify((w.token = token || undefined));
    return api;
  },
};
