import type { DefineComponent } from 'vue';
import type { ContactOptions, FeedbackOptions, HelpfulOptions, NpsOptions, StarOptions, SurveyOptions } from './index.js';

export type * from './index.js';
/** Attributes are the options, in camelCase or kebab-case: project-key, api-url, max-stars. */
export declare const HelpfulWidget: DefineComponent<HelpfulOptions>;
export declare const StarWidget: DefineComponent<StarOptions>;
export declare const NpsWidget: DefineComponent<NpsOptions>;
export declare const ContactWidget: DefineComponent<ContactOptions>;
export declare const FeedbackWidget: DefineComponent<FeedbackOptions>;
/** Shows the project's surveys when their triggers match; an inline survey in the component's place. */
export declare const SurveyWidget: DefineComponent<SurveyOptions>;
export { trackSurveyEvent } from './index.js';
