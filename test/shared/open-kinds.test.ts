// What Open… and a drop take (shared/ipc/file-types.ts OPEN_KINDS, one list for both), the empty-file
// refusal every reader shares (shared/ipc/file-kind.ts), and what a file given as a song recognisably is
// instead (shared/scene/audio-format.ts notAudioKind) — on names and bytes written here.
import { describe, expect, it } from 'vitest';
import { FILTER_EXTENSIONS, openKindExtensions, openKindOf, OPEN_EXTENSIONS } from '../../shared/ipc/file-types';
import { emptyFileError, refuseEmpty } from '../../shared/ipc/file-kind';
import { notAudioKind } from '../../shared/scene/audio-format';
import { t } from '../../shared/i18n/strings';
import { wavDataShortfall } from '../../shared/scene/wav';
import { pcm16Wav } from '../helpers/wav';

const ascii = (s: string) => new TextEncoder().encode(s);

describe('what Open… and a drop take', () => {
  it('names each file by what the app does with it; anything else is null', () => {
    expect(openKindOf('/m/dance.VMD')).toBe('motion');
    expect(openKindOf('01.vpd')).toBe('motion');
    expect(openKindOf('Gene_light.pmx')).toBe('model');
    expect(openKindOf('miku.pmd')).toBe('model');
    expect(openKindOf('my.vmdscene')).toBe('scene');
    expect(openKindOf('131_01.bvh')).toBe('capture');
    expect(openKindOf('dance.vrma')).toBe('capture');
    expect(openKindOf('tone.wav')).toBe('music');
    expect(openKindOf('song.mp3')).toBe('music');
    expect(openKindOf('notes.txt')).toBeNull();
    expect(openKindOf('model.x')).toBeNull();
    expect(openKindOf('noext')).toBeNull();
  });

  it('Open…’s filter lists every kind, models and songs among them', () => {
    expect(FILTER_EXTENSIONS.open).toEqual(OPEN_EXTENSIONS);
    for (const e of ['.vmd', '.vpd', '.pmx', '.pmd', '.vmdscene', '.bvh', '.vrma', '.wav']) expect(OPEN_EXTENSIONS).toContain(e);
  });

  it('the refusal, the drop hint and the dialog’s filter line name the list’s extensions, in English and Japanese', () => {
    const p = { name: 'notes.txt', ...openKindExtensions() };
    const en = t('notify.notOpenable', 'en', p);
    expect(en).toBe('notes.txt: not a kind of file the app opens. Open… and a drop take motions and poses (.vmd, .vpd), models (.pmx, .pmd), scenes (.vmdscene), captures (.bvh, .vrma) and songs (.wav, .mp3, .ogg, .oga, .opus, .flac, .m4a, .aac, .weba, .webm, loaded as ♪ Music… does)');
    const ja = t('notify.notOpenable', 'ja', p);
    for (const e of ['.vmd, .vpd', '.pmx, .pmd', '.vmdscene', '.bvh, .vrma', '.wav']) expect(ja).toContain(e);
    const hint = t('drop.hint', 'en', openKindExtensions());
    for (const e of ['.vmd', '.pmx', '.vmdscene', '.bvh', '.vrma', '.wav']) expect(hint).toContain(e);
    expect(t('mocap.openFiles', 'en', { list: OPEN_EXTENSIONS.join(', ') })).toContain('.pmx, .pmd');
  });
});

describe('an empty file', () => {
  it('is E_FILE_EMPTY, "the file is empty (0 bytes)", for a read and a drop alike; any byte is not empty', () => {
    expect(refuseEmpty(new Uint8Array(0), 'empty.vmd')).toEqual({ code: 'E_FILE_EMPTY', message: 'the file is empty (0 bytes)', file: 'empty.vmd' });
    expect(refuseEmpty(new Uint8Array(1), 'one.vmd')).toBeNull();
    // A view of nothing inside a larger buffer (a Node Buffer's pool) is empty too.
    expect(refuseEmpty(new Uint8Array(new ArrayBuffer(16), 8, 0), 'x.vmd')).toEqual(emptyFileError('x.vmd'));
  });
});

describe('a WAV cut short', () => {
  it('says how many of the data chunk’s promised bytes are there; a whole file or another format says nothing', () => {
    const whole = pcm16Wav(new Int16Array(288_000), 2, 48_000); // data chunk: 576,000 bytes from byte 44
    expect(wavDataShortfall(whole.slice(0, 100))).toEqual({ present: 56, promised: 576_000 });
    expect(wavDataShortfall(whole.slice(0, 44))).toEqual({ present: 0, promised: 576_000 });
    expect(wavDataShortfall(whole)).toBeNull();
    expect(wavDataShortfall(ascii('OggS and more'))).toBeNull();
  });
});

describe('a file given as a song that is something else', () => {
  it('is named by its first bytes: pictures, documents, archives, MMD files; audio and unknown bytes are not', () => {
    expect(notAudioKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(notAudioKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(notAudioKind(ascii('GIF89a....'))).toBe('gif');
    expect(notAudioKind(ascii('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(notAudioKind(ascii('%PDF-1.7'))).toBe('pdf');
    expect(notAudioKind(ascii('PK\x03\x04'))).toBe('zip');
    const vmd = new Uint8Array(50);
    vmd.set(ascii('Vocaloid Motion Data 0002'));
    expect(notAudioKind(vmd)).toBe('vmd');
    expect(notAudioKind(ascii('Pmd\0\0\x80\x3f'))).toBe('pmd');
    expect(notAudioKind(ascii('HIERARCHY\nROOT Hips'))).toBe('bvh');
    expect(notAudioKind(ascii('{ "format": "vmd-studio-scene", "version": 1 }'))).toBe('scene');
    // Audio, and bytes that say nothing, are left to the decoder.
    expect(notAudioKind(pcm16Wav(new Int16Array(4), 1))).toBeNull();
    expect(notAudioKind(ascii('OggS'))).toBeNull();
    expect(notAudioKind(ascii('ID3\x04'))).toBeNull();
    expect(notAudioKind(new Uint8Array(0))).toBeNull();
    expect(notAudioKind(ascii('hello'))).toBeNull();
  });
});
