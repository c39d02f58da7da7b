import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Lint's import-x/no-cycle sees runtime imports between files. This sees what it cannot: cycles
// between the folders of the server (each module is one node), type-only imports included, so
// a domain never needs another that needs it back. What two modules share moves below them
// (security/, db/, lib/) or is declared as an interface by the module that uses it.

const SRC = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** modules/<domain> for files of a module, else the top-level folder (or file) under src. */
function nodeOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0]!;
}

function importGraph(files: string[]): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|\n)(?:import|export)[^'";]*?from\s+'(\.[^']+)'/g)) {
      const base = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '');
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => existsSync(c));
      if (!target) continue;
      const [from, to] = [nodeOf(file), nodeOf(target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`);
    }
  }
  return graph;
}

function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const found: string[][] = [];
  const visit = (node: string, stack: string[]) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, stack);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, []);
  return found;
}

describe('server layout', () => {
  it('has no import cycle between modules or top-level folders, type imports included', () => {
    const graph = importGraph(sourceFiles(SRC));
    const described = cycles(graph).map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => graph.get(cycle[i]!)!.get(to)!)
        .join('\n  '),
    );
    expect(described).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['modules/a', new Map([['modules/b', 'a.ts → b.ts']])],
      ['modules/b', new Map([['modules/a', 'b.ts → a.ts']])],
    ]);
    expect(cycles(graph)).toEqual([['modules/a', 'modules/b', 'modules/a']]);
  });
});
