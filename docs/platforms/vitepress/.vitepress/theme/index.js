// The default theme with Hearken's "Was this page helpful?" in its doc-footer-before slot: after each
// page's content, before its footer (edit link, previous and next page). The component stays while VitePress's router changes pages,
// and asks again on each new page.
import { HelpfulWidget } from '@hearken/widgets/vue';
import { useData } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import { h } from 'vue';

const Helpful = {
  setup() {
    const { theme } = useData();
    return () => h(HelpfulWidget, { projectKey: theme.value.hearken.projectKey, apiUrl: theme.value.hearken.url });
  },
};

export default {
  extends: DefaultTheme,
  Layout: () => h(DefaultTheme.Layout, null, { 'doc-footer-before': () => h(Helpful) }),
};
