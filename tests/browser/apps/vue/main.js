// A Vue app with Vue Router: the helpful and survey widgets sit in the layout and stay across routes; the
// star widget belongs to the guide page and goes with it.
import { createApp, h } from 'vue';
import { RouterLink, RouterView, createRouter, createWebHistory } from 'vue-router';
import { HelpfulWidget, StarWidget, SurveyWidget } from '@hearken/widgets/vue';

const { projectKey, apiUrl } = window.hearkenConfig; // served by the test beside the built app

const Home = { render: () => h('article', [h('h1', 'Home'), h('p', 'Welcome.')]) };
const Guide = {
  render: () => h('article', [h('h1', 'Guide'), h(StarWidget, { 'project-key': projectKey, 'api-url': apiUrl, 'max-stars': 5 })]),
};
const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', component: Home },
    { path: '/guide', component: Guide },
  ],
});
const Layout = {
  render: () =>
    h('div', [
      h('nav', [h(RouterLink, { to: '/' }, () => 'Home'), ' ', h(RouterLink, { to: '/guide' }, () => 'Guide')]),
      h(RouterView),
      h(HelpfulWidget, { projectKey, apiUrl, question: 'Was this Vue page helpful?' }),
      h('aside', { id: 'surveys' }, [h(SurveyWidget, { 'project-key': projectKey, 'api-url': apiUrl })]),
    ]),
};

createApp(Layout).use(router).mount('#app');
