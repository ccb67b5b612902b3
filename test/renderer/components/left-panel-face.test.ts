// While the 表情 tab is open the preview's joint dots are hidden (nupose 7: the head, 60 px high, was covered by
// dozens of dots and nothing showed the expression change), as if C was pressed, and they come back when another
// tab is picked. The saved Bones setting is not touched; C pressed meanwhile is the user's choice and stays.
import { describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { mount } from '@vue/test-utils';
import LeftPanel from '../../../renderer/src/components/LeftPanel.vue';
import { usePreviewStore } from '../../../renderer/src/stores/preview';
import { memoryScene } from '../stores/scene-fixtures';

describe('the 表情 tab and the joint dots', () => {
  it('hides them while open, shows them again after; a C pressed meanwhile stays', async () => {
    const { fake } = memoryScene([]);
    const preview = usePreviewStore();
    expect(preview.bonesShown).toBe(true);
    const w = mount(LeftPanel, { attachTo: document.body });
    const tab = async (id: string) => {
      await w.get(`[data-testid="side-tab-${id}"]`).trigger('click');
      await nextTick();
    };
    await tab('morphs');
    expect(preview.bonesShown).toBe(false);
    await tab('bones');
    expect(preview.bonesShown).toBe(true);
    expect(fake.calls.filter((c) => c.name === 'setSettings')).toEqual([]);
    // C (the Bones switch) while on 表情: shown; leaving keeps them shown.
    await tab('morphs');
    expect(preview.bonesShown).toBe(false);
    preview.setBonesShown(true);
    await tab('file');
    expect(preview.bonesShown).toBe(true);
    // Dots switched off by the user before: 表情 and back leave them off.
    preview.setBonesShown(false);
    await tab('morphs');
    await tab('stage');
    expect(preview.bonesShown).toBe(false);
    w.unmount();
  });
});
