// The Bake physics dialog's form: empty fields take the engine's defaults, a range or tolerance it cannot take is
// a field error (the dialog keeps Bake off), and the values pass through as the bake's settings.
import { describe, expect, it } from 'vitest';
import { checkBakeForm } from '../../../renderer/src/stores/physics-bake';

const form = (o: Partial<Parameters<typeof checkBakeForm>[0]> = {}) => ({ from: '', to: '', warmup: '', raw: false, resimulate: null as boolean | null, posTol: '', rotTol: '', ...o });

describe('Bake physics form', () => {
  it('empty fields leave the defaults to the engine', () => {
    const r = checkBakeForm(form());
    expect(r.errors).toEqual({});
    expect(r.settings).toEqual({ raw: false, resimulate: 'auto', from: undefined, to: undefined, positionTolerance: undefined, rotationToleranceDeg: undefined });
  });

  it('passes a range, tolerances, --raw and --resimulate through', () => {
    const r = checkBakeForm(form({ from: ' 10', to: '90 ', raw: true, resimulate: true, posTol: '0.02', rotTol: '0.5' }));
    expect(r.errors).toEqual({});
    expect(r.settings).toEqual({ raw: true, resimulate: true, from: 10, to: 90, positionTolerance: 0.02, rotationToleranceDeg: 0.5 });
  });

  it('Warm-up: empty or “all” leaves the engine its default (from frame 0), a whole number passes as frames, anything else is a field error', () => {
    expect(checkBakeForm(form({ warmup: '' })).settings.warmup).toBeUndefined();
    expect(checkBakeForm(form({ warmup: ' All ' })).settings.warmup).toBeUndefined();
    expect(checkBakeForm(form({ warmup: '0' })).settings.warmup).toBe(0);
    expect(checkBakeForm(form({ warmup: '120' })).settings.warmup).toBe(120);
    for (const bad of ['-5', '1.5', 'x']) expect(checkBakeForm(form({ warmup: bad })).errors.warmup?.key, bad).toBe('bake.err.warmup');
  });

  it('refuses frames that are not whole numbers ≥ 0, To before From, and tolerances ≤ 0', () => {
    expect(checkBakeForm(form({ from: '-1' })).errors.from?.key).toBe('bake.err.integer');
    expect(checkBakeForm(form({ to: '1.5' })).errors.to?.key).toBe('bake.err.integer');
    expect(checkBakeForm(form({ from: '50', to: '40' })).errors.to?.key).toBe('bake.err.order');
    expect(checkBakeForm(form({ posTol: '0' })).errors.posTol?.key).toBe('bake.err.positive');
    expect(checkBakeForm(form({ rotTol: 'x' })).errors.rotTol?.key).toBe('bake.err.positive');
    expect(Object.keys(checkBakeForm(form({ from: '40', to: '40' })).errors)).toEqual([]);
  });
});
