// Every package a workspace imports is declared in that workspace's package.json (not only found through hoisting),
// with its @types package where it has no types of its own. Prints what is missing; exit 1 when anything is.
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Each package.json and the files whose imports it answers for. */
const WORKSPACES = [
  { dir: '.', files: ['bench', 'scripts', 'eslint.config.js', 'vitest.config.ts'] },
  { dir: 'packages/contract', files: ['src'] },
  { dir: 'packages/client', files: ['src', 'examples'] },
  { dir: 'apps/server', files: ['src', 'test'] },
  { dir: 'apps/web', files: ['src', 'public', 'vite.config.ts'] },
  { dir: 'e2e', files: ['.'] },
];
const SOURCE = /\.(?:ts|tsx|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', '.data', 'screenshots']);
const BUILTINS = new Set(builtinModules);

function walk(p, out = []) {
  if (!fs.existsSync(p)) return out;
  const stat = fs.statSync(p);
  if (stat.isFile()) {
    if (SOURCE.test(p)) out.push(p);
    return out;
  }
  for (const entry of fs.readdirSync(p)) if (!SKIP.has(entry)) walk(path.join(p, entry), out);
  return out;
}

/** Bare specifiers of a file: static and dynamic imports, re-exports, require, triple-slash type references. */
function specifiers(code) {
  const found = new Set();
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\/\/\/\s*<reference\s+types="([^"]+)"/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.add(m[1]);
  return [...found].filter((s) => !s.startsWith('.') && !s.startsWith('/'));
}

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const isBuiltin = (spec) => spec.startsWith('node:') || BUILTINS.has(packageOf(spec));

/** Whether an installed package brings its own type declarations. */
function hasOwnTypes(name) {
  const dir = path.join(root, 'node_modules', name);
  const manifest = path.join(dir, 'package.json');
  if (!fs.existsSync(manifest)) return true; // not installed: reported as undeclared anyway
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (pkg.types || pkg.typings || fs.existsSync(path.join(dir, 'index.d.ts'))) return true;
  return JSON.stringify(pkg.exports ?? {}).includes('"types"') || JSON.stringify(pkg.exports ?? {}).includes('.d.ts');
}
const typesPackage = (name) => `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;

let missing = 0;
for (const ws of WORKSPACES) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, ws.dir, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }));
  const needs = new Map(); // package -> a file that needs it
  const need = (name, file) => needs.has(name) || needs.set(name, path.relative(root, file));
  for (const file of ws.files.flatMap((f) => walk(path.join(root, ws.dir, f)))) {
    const code = fs.readFileSync(file, 'utf8');
    for (const spec of specifiers(code)) {
      if (isBuiltin(spec)) {
        if (/\.tsx?$/.test(file)) need('@types/node', file);
        continue;
      }
      const name = packageOf(spec);
      if (name === pkg.name) continue;
      need(name, file);
      if (/\.tsx?$/.test(file) && !hasOwnTypes(name) && fs.existsSync(path.join(root, 'node_modules', typesPackage(name)))) need(typesPackage(name), file);
    }
  }
  for (const [name, file] of needs) {
    if (declared.has(name)) continue;
    missing += 1;
    console.log(`${path.join(ws.dir, 'package.json')}: ${name} is not declared (imported by ${file})`);
  }
}
if (missing) {
  console.log(`\n${missing} undeclared package(s): add each to the package.json that imports it.`);
  process.exit(1);
}
console.log('Every workspace declares the packages it imports.');
