// Builds the served widgets: each src/<name>.js with its shared modules and minified CSS into one
// self-contained, minified file static/widgets/v1/<name>.js. Run by `make setup` (esbuild and terser
// from package.json). esbuild bundles; terser minifies, a few percent smaller than esbuild's minifier,
// which the widgets' byte budgets need.

import { build, transform } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

const here = dirname(fileURLToPath(import.meta.url));
const widgets = ['helpful', 'contact', 'feedback', 'star', 'nps'];

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

const outdir = join(here, 'v1');
await mkdir(outdir, { recursive: true }); // a fresh checkout has none
const { outputFiles } = await build({
  entryPoints: widgets.map((name) => join(here, 'src', `${name}.js`)),
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

for (const file of outputFiles) {
  const { code } = await minify(file.text, {
    ecma: 2020,
    toplevel: true,
    compress: { passes: 3, unsafe_arrows: true, pure_getters: true },
    format: { comments: false },
  });
  await writeFile(file.path, code);
}
