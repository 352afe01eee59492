// Hearken contact widget: a floating "Contact Us" button opening a contact form (interface.md
// "Embeddable widgets"). Global: HearkenContact {setUser, open, close, reset, container}.

import baseCss from './shared/base.css';
import formCss from './shared/form.css';
import modalCss from './shared/modal.css';
import { color, flag } from './shared/config.js';
import { h } from './shared/dom.js';
import { field } from './shared/form.js';
import { modalForm } from './shared/modal.js';
import { DIALOG, LENGTH } from './shared/strings.js';
import { start } from './shared/widget.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/; // the server's rule: something@something.something

const STRINGS = {
  en: {
    button: 'Contact Us',
    title: 'Contact us',
    name: 'Name',
    email: 'Email',
    subject: 'Subject',
    message: 'Message',
    bad: 'Please enter a valid email address.',
    done: 'Thank you! Your message has been sent. Our team will respond soon.',
  },
  de: {
    button: 'Kontakt',
    title: 'Kontaktieren Sie uns',
    name: 'Name',
    email: 'E-Mail',
    subject: 'Betreff',
    message: 'Nachricht',
    bad: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
    done: 'Vielen Dank! Ihre Nachricht wurde gesendet. Unser Team wird sich bald bei Ihnen melden.',
  },
  sv: {
    button: 'Kontakta oss',
    title: 'Kontakta oss',
    name: 'Namn',
    email: 'E-post',
    subject: 'Ämne',
    message: 'Meddelande',
    bad: 'Ange en giltig e-postadress.',
    done: 'Tack! Ditt meddelande har skickats. Vårt team återkommer snart.',
  },
};

start({ name: 'contact', global: 'HearkenContact', strings: [LENGTH, DIALOG, STRINGS], floating: true }, (w) => {
  const { t, data } = w;
  const withSubject = flag(data.showSubject, false);
  const fields = [
    field(t.name, h('input', { autocomplete: 'name' }), { min: 1, max: 200 }),
    field(t.email, h('input', { type: 'email', autocomplete: 'email' }), { min: 1, max: 320, re: EMAIL, bad: t.bad }),
    withSubject && field(t.subject, h('input'), { min: 0, max: 200 }),
    field(t.message, h('textarea', { rows: 5 }), { min: 3, max: 2000 }),
  ].filter(Boolean);
  w.style(baseCss + formCss + modalCss, color(data.color, '#2563eb'));
  return modalForm(w, {
    label: data.buttonText || t.button,
    title: t.title,
    fields,
    endpoint: '/api/v1/contact/submit',
    position: 'bottom-right',
    done: t.done,
    body(values) {
      const [name, email, subject, message] = withSubject ? values : [...values.slice(0, 2), '', values[2]];
      const { path, version } = w.context();
      return { project_key: data.projectKey, name, email, subject: subject || undefined, message, path, version };
    },
  });
});
