// The pose handle's axes (curve-polish pass: the rings were always in the bone's own axes, with no way to turn an
// arm about the model's Y as MMD does by default; MMD's bone panel has a ローカル toggle). The handle starts in the
// model's axes (global: TransformControls' 'world' space), Local puts it in the bone's; the store remembers the
// choice in the settings, and the pane's Local button (en/ja) switches it.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import * as THREE from 'three';
import { PoseGizmo } from '../../../renderer/src/preview/pose-gizmo';
import { POSE_SPACE_SETTING, usePreviewStore } from '../../../renderer/src/stores/preview';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { previewStrings } from '../../../shared/i18n/preview-strings';
import { setQuietApi } from '../../helpers/quiet-api';

setQuietApi();

describe('the pose handle’s axes', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('start global (the model’s axes, MMD’s default); Local puts the rings in the bone’s own axes and back', () => {
    const dom = document.createElement('div');
    const g = new PoseGizmo(new THREE.PerspectiveCamera(), dom);
    expect(g.space).toBe('global');
    expect(g.controls.space).toBe('world');
    g.setSpace('local');
    expect(g.controls.space).toBe('local');
    expect(g.space).toBe('local');
    g.setSpace('global');
    expect(g.controls.space).toBe('world');
    g.dispose();
  });

  it('the store starts global and remembers Local in the settings (not when restoring them)', () => {
    const preview = usePreviewStore(), settings = useSettingsStore();
    settings.settings = { ...settings.settings, ui: {} };
    expect(preview.poseSpace).toBe('global');
    preview.setPoseSpace('local');
    expect(preview.poseSpace).toBe('local');
    expect(settings.settings.ui[POSE_SPACE_SETTING]).toBe('local');
    preview.setPoseSpace('global', false);
    expect(preview.poseSpace).toBe('global');
    expect(settings.settings.ui[POSE_SPACE_SETTING]).toBe('local');
  });

  it('the switch is named in English and Japanese (MMD’s ローカル)', () => {
    expect(previewStrings.en['preview.poseLocal']).toBe('Local');
    expect(previewStrings.ja['preview.poseLocal']).toBe('ローカル');
  });
});
