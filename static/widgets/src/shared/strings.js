// Texts the widgets show, in each supported language, split by use so that each widget carries only the
// texts it shows. A table names its texts once (space-separated) and gives them per language in one
// string, in that order, separated by |; the names are also what data-text-<name> overrides. {n} is
// replaced by a number.

export const COMMON = {
  names: 'thanks send wait failed',
  en: 'Thank you for your feedback!|Send|Please try again in {n} seconds.|Sorry, sending failed. Please try again later.',
  de: 'Vielen Dank für Ihr Feedback!|Senden|Bitte versuchen Sie es in {n} Sekunden erneut.|Senden leider fehlgeschlagen. Bitte versuchen Sie es später erneut.',
  sv: 'Tack för din feedback!|Skicka|Försök igen om {n} sekunder.|Det gick tyvärr inte att skicka. Försök igen senare.',
};

/** For the fields of the contact and feedback forms, which have length rules. */
export const LENGTH = {
  names: 'too_short too_long',
  en: 'At least {n} characters.|At most {n} characters.',
  de: 'Mindestens {n} Zeichen.|Höchstens {n} Zeichen.',
  sv: 'Minst {n} tecken.|Högst {n} tecken.',
};

/** For the dialogs of the contact and feedback widgets. */
export const DIALOG = {
  names: 'close required',
  en: 'Close|Please fill in this field.',
  de: 'Schließen|Bitte füllen Sie dieses Feld aus.',
  sv: 'Stäng|Fyll i det här fältet.',
};

/** The texts of `tables` in language `lang`, by name. */
export const texts = (tables, lang) => {
  const t = {};
  for (const table of tables) {
    const values = table[lang].split('|');
    table.names.split(' ').forEach((name, i) => (t[name] = values[i]));
  }
  return t;
};

export const fill = (text, n) => text.replace('{n}', n);
