// Builds the served widgets: each src/<name>.js with its shared modules and minified CSS into one
// self-contained, minified file static/widgets/v1/<name>.js. Run by `make setup` (esbuild from package.json).

import { build, transform } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const widgets = ['helpful', 'contact', 'feedback', 'star'];

/** `import css from './x.css'` gives the file's minified text, ready for a constructable stylesheet. */
const cssAsText = {
  name: 'css-as-text',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      const { code } = await transform(await readFile(path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code.trim(), loader: 'text' };
    });
  },
};

await build({
  entryPoints: widgets.map((name) => join(here, 'src', `${name}.js`)),
  outdir: join(here, 'v1'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'none',
  plugins: [cssAsText],
  logLevel: 'warning',
});
