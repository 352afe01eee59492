// Hearken feedback widget: a floating "Feedback" button opening a form with the feedback type and a
// message. Global: HearkenFeedback {setUser, open, close, reset, remove, container}.

import baseCss from './shared/base.css';
import formCss from './shared/form.css';
import modalCss from './shared/modal.css';
import { color } from './shared/config.js';
import { h } from './shared/dom.js';
import { field } from './shared/form.js';
import { modalForm } from './shared/modal.js';
import { DIALOG, LENGTH } from './shared/strings.js';
import { start } from './shared/widget.js';

const TYPES = ['Bug', 'Feature', 'Improvement', 'Question', 'Praise', 'Other'];

const STRINGS = {
  names: 'button title type message bug feature improvement question praise other',
  en: ['Feedback', 'Send feedback', 'Type', 'Message', 'Bug', 'Feature request', 'Improvement', 'Question', 'Praise', 'Other'],
  de: ['Feedback', 'Feedback senden', 'Art', 'Nachricht', 'Fehler', 'Funktionswunsch', 'Verbesserung', 'Frage', 'Lob', 'Sonstiges'],
  sv: ['Feedback', 'Skicka feedback', 'Typ', 'Meddelande', 'Fel', 'Funktionsönskemål', 'Förbättring', 'Fråga', 'Beröm', 'Övrigt'],
};

start({ name: 'feedback', global: 'HearkenFeedback', strings: [LENGTH, DIALOG, STRINGS], floating: true }, (w) => {
  const { t, data } = w;
  const options = TYPES.map((type) => h('option', { value: type, selected: type === 'Other' }, t[type.toLowerCase()]));
  const fields = [
    field(t.type, h('select', {}, ...options), { min: 0 }),
    field(t.message, h('textarea', { rows: 5 }), { min: 3, max: 5000 }),
  ];
  w.style(baseCss + formCss + modalCss, color(data.color, '#2563eb'));
  return modalForm(w, {
    label: data.buttonText || t.button,
    title: t.title,
    fields,
    endpoint: '/api/v1/feedback/submit',
    position: 'right-side', // the usual feedback tab, clear of a contact button at the bottom right
    done: t.thanks,
    body([type, message]) {
      return { type, message, ...w.context() };
    },
  });
});
