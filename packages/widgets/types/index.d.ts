/** Hearken's feedback widgets, mounted into an element of your page or app. */

/** Options every widget takes: the data- attributes of the script tags, in camelCase. */
export interface CommonOptions {
  /** The project's key (the console's Install page shows it). */
  projectKey: string;
  /** Your Hearken address, e.g. "https://feedback.example.com". */
  apiUrl: string;
  /** "en", "de" or "sv"; by default the browser's languages, else English. */
  language?: string;
  /** Your application or content version, stored with each submission. */
  version?: string;
  /** Show "Powered by Hearken" (hidden by default in helpful, star and nps; shown in contact and feedback). */
  showPoweredBy?: boolean | string;
  /** Replaces a text: textQuestion, textThanks, textNotLikely ("{n}" is replaced by the number). */
  [text: `text${string}`]: string | undefined;
}

export interface HelpfulOptions extends CommonOptions {
  question?: string;
  /** "#rgb" or "#rrggbb". */
  buttonColor?: string;
  /** After No, ask what was wrong. */
  reasons?: boolean | string;
  /** After No, offer a comment. */
  showCommentLink?: boolean | string;
}

export interface StarOptions extends CommonOptions {
  /** 1 to 10, default 5. */
  maxStars?: number | string;
  question?: string;
  color?: string;
}

export interface NpsOptions extends CommonOptions {
  question?: string;
  color?: string;
}

export type ButtonPosition = 'bottom-right' | 'right-side' | 'icon-only';

export interface ContactOptions extends CommonOptions {
  buttonPosition?: ButtonPosition;
  buttonText?: string;
  color?: string;
  showSubject?: boolean | string;
}

export interface FeedbackOptions extends CommonOptions {
  buttonPosition?: ButtonPosition;
  buttonText?: string;
  color?: string;
}

/** A mounted widget. */
export interface WidgetHandle {
  /** The widget's element (its content lives in a shadow root). */
  readonly container: HTMLElement;
  /**
   * Sends `id` as submitted_by (letters, digits, "-", "_") and `signature` as user_signature: your
   * backend's lower-case hex HMAC-SHA256 of the id, keyed by the project's identity secret. False (and no
   * change) for an invalid id.
   */
  setUser(id?: string | null, signature?: string): boolean;
  /** Shows the question (or the empty form) again. */
  reset(): void;
  /** Takes the widget out of the page with every listener it had. */
  remove(): void;
}

/** A mounted contact or feedback widget: a button that opens a dialog. */
export interface DialogWidgetHandle extends WidgetHandle {
  open(): void;
  close(): void;
}

export interface SurveyOptions {
  /** The project's key (the console's Install page shows it). */
  projectKey: string;
  /** Your Hearken address, e.g. "https://feedback.example.com". */
  apiUrl: string;
  /** "en", "de" or "sv" for the buttons, and the survey's language asked for; by default the browser's. */
  language?: string;
}

/** A mounted survey widget: it watches the project's active surveys' triggers and shows one when due. */
export interface SurveyHandle {
  /** The page's event `name` happened (a trigger's "event"; the script tag's Hearken.track). */
  track(name: string): void;
  /**
   * Shows the survey now, whatever its trigger; with `{force: true}` also when the visitor is outside its
   * sample, in a cooldown or already answered it. Resolves once the active surveys are known.
   */
  show(surveyId: string, options?: { force?: boolean }): Promise<void>;
  /** As WidgetHandle.setUser: sent with the answers; surveys for verified users only show with a signature. */
  setUser(id?: string | null, signature?: string): boolean;
  /** Stops watching and takes a shown survey out of the page. */
  remove(): void;
}

/** Surveys; an inline survey goes into `element` (without one: the end of <body>). */
export function mountSurvey(element: Element | null | undefined, options: SurveyOptions): SurveyHandle;
export function mountSurvey(options: SurveyOptions): SurveyHandle;
/** Tells every mounted survey widget (and so SurveyWidget components) that the page's event happened. */
export function trackSurveyEvent(name: string): void;
export function mountHelpful(element: Element, options: HelpfulOptions): WidgetHandle;
export function mountStar(element: Element, options: StarOptions): WidgetHandle;
export function mountNps(element: Element, options: NpsOptions): WidgetHandle;
/** The contact widget: setUserToken sends the person's token with the message (stored as theirs, verified). */
export interface ContactWidgetHandle extends DialogWidgetHandle {
  /** Identifies the person by a JWT (HS256) your backend signs with the project's identity secret, with
   * the claims sub, exp and optionally email and name: sent with the message instead of setUser's. */
  setUserToken(token: string | null): void;
}
export function mountContact(element: Element, options: ContactOptions): ContactWidgetHandle;
/** The feedback widget: for an identified person (setUser with a signature, or setUserToken) it also offers
 * Messages, their conversations with the team. */
export interface FeedbackWidgetHandle extends DialogWidgetHandle {
  /** Identifies the person by a JWT (HS256) your backend signs with the project's identity secret, with
   * the claims sub, exp and optionally email and name: Messages uses it instead of setUser's signature,
   * and it goes with the feedback the person sends. */
  setUserToken(token: string | null): void;
}

export function mountFeedback(element: Element, options: FeedbackOptions): FeedbackWidgetHandle;
