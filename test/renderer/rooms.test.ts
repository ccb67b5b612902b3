/**
 * Which rooms of renderer/src may import which (issue 25 §3), as layers.test.ts does between the layers: the
 * stores import no view; the shell (commands, key table and dispatcher, overlays, dialogs, app actions)
 * builds on the stores only; views (editor, preview, components, App) build on the shell and the stores.
 * The test hooks (`src/e2e`) are the e2e build's entry: nothing imports them.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/corpus';

const SRC = path.join(repoRoot, 'renderer/src');

/** Room → the rooms it may import (its own always). A room is a folder of src/, or a file at its top. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'api': [],
  'paths.ts': [],
  // Pure modules at the top: the bundled font's loading (fonts.ts); the video exporter (a runtime part behind
  // the video-export store, like the audio player: it encodes and muxes, it holds no view).
  'fonts.ts': [],
  'export': ['api', 'paths.ts'],
  // One job at a time in a module worker, and on this thread where there is none (the fit, retarget and bake clients).
  'workers': [],
  'fit': ['api', 'paths.ts', 'workers'],
  // Bullet's wasm for the page and its workers, and the physics-bake worker and its client.
  'physics': ['api', 'paths.ts', 'workers'],
  // The audio player (a runtime part behind the music store, like the video exporter): Web Audio, no view.
  'audio': [],
  // What the views and the stores know of a model as plain data: the built-in figure's bones, the bone list's
  // and morph panel's outline (no three.js).
  'model': [],
  'stores': ['api', 'fit', 'physics', 'paths.ts', 'preview', 'export', 'model', 'audio'],
  // The model's plain data too (a bone's English name beside its Japanese one: shell/use-bone-en.ts).
  'shell': ['api', 'paths.ts', 'stores', 'model'],
  'preview': ['api', 'paths.ts', 'shell', 'stores', 'export', 'model', 'physics'],
  'editor': ['api', 'paths.ts', 'components', 'shell', 'stores', 'fonts.ts', 'model'],
  'components': ['api', 'paths.ts', 'editor', 'shell', 'stores', 'export'],
  'App.vue': ['api', 'paths.ts', 'components', 'editor', 'preview', 'shell', 'stores', 'fonts.ts'],
  // The app as both entries make it, and the entries: the shipped one, and the e2e build's (with its hooks).
  // It hands the shell's Save All (its dialogs) to the scene store, which may not import the shell.
  'app.ts': ['App.vue', 'stores', 'audio', 'shell'],
  'main.ts': ['app.ts', 'audio'],
  'e2e': ['app.ts', 'audio', 'fit', 'preview', 'stores'],
};
/** What a store may take from the preview room: pure modules only (no three.js in a store). */
const STORES_FROM_PREVIEW = ['output-frame.ts'];
/** What a store may take from the audio room: the player's interface (the app attaches the real one). */
const STORES_FROM_AUDIO = ['audio-player.ts'];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|vue)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function roomOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0];
}

function target(file: string, spec: string): string | null {
  const base = path.resolve(path.dirname(file), spec);
  for (const ext of ['', '.ts', '.vue', '/index.ts']) if (existsSync(base + ext) && !base.endsWith('/')) return base + ext;
  return null;
}

/** Every import from one room into another that the table does not allow, as "from → to". */
function violations(table: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const re = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const t = target(file, m[1] ?? m[2]);
      if (!t || !t.startsWith(SRC + path.sep)) continue;
      const from = roomOf(file), to = roomOf(t);
      if (from === to) continue;
      const ok =
        (table[from] ?? []).includes(to) &&
        !(from === 'stores' && to === 'preview' && !STORES_FROM_PREVIEW.includes(path.basename(t))) &&
        !(from === 'stores' && to === 'audio' && !STORES_FROM_AUDIO.includes(path.basename(t)));
      if (!ok) out.push(`${path.relative(SRC, file)} → ${path.relative(SRC, t)}`);
    }
  }
  return out;
}

/** The import graph between the files of one room: file → files of the same room it imports. */
function roomGraph(room: string): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of sources(path.join(SRC, room))) {
    const text = readFileSync(file, 'utf8');
    const re = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/g;
    const deps: string[] = [];
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const t = target(file, m[1]);
      if (t && roomOf(t) === room) deps.push(path.relative(SRC, t));
    }
    g.set(path.relative(SRC, file), deps);
  }
  return g;
}

function hasCycle(g: Map<string, string[]>): string | null {
  const state = new Map<string, 1 | 2>();
  const visit = (n: string, trail: string[]): string | null => {
    state.set(n, 1);
    for (const d of g.get(n) ?? []) {
      if (state.get(d) === 1) return [...trail, n, d].join(' → ');
      if (!state.has(d)) {
        const c = visit(d, [...trail, n]);
        if (c) return c;
      }
    }
    state.set(n, 2);
    return null;
  };
  for (const n of g.keys()) if (!state.has(n)) {
    const c = visit(n, []);
    if (c) return c;
  }
  return null;
}

describe('renderer rooms', () => {
  it('the shell\'s commands, key table and dispatcher import each other without a circle', () => {
    const g = roomGraph('shell');
    expect(g.get('shell/keymap.ts')).toContain('shell/shortcuts.ts');
    expect(hasCycle(g)).toBeNull();
    expect(hasCycle(new Map([['a', ['b']], ['b', ['a']]]))).toBe('a → b → a');
  });

  it('import only the rooms below them', () => {
    expect(violations(MAY_IMPORT)).toEqual([]);
  });

  it('the two views, the editor and the preview, import neither of each other (what both need is in model/ and shell/)', () => {
    expect(MAY_IMPORT.editor).not.toContain('preview');
    expect(MAY_IMPORT.preview).not.toContain('editor');
  });

  it('no production module imports the test hooks (src/e2e is an entry of its own)', () => {
    expect(Object.keys(MAY_IMPORT).filter((room) => MAY_IMPORT[room].includes('e2e'))).toEqual([]);
    // The check sees an import of the hooks: a table that lets nothing import the app finds the e2e entry's.
    expect(violations({ ...MAY_IMPORT, e2e: MAY_IMPORT.e2e.filter((r) => r !== 'app.ts') })).toContain('e2e/main.ts → app.ts');
  });

  it('the check sees real imports (a table without the shell for the views finds them)', () => {
    const strict = { ...MAY_IMPORT, editor: MAY_IMPORT.editor.filter((r) => r !== 'shell'), preview: MAY_IMPORT.preview.filter((r) => r !== 'shell') };
    const found = violations(strict);
    expect(found).toContain('preview/use-preview.ts → shell/app-actions.ts');
    expect(found.some((v) => v.startsWith('editor/EditorArea.vue → shell/'))).toBe(true);
  });
});
