// A React app with React Router: the helpful and survey widgets sit in the layout and stay across routes;
// the star widget belongs to the guide page and goes with it.
import { createElement as h, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { HelpfulWidget, StarWidget, SurveyWidget } from '@hearken/widgets/react';

const { projectKey, apiUrl } = window.hearkenConfig; // served by the test beside the built app

const Home = () => h('article', null, h('h1', null, 'Home'), h('p', null, 'Welcome.'));
const Guide = () =>
  h('article', null, h('h1', null, 'Guide'), h(StarWidget, { projectKey, apiUrl, maxStars: 5 }));

function Layout() {
  return h(
    'div',
    null,
    h('nav', null, h(Link, { to: '/' }, 'Home'), ' ', h(Link, { to: '/guide' }, 'Guide')),
    h(Routes, null, h(Route, { path: '/', element: h(Home) }), h(Route, { path: '/guide', element: h(Guide) })),
    h(HelpfulWidget, { projectKey, apiUrl, question: 'Was this React page helpful?' }),
    h('aside', { id: 'surveys' }, h(SurveyWidget, { projectKey, apiUrl })),
  );
}

createRoot(document.getElementById('root')).render(h(StrictMode, null, h(BrowserRouter, null, h(Layout))));
