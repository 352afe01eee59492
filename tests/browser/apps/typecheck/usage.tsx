// The package's types as an app written in TypeScript uses them (tsc --noEmit in
// tests/browser/test_widget_package.py): what must compile does, and each @ts-expect-error marks a mistake
// the types must catch (an unused one fails the check).
import { mountContact, mountHelpful, mountSurvey, trackSurveyEvent, type SurveyHandle, type WidgetHandle } from '@hearken/widgets';
import { HelpfulWidget, StarWidget, SurveyWidget } from '@hearken/widgets/react';
import { NpsWidget, SurveyWidget as VueSurveyWidget } from '@hearken/widgets/vue';

const element = document.createElement('div');
const helpful: WidgetHandle = mountHelpful(element, {
  projectKey: 'pk_test',
  apiUrl: 'https://feedback.example.com',
  reasons: true,
  textQuestion: 'Did this help?',
});
const accepted: boolean = helpful.setUser('user_1');
helpful.reset();
helpful.remove();
mountContact(element, { projectKey: 'pk_test', apiUrl: 'https://feedback.example.com', buttonPosition: 'icon-only' }).open();

const survey: SurveyHandle = mountSurvey({ projectKey: 'pk_test', apiUrl: 'https://feedback.example.com', language: 'de' });
survey.track('checkout_done');
void survey.show('a-survey-id', { force: true }).then(() => survey.remove());
mountSurvey(element, { projectKey: 'pk_test', apiUrl: 'https://feedback.example.com' }).setUser('user_1', 'ab12');
trackSurveyEvent('signed_up');

export const page = (
  <main>
    <HelpfulWidget projectKey="pk_test" apiUrl="https://feedback.example.com" showCommentLink />
    <StarWidget projectKey="pk_test" apiUrl="https://feedback.example.com" maxStars={10} />
    <SurveyWidget projectKey="pk_test" apiUrl="https://feedback.example.com" />
  </main>
);
export const vue = [NpsWidget, VueSurveyWidget, accepted];

// @ts-expect-error projectKey is required
mountHelpful(element, { apiUrl: 'https://feedback.example.com' });
// @ts-expect-error a button position that does not exist
mountContact(element, { projectKey: 'pk_test', apiUrl: 'https://feedback.example.com', buttonPosition: 'top' });
// @ts-expect-error setUser answers whether the id was taken, not a string
const wrong: string = helpful.setUser('user_1');
// @ts-expect-error an option no widget has
export const typo = <HelpfulWidget projectKey="pk_test" apiUrl="https://feedback.example.com" colour="#fff" />;
// @ts-expect-error show takes a survey id
void survey.show(42);
// @ts-expect-error apiUrl is required
mountSurvey({ projectKey: 'pk_test' });
export { wrong };
