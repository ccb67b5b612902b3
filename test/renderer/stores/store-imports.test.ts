/**
 * The renderer's stores call each other in one direction only (STYLE.md: "never in a circle"): the import
 * graph between the files of renderer/src/stores/ has no cycle. The workspace owns the documents and the
 * history, the scene arranges them, the history store is undo as the editor sees it; none imports a store
 * above it. Type-only imports count too: a circle of types is still a circle a reader has to untangle.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../helpers/corpus';

const STORES = path.join(repoRoot, 'renderer/src/stores');

/** store file name (no extension) → the store files it imports. */
function storeGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of readdirSync(STORES).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(path.join(STORES, f), 'utf8');
    const re = /(?:import|export)\s[^'"]*?from\s*['"]\.\/([^'"/]+)['"]|import\(\s*['"]\.\/([^'"/]+)['"]\s*\)/g;
    const deps: string[] = [];
    for (let m = re.exec(text); m; m = re.exec(text)) deps.push((m[1] ?? m[2]).replace(/\.ts$/, ''));
    graph.set(f.replace(/\.ts$/, ''), deps);
  }
  return graph;
}

/** Every cycle's path (first store repeated at the end), found by depth-first search. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found;
}

describe('renderer stores', () => {
  it('import each other without a circle', () => {
    const graph = storeGraph();
    // The check reads real imports: the scene store builds on the workspace, the history store on both.
    expect(graph.get('scene')).toContain('workspace');
    expect(graph.get('history')).toContain('workspace');
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the cycle search finds a circle where there is one', () => {
    const g = new Map([
      ['document', ['scene']],
      ['scene', ['history']],
      ['history', ['document', 'notify']],
      ['notify', []],
    ]);
    expect(cycles(g).map((c) => c.join(' → '))).toEqual(['document → scene → history → document']);
  });
});
