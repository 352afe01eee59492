import type { FunctionComponent } from 'react';
import type { ContactOptions, FeedbackOptions, HelpfulOptions, NpsOptions, StarOptions, SurveyOptions } from './index.js';

export type * from './index.js';
export declare const HelpfulWidget: FunctionComponent<HelpfulOptions>;
export declare const StarWidget: FunctionComponent<StarOptions>;
export declare const NpsWidget: FunctionComponent<NpsOptions>;
export declare const ContactWidget: FunctionComponent<ContactOptions>;
export declare const FeedbackWidget: FunctionComponent<FeedbackOptions>;
/** Shows the project's surveys when their triggers match; an inline survey in the component's place. */
export declare const SurveyWidget: FunctionComponent<SurveyOptions>;
export { trackSurveyEvent } from './index.js';
