// One copy of React for the app and the linked @hearken/widgets package.
export default { resolve: { dedupe: ['react', 'react-dom'] }, logLevel: 'warn' };
