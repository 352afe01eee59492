// Replace the two values under customFields.hearken with your own.
export default {
  title: 'Example docs',
  url: 'https://docs.example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  customFields: {
    hearken: { url: 'https://hearken.example.com', projectKey: 'HEARKEN-PROJECT-KEY' },
  },
  presets: [['classic', { docs: { routeBasePath: '/' }, blog: false }]],
};
