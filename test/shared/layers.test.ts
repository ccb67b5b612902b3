/**
 * The layer rule from STYLE.md, enforced: shared/ imports nothing platform-specific or from other layers;
 * renderer/ never imports electron/ or Node; the preload imports only electron and shared types.
 * (A lint rule on imports, as a test, since the project carries no linter.)
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/corpus';

function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|vue|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(path.join(repoRoot, dir));
  return out;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  const out: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function resolvesInto(file: string, spec: string, layer: string): boolean {
  if (!spec.startsWith('.')) return false;
  const target = path.resolve(path.dirname(file), spec);
  return target.startsWith(path.join(repoRoot, layer) + path.sep);
}

describe('layers', () => {
  it('shared/ imports no node:, DOM-only, electron, vue or three module, and nothing from other layers', () => {
    const bad: string[] = [];
    const files = sources('shared');
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      for (const s of imports(f)) {
        const foreign = ['electron', 'renderer'].some((l) => resolvesInto(f, s, l));
        const platform = /^(node:|fs$|path$|os$|electron$|vue$|pinia$|three)/.test(s);
        if (foreign || platform) bad.push(`${path.relative(repoRoot, f)} imports ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('renderer/ never imports electron/ or Node built-ins', () => {
    const bad: string[] = [];
    for (const f of sources('renderer')) {
      for (const s of imports(f)) {
        if (resolvesInto(f, s, 'electron') || /^(node:|electron$|fs$|path$|child_process$)/.test(s)) bad.push(`${path.relative(repoRoot, f)} imports ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // STYLE.md says "only electron and types from shared/"; the preload also takes the request/event name
  // lists from the contract so the exposed methods cannot drift from it. The contract is pure data and is
  // bundled into the single CommonJS preload, so the sandbox rule still holds.
  it('the preload imports only electron and the shared IPC contract', () => {
    const preload = path.join(repoRoot, 'electron/preload.ts');
    expect(existsSync(preload)).toBe(true);
    const specs = imports(preload);
    expect(specs).toContain('electron');
    for (const s of specs) {
      const ok = s === 'electron' || path.resolve(path.dirname(preload), s) === path.join(repoRoot, 'shared/ipc/contract');
      expect(ok, `preload imports ${s}`).toBe(true);
    }
  });
});
