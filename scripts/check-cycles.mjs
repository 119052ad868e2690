// Import cycles of any kind in the apps and packages, type-only imports included: import-x/no-cycle skips
// `import type` (erased at run time), yet a loop of types is a loop of design. Every file of each project's tsconfig
// is read with the TypeScript compiler's own pre-processor (imports, `export ... from`, dynamic imports), each
// specifier resolved as tsc resolves it; a strongly connected group of files is a cycle, printed, and fails.
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
/** The projects read: these, or the directories given as arguments (a test checks the check on a probe). */
const PROJECTS = process.argv.length > 2 ? process.argv.slice(2) : ['packages/contract', 'packages/client', 'apps/server', 'apps/web', 'e2e', 'bench'];
/** Where an imported file counts: the repository, and any project given from outside it. */
const roots = [root, ...PROJECTS.map((project) => path.resolve(root, project))];

/** file -> the repository's files it imports (any kind of import) */
const graph = new Map();
for (const project of PROJECTS) {
  const configFile = ts.findConfigFile(path.resolve(root, project), ts.sys.fileExists);
  if (!configFile) throw new Error(`no tsconfig in ${project}`);
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile));
  const host = ts.createCompilerHost(parsed.options);
  for (const file of parsed.fileNames) {
    if (graph.has(file)) continue;
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    const targets = new Set();
    for (const { fileName } of info.importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, parsed.options, host).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = ts.sys.realpath ? ts.sys.realpath(resolved.resolvedFileName) : resolved.resolvedFileName;
      if (roots.some((dir) => target.startsWith(dir)) && !target.includes('/node_modules/')) targets.add(target);
    }
    graph.set(file, targets);
  }
}

// Tarjan's strongly connected components
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const groups = [];
function connect(v) {
  order.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!order.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
  }
  if (low.get(v) === order.get(v)) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.has(v)) groups.push(group);
  }
}
for (const v of graph.keys()) if (!order.has(v)) connect(v);

/** One shortest loop through the group's first file, to print. */
function loopOf(group) {
  const members = new Set(group);
  const start = [...group].sort()[0];
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const loop = [start];
        for (let at = v; at !== start; at = from.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (members.has(w) && !from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

const rel = (file) => path.relative(root, file);
if (groups.length === 0) {
  console.log(`No import cycles (type imports included) in ${graph.size} files of ${PROJECTS.join(', ')}.`);
} else {
  for (const group of groups) {
    console.error(`Import cycle of ${group.length} files (type imports count):\n  ${loopOf(group).map(rel).join('\n  -> ')}`);
  }
  console.error(`\n${groups.length} import cycle(s): break each (a type in its own file, a port passed in, a module's face).`);
  process.exit(1);
}
