// Builds the npm package into dist/ from the same sources as the served widgets (static/widgets/src):
// one self-contained, minified ES module per widget (dist/<name>.js exporting mount<Name>; dist/survey.js
// mountSurvey and trackSurveyEvent), index.js
// re-exporting them, react.js and vue.js with the components, and the TypeScript types. Run by
// `make setup`; esbuild and terser come from the repository's package.json.

import { build } from 'esbuild';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { WIDGETS, checkTextNames, cssAsText, generatedEntries, terserOptions } from '../../static/widgets/bundling.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const mountName = (name) => 'mount' + name[0].toUpperCase() + name.slice(1);
const mountModule = join(here, 'src', 'mount.js');

await checkTextNames();
await rm(dist, { recursive: true, force: true });
await mkdir(dist);
const widgets = await build({
  entryPoints: { ...Object.fromEntries(WIDGETS.map((name) => [name, `package:${name}`])), survey: join(here, 'src', 'survey.js') },
  outdir: dist,
  write: false,
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'none',
  plugins: [
    cssAsText,
    generatedEntries(
      'package',
      (name) =>
        `import w from './${name}.js'; import { mount } from ${JSON.stringify(mountModule)};\n` +
        `export const ${mountName(name)} = (element, options) => mount(w, element, options);`,
    ),
  ],
  logLevel: 'warning',
});
for (const file of widgets.outputFiles) {
  const { code } = await minify(file.text, { ...terserOptions, module: true });
  await writeFile(file.path, code);
}
await writeFile(
  join(dist, 'index.js'),
  WIDGETS.map((name) => `export { ${mountName(name)} } from './${name}.js';\n`).join('') +
    "export { mountSurvey, trackSurveyEvent } from './survey.js';\n",
);
await build({
  entryPoints: [join(here, 'src', 'react.js'), join(here, 'src', 'vue.js')],
  outdir: dist,
  format: 'esm',
  target: ['es2020'],
  logLevel: 'warning',
});
for (const types of ['index.d.ts', 'react.d.ts', 'vue.d.ts']) await copyFile(join(here, 'types', types), join(dist, types));
