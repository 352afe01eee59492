// React components for the widgets: <HelpfulWidget projectKey="..." apiUrl="..." />. Each mounts its
// widget into a <div> of its own after rendering and removes it on unmount; changed options mount it
// afresh. Route changes of the app's router (React Router and the like call history.pushState) are
// followed by the helpful, star and NPS widgets themselves: a new path asks again (and the survey widget
// looks at its triggers again). trackSurveyEvent(name) is the page's Hearken.track(name).

import { createElement, useEffect, useRef } from 'react';
import { mountContact, mountFeedback, mountHelpful, mountNps, mountStar, mountSurvey } from './index.js';

function component(mount, displayName) {
  function Widget(props) {
    const element = useRef(null);
    const options = JSON.stringify(props);
    useEffect(() => {
      const handle = mount(element.current, JSON.parse(options));
      return () => handle.remove();
    }, [options]);
    return createElement('div', { ref: element, className: 'hearken-widget' });
  }
  Widget.displayName = displayName;
  return Widget;
}

export const HelpfulWidget = component(mountHelpful, 'HelpfulWidget');
export const StarWidget = component(mountStar, 'StarWidget');
export const NpsWidget = component(mountNps, 'NpsWidget');
export const ContactWidget = component(mountContact, 'ContactWidget');
export const FeedbackWidget = component(mountFeedback, 'FeedbackWidget');
/** Shows the project's surveys when their triggers match; an inline survey in this component's place. */
export const SurveyWidget = component(mountSurvey, 'SurveyWidget');
export { trackSurveyEvent } from './index.js';
