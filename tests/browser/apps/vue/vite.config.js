// One copy of Vue for the app and the linked @hearken/widgets package.
export default { resolve: { dedupe: ['vue'] }, logLevel: 'warn' };
