// Texts the widgets share, in each supported language. {n} is replaced by a number.
// Split by use, so that each widget carries only the texts it shows.

export const COMMON = {
  en: {
    thanks: 'Thank you for your feedback!',
    send: 'Send',
    wait: 'Please try again in {n} seconds.',
    down: 'The server cannot be reached. Please try again later.',
    failed: 'Sorry, sending failed.',
    powered: 'Powered by Hearken',
  },
  de: {
    thanks: 'Vielen Dank für Ihr Feedback!',
    send: 'Senden',
    wait: 'Bitte versuchen Sie es in {n} Sekunden erneut.',
    down: 'Der Server ist nicht erreichbar. Bitte versuchen Sie es später erneut.',
    failed: 'Senden leider fehlgeschlagen.',
    powered: 'Bereitgestellt von Hearken',
  },
  sv: {
    thanks: 'Tack för din feedback!',
    send: 'Skicka',
    wait: 'Försök igen om {n} sekunder.',
    down: 'Servern går inte att nå. Försök igen senare.',
    failed: 'Det gick tyvärr inte att skicka.',
    powered: 'Drivs av Hearken',
  },
};

/** For fields with a length rule. */
export const LENGTH = {
  en: { min: 'At least {n} characters.', max: 'At most {n} characters.' },
  de: { min: 'Mindestens {n} Zeichen.', max: 'Höchstens {n} Zeichen.' },
  sv: { min: 'Minst {n} tecken.', max: 'Högst {n} tecken.' },
};

/** For the dialogs of the contact and feedback widgets. */
export const DIALOG = {
  en: { close: 'Close', required: 'Please fill in this field.' },
  de: { close: 'Schließen', required: 'Bitte füllen Sie dieses Feld aus.' },
  sv: { close: 'Stäng', required: 'Fyll i det här fältet.' },
};

export const fill = (text, n) => text.replace('{n}', n);
