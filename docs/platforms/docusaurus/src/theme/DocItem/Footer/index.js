// Wraps the theme's doc footer (tags, edit link) to put Hearken's "Was this page helpful?" after each
// doc's text. Docusaurus keeps the component while its router changes docs; the widget asks again on
// each new path. (Made as `npm run swizzle @docusaurus/theme-classic DocItem/Footer -- --wrap` makes it.)
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { HelpfulWidget } from '@hearken/widgets/react';
import Footer from '@theme-original/DocItem/Footer';
import React from 'react';

export default function FooterWrapper(props) {
  const { hearken } = useDocusaurusContext().siteConfig.customFields;
  return (
    <>
      <HelpfulWidget projectKey={hearken.projectKey} apiUrl={hearken.url} />
      <Footer {...props} />
    </>
  );
}
