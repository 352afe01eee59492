// Hearken contact widget: a floating "Contact Us" button opening a contact form.
// Global: HearkenContact {setUser, setUserToken, open, close, reset, remove, container}.
// setUserToken(jwt) sends the person's token (made by the site's backend) with the message instead.

import baseCss from './shared/base.css';
import formCss from './shared/form.css';
import modalCss from './shared/modal.css';
import { flag } from './shared/config.js';
import { h } from './shared/dom.js';
import { field } from './shared/form.js';
import { modalForm } from './shared/modal.js';
import { signed } from './shared/person.js';
import { DIALOG, LENGTH } from './shared/strings.js';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/; // the server's rule: something@something.something

const STRINGS = {
  names: 'button title name email subject message invalid_email sent',
  en: 'Contact Us|Contact us|Name|Email|Subject|Message|Please enter a valid email address.|Thank you! Your message has been sent. Our team will respond soon.',
  de: 'Kontakt|Kontaktieren Sie uns|Name|E-Mail|Betreff|Nachricht|Bitte geben Sie eine gültige E-Mail-Adresse ein.|Vielen Dank! Ihre Nachricht wurde gesendet. Unser Team wird sich bald bei Ihnen melden.',
  sv: 'Kontakta oss|Kontakta oss|Namn|E-post|Ämne|Meddelande|Ange en giltig e-postadress.|Tack! Ditt meddelande har skickats. Vårt team återkommer snart.',
};

export default {
  name: 'contact',
  global: 'HearkenContact',
  strings: [LENGTH, DIALOG, STRINGS],
  floating: true,
  build(w) {
    const { t, data } = w;
    const withSubject = flag(data.showSubject, false);
    const fields = [
      field(t.name, h('input', { autocomplete: 'name' }), { min: 1, max: 200 }),
      field(t.email, h('input', { type: 'email', autocomplete: 'email' }), { min: 1, max: 320, re: EMAIL, bad: t.invalid_email }),
      withSubject && field(t.subject, h('input'), { min: 0, max: 200 }),
      field(t.message, h('textarea', { rows: 5 }), { min: 3, max: 2000 }),
    ].filter(Boolean);
    w.style(baseCss + formCss + modalCss, '#2563eb', data.color);
    const api = modalForm(w, {
      label: data.buttonText || t.button,
      title: t.title,
      fields,
      endpoint: '/api/v1/contact/submit',
      position: 'bottom-right',
      done: t.sent,
      body(values) {
        const [name, email, subject, message] = withSubject ? values : [...values.slice(0, 2), '', values[2]];
        return { name, email, subject: subject || undefined, message, ...signed(w) };
      },
    });
    api.setUserToken = (token) => void (w.token = token || undefined);
    return api;
  },
};
