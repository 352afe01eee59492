// What the served widgets (build.mjs) and the npm package (packages/widgets/build.mjs) bundle alike:
// the widgets' names and sources, CSS imported as text, and terser's settings.

import { transform } from 'esbuild';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SOURCES = join(here, 'src');
export const WIDGETS = ['helpful', 'contact', 'feedback', 'star', 'nps'];
/** The feedback widget's image code and Messages view, loaded by it on demand (src/feedback-media.js,
 * src/feedback-messages.js). */
export const MEDIA = ['feedback-media', 'feedback-messages'];
/** The survey widget: its loader (src/survey.js) and the renderer the loader fetches when a survey is due. */
export const SURVEY = ['survey', 'survey-renderer'];

/** `import css from './x.css'` gives the file's minified text, ready for a constructable stylesheet. */
export const cssAsText = {
  name: 'css-as-text',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      const { code } = await transform(await readFile(path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code.trim(), loader: 'text' };
    });
  },
};

/**
 * `<prefix>:<name>` resolves to a generated module `contents(name)` beside the widgets' sources: the
 * entry of one widget file.
 */
export const generatedEntries = (prefix, contents) => ({
  name: `${prefix}-entries`,
  setup(esbuild) {
    esbuild.onResolve({ filter: new RegExp(`^${prefix}:`) }, ({ path }) => ({
      path: path.slice(prefix.length + 1),
      namespace: prefix,
    }));
    esbuild.onLoad({ filter: /.*/, namespace: prefix }, ({ path }) => ({ contents: contents(path), resolveDir: SOURCES }));
  },
});

/**
 * The properties that only the widgets' own modules read (the widget description and the `w` that
 * create() hands to build) get short names. Never one that a request body or the DOM carries: terser
 * renames every property of that name, which is also why no text may be named like one (`t.<name>`),
 * as checkTextNames holds.
 */
const INTERNAL = ['data', 'build', 'perPage', 'strings', 'floating', 'region', 'root', 'style', 'powered', 'names', 'user'];

/** Terser's settings for every widget file, served or packaged. */
export const terserOptions = {
  ecma: 2020,
  toplevel: true,
  compress: { passes: 3, unsafe_arrows: true, pure_getters: true },
  mangle: { properties: { builtins: true, regex: new RegExp(`^(${INTERNAL.join('|')})$`) } },
  format: { comments: false },
};

/** Fails the build when a text table (`names: '...'`) names a text like a renamed property. */
export async function checkTextNames() {
  for (const dir of [SOURCES, join(SOURCES, 'shared')]) {
    for (const file of await readdir(dir)) {
      if (!file.endsWith('.js')) continue;
      const source = await readFile(join(dir, file), 'utf8');
      for (const [, names] of source.matchAll(/names: '([^']*)'/g)) {
        const clash = names.split(' ').find((name) => INTERNAL.includes(name));
        if (clash) throw new Error(`${file}: the text "${clash}" has the name of an internal property`);
      }
    }
  }
}
