// The survey renderer file (survey-renderer.js), loaded by the survey loader only when a survey is due.
// Its one name, window.HearkenSurveyRenderer, is what the loader (bundled separately) reads.

import { render } from './survey-form.js';

window.HearkenSurveyRenderer = render;
