/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, parseSync, runnerImport, type Plugin, type ResolvedConfig, type Rollup } from 'vite';
import { APP_LAYOUT, APP_SCREENS, PUBLIC_SCREENS } from './src/app/screens.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text file of the build, public
 * files included; the server sends the one the browser accepts (apps/server/src/plugins/portal.ts). Files under
 * 1 KB and copies that save under 10% are left out: the server then sends the file as it is.
 */
function precompress(): Plugin {
  let config: ResolvedConfig;
  const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
  async function* files(dir: string): AsyncGenerator<string> {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) yield* files(full);
      } else if (TEXT.test(entry.name)) yield full;
    }
  }
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const jobs: Promise<void>[] = [];
      for await (const file of files(outDir)) {
        jobs.push(
          (async () => {
            const data = await fs.readFile(file);
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
              gzip(data, { level: 9 }),
            ]);
            if (br.length < data.length * 0.9) await fs.writeFile(`${file}.br`, br);
            if (gz.length < data.length * 0.9) await fs.writeFile(`${file}.gz`, gz);
          })(),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * `BUNDLE_LIST=1 npm run build`: prints each chunk with its largest modules (rendered size), to see what a page
 * loads (`bench/lighthouse.bench.ts` measures what the sign-in page downloads).
 */
function bundleList(): Plugin {
  return {
    name: 'bundle-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (!process.env.BUNDLE_LIST) return;
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
      for (const chunk of Object.values(bundle).sort((a, b) => a.fileName.localeCompare(b.fileName))) {
        if (chunk.type !== 'chunk') continue;
        console.log(`${chunk.fileName}${chunk.isEntry ? ' (entry)' : ''} ${kb(chunk.code.length)} imports: ${chunk.imports.join(', ') || '-'}`);
        const modules = Object.entries(chunk.modules).sort((a, b) => b[1].renderedLength - a[1].renderedLength);
        for (const [id, m] of modules.slice(0, Number(process.env.BUNDLE_LIST) > 1 ? Number(process.env.BUNDLE_LIST) : 12))
          if (m.renderedLength > 0) console.log(`  ${kb(m.renderedLength)}  ${id.replace(/^.*node_modules\//, '~/').replace(process.cwd(), '.')}`);
      }
    },
  };
}

/**
 * Evaluating the portal's modules is the largest piece of work at start (some 480 KB of script), and it ran in one
 * task: 50-130 ms on this machine, four times that on a phone. The build puts React and React DOM, zod, and TanStack
 * Query with the router and zustand in chunks of their own (`codeSplitting.groups`); a chunk only defines its modules,
 * each evaluated when first needed. Small entries under src/boot/ need them: the page names them (`portal-stage`), and
 * boot.js runs each as a module of its own, one after the other, before the entry, which then evaluates only the
 * portal's own modules. Four tasks instead of one, the browser free in between; every file is fetched at once as
 * before (`portal-preload`). Each stage's entry name and module, in the order they run.
 */
const STAGE_ENTRIES = {
  'stage-react': 'src/boot/react.ts',
  'stage-zod': 'src/boot/zod.ts',
  'stage-libraries': 'src/boot/libraries.ts',
} as const;
const STAGES = Object.keys(STAGE_ENTRIES);

/**
 * The page's scripts start once the browser has painted what the server put in the page (a signed-in screen's frame
 * and skeleton): the page names its entry module and the modules to fetch beside it (`portal-entry`,
 * `portal-preload`), and public/boot.js asks for them after that first paint. Asked for at once, they would share
 * a phone's bandwidth with the page and its style sheet, and hold that paint for a second.
 */
function entryAfterPaint(): Plugin {
  return {
    name: 'entry-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!entry) throw new Error('entry-after-paint: no entry script in index.html');
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
        const stages = STAGES.map((name) => chunks.find((c) => c.name === name && c.isEntry)?.fileName);
        if (ctx.bundle && stages.some((f) => !f)) throw new Error(`entry-after-paint: no chunk for each of ${STAGES.join(', ')}`);
        return (
          html
            .replace(
              entry[0],
              [
                ...stages.map((f) => `<meta name="portal-stage" content="/${f}" />`),
                `<meta name="portal-entry" content="${entry[1]}" />`,
                '<script src="/boot.js" defer></script>',
              ].join('\n    '),
            )
            .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">/g, '<meta name="portal-preload" content="$1" />')
            // the stages and the entry are fetched beside the rest, not each only when the one before has run
            .replace('</head>', `${[...stages, entry[1]!.slice(1)].map((f) => `  <meta name="portal-preload" content="/${f}" />\n`).join('')}  </head>`)
        );
      },
    },
  };
}

/**
 * The contract's module-level schemas (`export const Partner = z.object(...)`, those made by `safeText()` or
 * `addressText()`, and objects of fields that schemas spread) are built when first used, not when their module is evaluated: src/lib/lazy-schema.ts. Evaluating
 * the contract built some 200 schemas at start, a third of the portal's first long task on a phone, for the few the
 * first screen uses. The server and the contract's own tests use the contract as it is written.
 */
function lazyContractSchemas(): Plugin {
  const contract = path.resolve(import.meta.dirname, '../../packages/contract/src') + path.sep;
  const helper = path.resolve(import.meta.dirname, 'src/lib/lazy-schema.ts');
  type Node = { type: string; start: number; end: number; [key: string]: unknown };
  const FACTORIES = new Set(['safeText', 'addressText']);
  // a chain of calls and fields that starts at `z`, or a call of one of the contract's schema factories
  const isSchema = (node: Node): boolean => {
    let n = node;
    for (;;) {
      if (n.type === 'TSAsExpression' || n.type === 'TSSatisfiesExpression' || n.type === 'ParenthesizedExpression') n = n.expression as Node;
      else if (n.type === 'CallExpression') {
        const callee = n.callee as Node;
        if (callee.type === 'Identifier' && FACTORIES.has(callee.name as string)) return true;
        n = callee;
      } else if (n.type === 'MemberExpression') n = n.object as Node;
      else return n.type === 'Identifier' && n.name === 'z';
    }
  };
  // an object of fields (`{ table: SearchTable, idFilter: safeText(...) }`) that schemas spread: built when first read too
  const isSchemaFields = (node: Node): boolean =>
    node.type === 'ObjectExpression' && (node.properties as Node[]).some((p) => p.type === 'Property' && isSchema(p.value as Node));
  return {
    name: 'lazy-contract-schemas',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(contract) || !id.endsWith('.ts') || id.endsWith('.test.ts')) return;
      const { program } = parseSync(id, code) as unknown as { program: { body: Node[] } };
      const inits: Node[] = [];
      for (const statement of program.body) {
        const declaration = (statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement) as Node | null;
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
        for (const d of declaration.declarations as Node[])
          if (d.init && (isSchema(d.init as Node) || isSchemaFields(d.init as Node))) inits.push(d.init as Node);
      }
      if (inits.length === 0) return;
      let out = code;
      for (const init of inits.sort((a, b) => b.start - a.start))
        out = `${out.slice(0, init.start)}__lazySchema(() => (${out.slice(init.start, init.end)}))${out.slice(init.end)}`;
      return { code: `import { lazySchema as __lazySchema } from ${JSON.stringify(helper)};\n${out}`, map: null };
    },
  };
}

/** Where the server finds, for each route, the files to name in its page (apps/server/src/plugins/portal.ts). */
export const ROUTE_PRELOADS = '.vite/route-preloads.json';

/**
 * Writes ROUTE_PRELOADS: for each route of src/app/screens.ts, the chunks its lazy modules need (the frame's too,
 * for a signed-in screen), less those the page already loads. The server announces them as
 * `<link rel="modulepreload">`, so a reload of /transactions fetches its screen beside the entry, not after it.
 */
function routePreloads(): Plugin {
  return {
    name: 'route-preloads',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: Rollup.OutputChunk[], out = new Set<string>()) => {
        const queue = [...start];
        while (queue.length) {
          const chunk = queue.pop()!;
          if (out.has(chunk.fileName)) continue;
          out.add(chunk.fileName);
          for (const f of chunk.imports) queue.push(byFile.get(f)!);
        }
        return out;
      };
      const inPage = closure(chunks.filter((c) => c.isEntry));
      const chunkOf = (module: string) => {
        const id = path.resolve(import.meta.dirname, 'src', module);
        const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.isDynamicEntry && c.moduleIds.includes(id));
        if (!chunk) this.error(`route-preloads: no chunk for ${module}`);
        return chunk;
      };
      const files = (modules: string[]) => [...closure(modules.map(chunkOf))].filter((f) => !inPage.has(f));
      // the frame and the screen's skeleton, drawn here with the portal's own components (see src/app/layout/shell.tsx)
      const { module: shell } = await runnerImport<{ shellMarkups: (pathname: string) => Promise<Record<string, string>> }>(
        path.resolve(import.meta.dirname, 'src/app/layout/shell.tsx'),
        {
          configFile: false,
          root: import.meta.dirname,
          logLevel: 'warn',
        },
      );
      const routes: { path: string; files: string[]; shell?: Record<string, string> }[] = [
        ...PUBLIC_SCREENS.map((s) => ({ path: s.meta.path, files: files([s.module]) })),
      ];
      // one skeleton per language
      for (const s of APP_SCREENS) routes.push({ path: s.meta.path, files: files([APP_LAYOUT, s.module]), shell: await shell.shellMarkups(s.meta.path) });
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS, source: `${JSON.stringify({ routes }, null, 1)}\n` });
    },
  };
}

/** The product's version (the repository's package.json), the commit and the time of this build: the About screen. */
function buildInfo() {
  const root = new URL('../../', import.meta.url);
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version?: string };
  let commit = process.env.PORTAL_COMMIT ?? '';
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      commit = 'unknown';
    }
  }
  return { version: version ?? '0.0.0', commit, builtAt: new Date().toISOString() };
}

export default defineConfig({
  plugins: [lazyContractSchemas(), react(), tailwindcss(), entryAfterPaint(), bundleList(), routePreloads(), precompress()],
  define: { __PORTAL_BUILD__: JSON.stringify(buildInfo()) },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8080', '/healthz': 'http://127.0.0.1:8080', '/readyz': 'http://127.0.0.1:8080' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600, // the largest chunk (React and React DOM) is ~215 KB before compression
    rolldownOptions: {
      // the page (index.html) and the stages boot.js runs before it (STAGES)
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        ...Object.fromEntries(Object.entries(STAGE_ENTRIES).map(([name, module]) => [name, path.resolve(import.meta.dirname, module)])),
      },
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // what every page starts with: the libraries the stages make ready (STAGE_ENTRIES), and the portal's own modules
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 2 },
            { name: 'libraries', test: /[\\/]node_modules[\\/](@tanstack|react-router|zustand)[\\/]/, priority: 1 },
            { name: 'app', tags: ['$initial'] },
          ],
          experimentalInlineCommonChunks: { maxSize: 4096 },
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // the files of a worker share one page and module graph (about 30 s instead of 105 on two cores): what a test
    // leaves on the page or in a module is reset after each test (src/testing/setup.ts)
    isolate: false,
  },
});
