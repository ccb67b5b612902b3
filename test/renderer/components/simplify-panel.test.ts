// The Simplify panel's status line while its computation runs: the tracks refitted so far, then, once
// every track is refitted, that the error is being measured by playing both motions (as the Whole
// Motion dialog says), in English and Japanese.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { setQuietApi } from '../../helpers/quiet-api';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useSimplifyStore } from '../../../renderer/src/stores/simplify';
import SimplifyPanel from '../../../renderer/src/editor/SimplifyPanel.vue';
import { t } from '../../../shared/i18n/strings';

setQuietApi();

describe('Simplify panel status while computing', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('counts the tracks refitted, then says the error is being measured', async () => {
    const w = mount(SimplifyPanel);
    const simplify = useSimplifyStore();
    const status = () => w.get('[data-testid="simplify-status"]').text();
    for (const locale of ['en', 'ja'] as const) {
      await useSettingsStore().setLocale(locale);
      simplify.state = 'pending';
      simplify.running = { done: 40, total: 172 };
      await w.vm.$nextTick();
      expect(status()).toBe(t('simplify.progress', locale, { done: 40, total: 172 }));
      simplify.running = { done: 172, total: 172 };
      await w.vm.$nextTick();
      expect(status()).toBe(t('batch.fit.measuring', locale));
      expect(status()).not.toBe(t('simplify.progress', locale, { done: 172, total: 172 }));
    }
    w.unmount();
  });
});
