// The Bake physics dialog's form: empty fields take the engine's defaults, a range or tolerance it cannot take is
// a field error (the dialog keeps Bake off), and the values pass through as the bake's settings.
import { describe, expect, it } from 'vitest';
import { checkBakeForm } from '../../../renderer/src/stores/physics-bake';

const form = (o: Partial<Parameters<typeof checkBakeForm>[0]> = {}) => ({ from: '', to: '', raw: false, resimulate: false, posTol: '', rotTol: '', ...o });

describe('Bake physics form', () => {
  it('empty fields leave the defaults to the engine', () => {
    const r = checkBakeForm(form());
    expect(r.errors).toEqual({});
    expect(r.settings).toEqual({ raw: false, resimulate: false, from: undefined, to: undefined, positionTolerance: undefined, rotationToleranceDeg: undefined });
  });

  it('passes a range, tolerances, --raw and --resimulate through', () => {
    const r = checkBakeForm(form({ from: ' 10', to: '90 ', raw: true, resimulate: true, posTol: '0.02', rotTol: '0.5' }));
    expect(r.errors).toEqual({});
    expect(r.settings).toEqual({ raw: true, resimulate: true, from: 10, to: 90, positionTolerance: 0.02, rotationToleranceDeg: 0.5 });
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
