/**
 * Error notices: the codec's exact English line, or in Japanese a line by error code with the English kept
 * below. Notices keep keys and error values and are phrased when shown, so they follow a language switch.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mount } from '@vue/test-utils';
import { t } from '../../../shared/i18n/strings';
import NotificationList from '../../../renderer/src/components/NotificationList.vue';
import { createPinia, getActivePinia, setActivePinia } from 'pinia';
import { readVmd } from '../../../shared/vmd';
import { describeError, noticeLines, useNotifyStore, MAX_NOTICES, NOTICE_TIMEOUT_MS, type NoticeError } from '../../../renderer/src/stores/notify';
import { useSettingsStore } from '../../../renderer/src/stores/settings';
import { useWorkspaceStore } from '../../../renderer/src/stores/workspace';
import { useSceneStore } from '../../../renderer/src/stores/scene';
import { setQuietApi } from '../../helpers/quiet-api';
import { denseRefusal } from '../../../shared/edit-core/dense-limit';


describe('error notices', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setQuietApi();
  });

  it('English: file, the codec message and the byte offset; the code below', () => {
    expect(describeError({ code: 'E_IO', message: 'read failed: EIO', file: '/m/a.vmd', offset: 50 }, 'en')).toEqual({
      message: 'a.vmd: read failed: EIO (at byte 50)',
      detail: 'E_IO',
    });
  });

  it('a damaged file leads with a plain sentence in English too, the reader\'s line and code after it', () => {
    // Seen on a first run: "bone block promises 470 records of 111 bytes, but only 2946 bytes remain (room for 26)
    // (at byte 50) E_VMD_COUNT" squeezed in the left pane.
    const raw = 'bone block promises 470 records of 111 bytes, but only 2946 bytes remain (room for 26)';
    expect(describeError({ code: 'E_VMD_COUNT', message: raw, file: '/m/a.vmd', offset: 50 }, 'en')).toEqual({
      message: 'a.vmd: The file is cut short or damaged: a key count does not fit its size (at byte 50)',
      detail: `E_VMD_COUNT: ${raw}`,
    });
    expect(describeError({ code: 'E_VMD_TRUNCATED', message: 'bone block ends early', file: '/m/a.vmd' }, 'en').message).toBe('a.vmd: The file is cut short or damaged: it ends too early');
    expect(describeError({ code: 'E_VMD_TRUNCATED', message: 'bone block ends early', file: '/m/a.vmd' }, 'ja').message).toMatch(/^a\.vmd: ファイルが途中で切れているか壊れています/);
  });

  it('Japanese: the line says what is wrong by code, with the offset; the English message stays in the detail', () => {
    expect(describeError({ code: 'E_VMD_COUNT', message: 'bone count 9 needs 999 bytes, 12 left', file: 'C:\\m\\a.vmd', offset: 50 }, 'ja')).toEqual({
      message: 'a.vmd: ファイルが途中で切れているか壊れています（キーの数がファイルの大きさと合いません）（50 バイト目）',
      detail: 'E_VMD_COUNT: bone count 9 needs 999 bytes, 12 left',
    });
    // A code without a translation keeps the English line (one the union does not know: a newer main process's).
    expect(describeError({ code: 'E_SOMETHING_NEW' as NoticeError['code'], message: 'odd', file: 'x.vmd' }, 'ja')).toEqual({ message: 'x.vmd: odd', detail: 'E_SOMETHING_NEW' });
  });

  it('a key count the file cannot hold says which block and how many keys it claims, in both languages', () => {
    // A VMD of the right size whose bone count says 2147483647 (0x7fffffff): the header (30 bytes), the model
    // name (20), the bone count at byte 50, then four empty blocks.
    const bytes = new Uint8Array(30 + 20 + 4 * 6);
    bytes.set(new TextEncoder().encode('Vocaloid Motion Data 0002'), 0);
    new DataView(bytes.buffer).setUint32(50, 0x7fffffff, true);
    const r = readVmd(bytes);
    if (r.ok) throw new Error('a count of 2147483647 must be refused');
    const e = { ...r.error, file: '/m/hugecount.vmd' };
    const en = describeError(e, 'en');
    expect(en.message).toBe("hugecount.vmd: The file is damaged: the bone block says it holds 2,147,483,647 keys, more than the file's size can (at byte 50)");
    // The reader's own line stays in the detail (the Open toast's second line).
    expect(en.detail).toMatch(/^E_VMD_COUNT: bone block promises 2147483647 records/);
    const ja = describeError(e, 'ja');
    expect(ja.message).toBe('hugecount.vmd: ファイルが壊れています：ボーンブロックのキー数が 2,147,483,647 個とされていますが、ファイルの大きさに収まりません（50 バイト目）');
    // Without the block and count (an older main process's error), the general line as before.
    expect(describeError({ code: 'E_VMD_COUNT', message: 'x', offset: 50 }, 'en').message).toBe('The file is cut short or damaged: a key count does not fit its size (at byte 50)');
  });

  it('a span too long for retarget or export BVH/VRMA says to trim the motion, not the command line\'s --from and --to', () => {
    // As shared/retarget and shared/bvh/take refuse a key at frame 4,000,000,000 (dense-limit.test.ts runs them on the corpus).
    for (const what of ['retarget', 'playing the motion on the model']) {
      const e = { ...denseRefusal(what, 0, 4e9, 20)!, file: '/m/far.vmd' };
      expect(e.message).toMatch(/give --from and --to/); // the CLI's own words stay the CLI's
      for (const locale of ['en', 'ja'] as const) {
        const shown = describeError(e, locale);
        expect(shown.message).toBe(`far.vmd: ${t('err.span', locale, { from: '0', to: '4,000,000,000' })}`);
        expect(`${shown.message} ${shown.detail}`).not.toMatch(/--/);
      }
      expect(describeError(e, 'en').message).toMatch(/trim the motion first \(Edit → Whole Motion…, Trim frame range\)$/);
      expect(describeError(e, 'ja').message).toMatch(/先にモーションを切り詰めてください/);
    }
    // The frames × tracks bound says its frames the same way.
    expect(describeError(denseRefusal('retarget', 0, 600_000, 20)!, 'en').message).toBe(t('err.span', 'en', { from: '0', to: '600,000' }));
  });

  it('a camera or light motion refused: the second line names the operation as the app does, not the CLI command', () => {
    // As shared/vmd/inspect stageMotionRefusal refuses it (camera-motion-commands.test.ts runs the commands).
    const cam = (op: string) => ({ code: 'E_CAMERA_MOTION' as const, message: `a camera motion (3 camera keys, no bone keys): ${op} works on a model's motion`, params: { kind: 'camera', camera: 3, light: 0, op }, file: '/s/camera.vmd' });
    expect(describeError(cam('physics-bake'), 'en').detail).toBe("E_CAMERA_MOTION: Bake physics works on a model's motion (one with bone keys): make one active first, in its scene tab");
    expect(describeError(cam('export-bvh'), 'ja').detail).toBe('E_CAMERA_MOTION: BVH の書き出しはモデルのモーション（ボーンのキーがあるもの）に使います。先にそのシーンタブでモデルのモーションをアクティブにしてください');
    expect(describeError(cam('export VPD'), 'en').detail).toMatch(/^E_CAMERA_MOTION: Export VPD works/);
    expect(describeError(cam('export-vrma'), 'ja').detail).toMatch(/^E_CAMERA_MOTION: VRM アニメーションの書き出しは/);
    for (const op of ['physics-bake', 'export-bvh', 'export-vrma', 'export VPD', 'convert to VPD', 'some-new-op']) {
      for (const locale of ['en', 'ja'] as const) {
        const shown = describeError(cam(op), locale);
        expect(shown.message).toBe(`camera.vmd: ${t('err.stageMotion.camera', locale, { camera: 3, light: 0 })}`);
        // No command name (physics-bake, export-bvh) and none of the CLI's message: an op the app has no name for, the code alone.
        expect(shown.detail).not.toMatch(/physics-bake|export-bvh|export-vrma|some-new-op|works on a model's motion$/);
        if (op === 'some-new-op') expect(shown.detail).toBe('E_CAMERA_MOTION');
      }
    }
  });

  it('a file that is not a VMD, opened with the UI in Japanese, gives a Japanese notice; its byte 0 in the detail', () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    // Bytes of no kind known (binary: a NUL among them), so the reader's refusal is what is said.
    const bytes = new Uint8Array([0x12, 0x00, 0x34, 0x56, 0x78, 0x9a, 0x00, 0x01, 0x02, 0x03]);
    const r = readVmd(bytes);
    if (r.ok) throw new Error('not a VMD');
    expect(r.error.offset).toBe(0);
    expect(useSceneStore().openBytes('b.vmd', bytes, '/b.vmd')).toBe(false);
    const notice = useNotifyStore().items.at(-1)!;
    expect(notice.kind).toBe('error');
    const n = noticeLines(notice, settings.locale);
    // "(0 バイト目)" told a new user nothing (nubegin 2): the line without it, the detail with it.
    expect(n.message).toBe('b.vmd: VMD ファイルではありません');
    expect(n.detail).toBe(`E_VMD_MAGIC: ${r.error.message}（0 バイト目）`);
    expect(noticeLines(notice, 'en')).toEqual({ message: `b.vmd: ${r.error.message}`, detail: 'E_VMD_MAGIC (at byte 0)' });
    // Another offset of another code stays on the line (a damaged file's: see above).
    expect(describeError({ code: 'E_VMD_MAGIC', message: 'x', offset: 4 }, 'en').message).toBe('x (at byte 4)');
  });

  // New-user pass (nubegin 2): a song, a texture, notes renamed .vmd all got "not a VMD file (at byte 0)"; each says
  // what it is and what to do with it, in English (the command line's words) and Japanese.
  it('a song, an image, a model, a video or text opened as a motion says what it is and what to do, in both languages', () => {
    const mp3 = new Uint8Array([...new TextEncoder().encode('ID3'), 4, 0, 0, 0, 0, 0, 0]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const pmd = new Uint8Array([0x50, 0x6d, 0x64, 0, 0, 0x80, 0x3f]);
    const text = new TextEncoder().encode('my dance notes\nfrom 0 to 300\n');
    const cases: [string, Uint8Array, string, string][] = [
      ['song.vmd', mp3, 'song.vmd: a song (MP3), not a motion: rename it song.mp3, then load it with ♪ Music…', 'song.vmd: 曲（MP3）で、モーションではありません。名前を song.mp3 に変えて、♪ 音楽… で読み込んでください'],
      ['pic.vmd', png, 'pic.vmd: an image (PNG), not a motion: VMD Studio uses images only as a model’s textures, from the model’s folder', 'pic.vmd: 画像（PNG）で、モーションではありません。VMD Studio は画像をモデルのテクスチャとして（モデルのフォルダから）だけ使います'],
      ['miku.vmd', pmd, 'miku.vmd: a model (PMD), not a motion: rename it miku.pmd, then open it with Model…', 'miku.vmd: モデル（PMD）で、モーションではありません。名前を miku.pmd に変えて、モデル… で開いてください'],
      ['notes.vmd', text, 'notes.vmd: plain text, not a motion: a motion is a .vmd file saved by MMD, starting with "Vocaloid Motion Data"', 'notes.vmd: テキストファイルで、モーションではありません。モーションは MMD が保存する .vmd ファイルで、"Vocaloid Motion Data" で始まります'],
    ];
    for (const [name, bytes, en, ja] of cases) {
      expect(useSceneStore().openBytes(name, bytes, `/d/${name}`)).toBe(false);
      const notice = useNotifyStore().items.at(-1)!;
      expect(notice.kind).toBe('error');
      expect(notice.error?.code).toBe('E_VMD_MAGIC');
      expect(noticeLines(notice, 'en')).toEqual({ message: en, detail: 'E_VMD_MAGIC' });
      const j = noticeLines(notice, 'ja');
      expect(j.message).toBe(ja);
      // The English line (the command line's) stays in the detail, with the code.
      expect(j.detail).toBe(`E_VMD_MAGIC: ${en.slice(name.length + 2)}`);
    }
  });
});

describe('notices follow the language and fade', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    setQuietApi();
  });

  it('a notice shown before a language switch is phrased in the new language', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'en' };
    const notify = useNotifyStore();
    notify.success({ key: 'notify.saved', params: { name: 'a.vmd' } });
    notify.error({ code: 'E_IO_NOT_FOUND', message: 'no such file or folder', file: '/m/gone.vmd' });
    notify.push('success', { key: 'batch.doc.applied', params: { op: { key: 'batch.op.mirror' }, name: 'a.vmd' } }, [{ key: 'batch.doc.counts', params: { kept: 1, added: 0, dropped: 0, collisions: 0 } }, 'note']);
    const w = mount(NotificationList);
    const lines = () => w.findAll('[data-testid="notice-message"]').map((e) => e.text());
    expect(lines()).toEqual(['Saved a.vmd', 'gone.vmd: no such file or folder (/m/gone.vmd)', `${t('batch.doc.applied', 'en', { op: t('batch.op.mirror', 'en'), name: 'a.vmd' })}`]);
    expect(w.text()).toContain(`${t('batch.doc.counts', 'en', { kept: 1, added: 0, dropped: 0, collisions: 0 })} · note`);
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(lines()).toEqual(['a.vmd を保存しました', 'gone.vmd: ファイルが見つかりません（/m/gone.vmd）', t('batch.doc.applied', 'ja', { op: t('batch.op.mirror', 'ja'), name: 'a.vmd' })]);
    expect(lines()[2]).not.toBe(t('batch.doc.applied', 'en', { op: t('batch.op.mirror', 'en'), name: 'a.vmd' }));
    // "Dismiss all" (shown with more than one notice) clears every notice, errors included.
    expect(w.get('[data-testid="notify-dismiss-all"]').text()).toBe('すべて閉じる');
    await w.get('[data-testid="notify-dismiss-all"]').trigger('click');
    expect(notify.items).toHaveLength(0);
    w.unmount();
  });

  it('information and success fade after a few seconds; errors stay', () => {
    vi.useFakeTimers();
    try {
      const notify = useNotifyStore();
      notify.info('i');
      notify.success('s');
      notify.error({ code: 'E_IO', message: 'x' });
      vi.advanceTimersByTime(NOTICE_TIMEOUT_MS.info + 1);
      expect(notify.items.map((n) => n.kind)).toEqual(['error']);
      vi.advanceTimersByTime(60_000);
      expect(notify.items.map((n) => n.kind)).toEqual(['error']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('while the pointer is over the notices or focus is in them none fades; released, each fades after the time it had left', async () => {
    vi.useFakeTimers();
    const w = mount(NotificationList, { attachTo: document.body });
    try {
      const notify = useNotifyStore();
      notify.info('slow reader');
      vi.advanceTimersByTime(3000); // 1 s of its 4 s left
      await w.get('[data-testid="notifications"]').trigger('mouseenter');
      vi.advanceTimersByTime(60_000);
      expect(notify.items.map((n) => n.text)).toEqual(['slow reader']);
      await w.get('[data-testid="notifications"]').trigger('mouseleave');
      // Released: at least 1.5 s more (its 1 s left would go before the eye is back), then gone.
      vi.advanceTimersByTime(1400);
      expect(notify.items).toHaveLength(1);
      vi.advanceTimersByTime(200);
      expect(notify.items).toHaveLength(0);

      // Focus in the list (Tab to a notice's ×) holds it too, until focus leaves the list.
      notify.success('saved');
      await w.vm.$nextTick();
      const close = w.get('.notice .close');
      (close.element as HTMLElement).focus();
      await close.trigger('focusin');
      vi.advanceTimersByTime(60_000);
      expect(notify.items.map((n) => n.text)).toEqual(['saved']);
      await close.trigger('focusout', { relatedTarget: document.body });
      vi.advanceTimersByTime(NOTICE_TIMEOUT_MS.success + 1);
      expect(notify.items).toHaveLength(0);
    } finally {
      w.unmount();
      vi.useRealTimers();
    }
  });

  it('an error is an alert (said at once); information is a status line', async () => {
    const notify = useNotifyStore();
    const w = mount(NotificationList);
    notify.info('opened');
    notify.error({ code: 'E_IO_NOT_FOUND', message: 'gone', file: 'a.pmx' });
    await w.vm.$nextTick();
    expect(w.findAll('.notice').map((n) => [n.attributes('data-kind'), n.attributes('role')])).toEqual([
      ['info', 'status'],
      ['error', 'alert'],
    ]);
    w.unmount();
  });

  it('a notice fading leaves the active pinia alone: a later store of another pinia is not switched', () => {
    vi.useFakeTimers();
    try {
      const first = createPinia();
      setActivePinia(first);
      const notify = useNotifyStore();
      notify.info('fades');
      const second = createPinia();
      setActivePinia(second);
      vi.advanceTimersByTime(NOTICE_TIMEOUT_MS.info + 1);
      expect(notify.items).toEqual([]);
      expect(getActivePinia()).toBe(second);
    } finally {
      vi.useRealTimers();
    }
  });

  it('dismissing, clearing or pushing a notice out stops its fade timer', () => {
    vi.useFakeTimers();
    try {
      const notify = useNotifyStore();
      const a = notify.info('a');
      notify.info('b');
      expect(vi.getTimerCount()).toBe(2);
      notify.dismiss(a);
      expect(vi.getTimerCount()).toBe(1);
      notify.clear();
      expect(vi.getTimerCount()).toBe(0);
      for (let i = 0; i < MAX_NOTICES + 3; i++) notify.info(`n${i}`);
      expect(vi.getTimerCount()).toBe(MAX_NOTICES);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an offer replaces an earlier notice with the same button (one "Edit this camera" in sight), not one with another', () => {
    vi.useFakeTimers();
    try {
      const notify = useNotifyStore();
      const ran: string[] = [];
      notify.offer('info', 'loaded', { label: 'preview.editCamera', run: () => ran.push('first') });
      notify.offer('info', 'other', { label: 'follow.turnOff', run: () => ran.push('other') });
      notify.info('plain');
      const second = notify.offer('warning', 'refused', { label: 'preview.editCamera', run: () => ran.push('second') });
      expect(notify.items.map((n) => noticeLines(n, 'en').message)).toEqual(['other', 'plain', 'refused']);
      // The replaced notice's fade timer went with it (the other offer's, the plain one's and the new one's remain).
      expect(vi.getTimerCount()).toBe(3);
      notify.runAction(second);
      expect(ran).toEqual(['second']);
      expect(notify.items.map((n) => noticeLines(n, 'en').message)).toEqual(['other', 'plain']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps errors when many notices arrive, dropping the oldest others first', () => {
    const notify = useNotifyStore();
    notify.error({ code: 'E_IO', message: 'first' });
    for (let i = 0; i < MAX_NOTICES + 3; i++) notify.info(`n${i}`);
    expect(notify.items).toHaveLength(MAX_NOTICES);
    expect(notify.items[0].kind).toBe('error');
    expect(noticeLines(notify.items.at(-1)!, 'en').message).toBe(`n${MAX_NOTICES + 2}`);
  });

  it('draws at most the newest three notices, on one opaque backdrop, and counts the others as "+N more"', async () => {
    const notify = useNotifyStore();
    for (let i = 1; i <= 6; i++) notify.error({ code: 'E_IO', message: `error ${i}` });
    const w = mount(NotificationList);
    expect(w.findAll('[data-testid="notice-message"]').map((e) => e.text())).toEqual(['error 4', 'error 5', 'error 6']);
    expect(w.get('[data-testid="notify-more"]').text()).toBe('+3 more');
    expect(w.get('[data-testid="notifications"]').classes()).toContain('any');
    // Dismissing a shown one brings the next older one in.
    await w.findAll('.notice .close')[2].trigger('click');
    expect(w.findAll('[data-testid="notice-message"]').map((e) => e.text())).toEqual(['error 3', 'error 4', 'error 5']);
    expect(w.get('[data-testid="notify-more"]').text()).toBe('+2 more');
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    await w.vm.$nextTick();
    expect(w.get('[data-testid="notify-more"]').text()).toBe('ほか 2 件');
    w.unmount();
  });

  it('an error\'s English detail (code and the reader\'s message) is folded behind 詳細 / Details, the code in sight; other notices keep their detail line', async () => {
    const settings = useSettingsStore();
    settings.settings = { ...settings.settings, locale: 'ja' };
    const notify = useNotifyStore();
    const english = 'bone block promises 548 records of 111 bytes, but only 2946 bytes remain (room for 26)';
    notify.error({ code: 'E_VMD_COUNT', message: english, file: '/m/broken.vmd', offset: 50, params: { block: 'bone', count: 548 } });
    notify.push('success', 'merged', 'keys added: 3');
    const w = mount(NotificationList);
    const errorNotice = () => w.get('[data-kind="error"]');
    // Folded: the Japanese line and the code; no English sentence.
    expect(errorNotice().text()).not.toContain(english);
    expect(errorNotice().get('[data-testid="notice-code"]').text()).toBe('E_VMD_COUNT');
    expect(errorNotice().get('[data-testid="notice-details"]').text()).toBe('▸ 詳細');
    await errorNotice().get('[data-testid="notice-details"]').trigger('click');
    expect(errorNotice().get('[data-testid="notice-detail"]').text()).toBe(`E_VMD_COUNT: ${english}`);
    await errorNotice().get('[data-testid="notice-details"]').trigger('click');
    expect(errorNotice().find('[data-testid="notice-detail"]').exists()).toBe(false);
    // English folds it the same way.
    settings.settings = { ...settings.settings, locale: 'en' };
    await w.vm.$nextTick();
    expect(errorNotice().text()).not.toContain(english);
    expect(errorNotice().get('[data-testid="notice-details"]').text()).toBe('▸ Details');
    // A success notice's detail is what it says, not technical: shown.
    expect(w.get('[data-kind="success"]').text()).toContain('keys added: 3');
    w.unmount();
  });

  it('the store does not import the settings store (no notify ↔ settings cycle)', () => {
    const src = readFileSync(path.resolve(__dirname, '../../../renderer/src/stores/notify.ts'), 'utf8');
    expect(src).not.toMatch(/from '\.\/settings'/);
  });
});
