// Builds the served widgets: each src/<name>.js (which describes its widget) started from its script tag
// by src/shared/script.js, with its shared modules and minified CSS, into one self-contained, minified
// file static/widgets/v1/<name>.js. Run by `make setup` (esbuild and terser from package.json). esbuild
// bundles; terser minifies, a few percent smaller than esbuild's minifier, which the byte budgets need.

import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { MEDIA, SOURCES, SURVEY, WIDGETS, checkTextNames, cssAsText, generatedEntries, terserOptions } from './bundling.mjs';

const outdir = join(dirname(fileURLToPath(import.meta.url)), 'v1');
await checkTextNames();
await mkdir(outdir, { recursive: true }); // a fresh checkout has none
const { outputFiles } = await build({
  entryPoints: Object.fromEntries(WIDGETS.map((name) => [name, `script:${name}`])),
  outdir,
  write: false,
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'none',
  plugins: [
    cssAsText,
    generatedEntries('script', (name) => `import w from './${name}.js'; import { start } from './shared/script.js'; start(w);`),
  ],
  logLevel: 'warning',
});

for (const file of outputFiles) {
  const { code } = await minify(file.text, terserOptions);
  await writeFile(file.path, code);
}

// Files that start themselves: the feedback widget's image code and Messages view, which the widget fetches
// only when a visitor asks for them, and the survey loader with the renderer it fetches only when a survey is due.
// Their property names stay as written: each talks to a file bundled (and renamed) separately.
const media = await build({
  entryPoints: Object.fromEntries([...MEDIA, ...SURVEY].map((name) => [name, join(SOURCES, `${name}.js`)])),
  outdir,
  write: false,
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'none',
  plugins: [cssAsText],
  logLevel: 'warning',
});
for (const file of media.outputFiles) {
  const { code } = await minify(file.text, { ...terserOptions, mangle: true });
  await writeFile(file.path, code);
}
