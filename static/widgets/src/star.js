// Hearken star widget: "How would you rate this page?" with 1 to data-max-stars stars as radios and a
// Send button; posts a typed star rating. Global: HearkenStar {setUser, reset, remove, container}.

import baseCss from './shared/base.css';
import starCss from './star.css';
import { h, say } from './shared/dom.js';
import { fill } from './shared/strings.js';
import { followPath } from './shared/nav.js';

const STRINGS = {
  names: 'question one_star stars choose_rating',
  en: 'How would you rate this page?|{n} star|{n} stars|Please choose a rating.',
  de: 'Wie bewerten Sie diese Seite?|{n} Stern|{n} Sterne|Bitte wählen Sie eine Bewertung.',
  sv: 'Hur skulle du betygsätta den här sidan?|{n} stjärna|{n} stjärnor|Välj ett betyg.',
};

export default {
  name: 'star',
  global: 'HearkenStar',
  strings: [STRINGS],
  perPage: followPath,
  build(w) {
    const { t, data, region } = w;
    const wanted = Number(data.maxStars);
    const maxStars = Number.isInteger(wanted) && wanted >= 1 && wanted <= 10 ? wanted : 5;
    const radios = [];
    const stars = h('div', { class: 's', onchange: () => say(region, '') }); // a choice clears "please choose"
    for (let n = 1; n <= maxStars; n++) {
      const radio = h('input', { type: 'radio', name: 'r', value: n, 'aria-label': fill(n === 1 ? t.one_star : t.stars, n) });
      radios.push(radio);
      stars.append(h('label', {}, radio, h('span', { 'aria-hidden': 'true' }, '★'))); // the radio covers its star
    }
    const form = h(
      'form',
      { novalidate: true, onsubmit: submit },
      h('fieldset', {}, h('legend', {}, data.question || t.question), stars),
      h('button', { class: 'p' }, t.send),
    );

    async function submit(event) {
      event.preventDefault();
      const value = radios.findIndex((radio) => radio.checked) + 1;
      if (!value) return say(region, t.choose_rating, true), radios[0].focus();
      const rating = { type: 'star', value, max_stars: maxStars };
      if (await w.send('/api/v1/ratings', { rating, context: w.context() })) {
        form.hidden = true;
        say(region, t.thanks);
      }
    }

    w.style(baseCss + starCss, '#f59e0b', data.color);
    w.root.append(h('div', { class: 'w' }, form, region, w.powered(false)));
    return {
      reset() {
        form.reset();
        form.hidden = false;
        say(region, '');
      },
    };
  },
};
