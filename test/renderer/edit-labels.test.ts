// The undo/redo buttons and scene notices in the UI's language (issue 30 §4): every label the edits give
// their steps (read from shared/key-edits' sources, so a new edit without a translation fails here) has a
// Japanese string of its own, and a scene file's role is named in Japanese in the Japanese UI.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { editLabel, KNOWN_EDIT_LABELS } from '../../renderer/src/editor/edit-labels';
import { sceneRoleText } from '../../renderer/src/stores/scene-role';
import { t } from '../../shared/i18n/strings';
import { useSettingsStore } from '../../renderer/src/stores/settings';

const KEY_EDITS = path.resolve(__dirname, '../../shared/key-edits');

/** Labels the sources give: finish(doc, 'x'), relabel(…, 'x'), setCurves(…, 'x'), a `label = 'x'` default. */
function labelsInSources(): Set<string> {
  const out = new Set<string>();
  for (const f of readdirSync(KEY_EDITS).filter((n) => n.endsWith('.ts'))) {
    const src = readFileSync(path.join(KEY_EDITS, f), 'utf8');
    for (const re of [/finish\(doc, '([^']+)'/g, /relabel\([^;]*?'([^']+)'\)/g, /setCurves\([^;]*?'([^']+)'\)/g, /label = '([^']+)'/g, /'all' \? '([^']+)' : '([^']+)'/g]) {
      for (const m of src.matchAll(re)) for (const g of m.slice(1)) if (g) out.add(g);
    }
  }
  return out;
}

describe('edit labels in the UI language', () => {
  it('every label an edit gives is translated, and differs in Japanese', () => {
    const used = labelsInSources();
    expect(used.size).toBeGreaterThan(8);
    for (const l of used) {
      expect(KNOWN_EDIT_LABELS, l).toContain(l);
      const ja = editLabel(l, (k) => t(k, 'ja'));
      expect(ja, l).not.toBe(l);
      expect(editLabel(l, (k) => t(k, 'en'))).toBe(l);
    }
    expect(editLabel('Simplify', (k) => t(k, 'ja'))).toBe('Simplify');
  });

  it('names applying a pose in Japanese with its file and frame (it was "apply pose 02.vpd at 60" in the Japanese UI)', () => {
    const label = 'apply pose 02 at 3.vpd at 60';
    expect(editLabel(label, (k, p) => t(k, 'ja', p))).toBe('ポーズ適用 02 at 3.vpd（フレーム 60）');
    expect(editLabel(label, (k, p) => t(k, 'en', p))).toBe(label);
    expect(editLabel('apply pose 微笑.vpd at 0', (k, p) => t(k, 'ja', p))).toBe('ポーズ適用 微笑.vpd（フレーム 0）');
  });

  it('names loading a motion onto an actor in Japanese with its file (the relink\'s step read "load motion walk.vmd" there)', () => {
    expect(editLabel('load motion walk_v2.vmd', (k, p) => t(k, 'ja', p))).toBe('モーション読み込み walk_v2.vmd');
    expect(editLabel('load motion walk_v2.vmd', (k, p) => t(k, 'en', p))).toBe('load motion walk_v2.vmd');
  });
});

describe('scene roles in the UI language', () => {
  beforeEach(() => setActivePinia(createPinia()));
  it('names the actor, camera and audio roles in Japanese', () => {
    const s = useSettingsStore();
    s.settings = { ...s.settings, locale: 'ja' };
    expect(sceneRoleText({ role: 'motion', actor: 0, path: '/a.vmd' })).toBe('アクター 1 のモーション');
    expect(sceneRoleText({ role: 'camera', path: '/c.vmd' })).toBe('カメラ');
    expect(sceneRoleText({ role: 'audio', path: '/m.wav' })).toBe('音楽');
    s.settings = { ...s.settings, locale: 'en' };
    expect(sceneRoleText({ role: 'model', actor: 1, path: '/m.pmx' })).toBe('actor 2 model');
  });
});
