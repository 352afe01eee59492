// Replace the two values under themeConfig.hearken with your own.
export default {
  title: 'Example docs',
  themeConfig: {
    hearken: { url: 'https://hearken.example.com', projectKey: 'HEARKEN-PROJECT-KEY' },
  },
};
