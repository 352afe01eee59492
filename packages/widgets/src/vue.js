// Vue components for the widgets: <HelpfulWidget project-key="..." api-url="..." />. Each mounts its
// widget into a <div> of its own and removes it on unmount; changed attributes mount it afresh. Route
// changes of the app's router (Vue Router calls history.pushState) are followed by the helpful, star
// and NPS widgets themselves: a new path asks again (and the survey widget
// looks at its triggers again). trackSurveyEvent(name) is the page's Hearken.track(name).

import { camelize, defineComponent, h, onBeforeUnmount, onMounted, onUpdated, ref } from 'vue';
import { mountContact, mountFeedback, mountHelpful, mountNps, mountStar, mountSurvey } from './index.js';

function component(mount, name) {
  return defineComponent({
    name,
    inheritAttrs: false, // every attribute is an option of the widget, none lands on the <div>
    setup(_, { attrs }) {
      const element = ref(null);
      let handle;
      let mounted;
      const start = () => {
        const options = {};
        for (const key in attrs) options[camelize(key)] = attrs[key];
        const wanted = JSON.stringify(options);
        if (wanted === mounted) return;
        handle?.remove();
        handle = mount(element.value, options);
        mounted = wanted;
      };
      onMounted(start);
      onUpdated(start);
      onBeforeUnmount(() => handle?.remove());
      return () => h('div', { ref: element, class: 'hearken-widget' });
    },
  });
}

export const HelpfulWidget = component(mountHelpful, 'HelpfulWidget');
export const StarWidget = component(mountStar, 'StarWidget');
export const NpsWidget = component(mountNps, 'NpsWidget');
export const ContactWidget = component(mountContact, 'ContactWidget');
export const FeedbackWidget = component(mountFeedback, 'FeedbackWidget');
/** Shows the project's surveys when their triggers match; an inline survey in this component's place. */
export const SurveyWidget = component(mountSurvey, 'SurveyWidget');
export { trackSurveyEvent } from './index.js';
