/**
 * MMD's outline (renderer/src/preview/edge-mesh.ts) on the hand-built PMX of test/shared/pmx-fixtures.ts:
 * its one material has the edge flag (0x11), edge size 1.5 and an opaque black edge colour; its four
 * vertices carry edge scales 1, 0.5, 2 and 0.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { readPmx } from '../../../shared/pmx';
import { buildModelMesh } from '../../../renderer/src/preview/model-mesh';
import { EDGE_WIDTH_PER_DEPTH } from '../../../renderer/src/preview/edge-mesh';
import { tinyPmx } from '../../shared/pmx-fixtures';

function built() {
  const r = readPmx(tinyPmx().build());
  if (!r.ok) throw new Error(r.error.message);
  return buildModelMesh(r.value);
}

describe('model outline (edge mesh)', () => {
  it('shares the model geometry and skeleton, rides on the mesh, and carries the per-vertex edge scale', () => {
    const b = built();
    const e = b.edges;
    expect(e.mesh.parent).toBe(b.mesh);
    expect(e.mesh.geometry).toBe(b.mesh.geometry);
    expect(e.mesh.skeleton).toBe(b.mesh.skeleton);
    expect(Array.from(b.mesh.geometry.getAttribute('edgeScale').array)).toEqual([1, 0.5, 2, 0]);
    expect(e.materials).toHaveLength(1);
    expect(e.materials[0].side).toBe(THREE.BackSide);
    expect(e.materials[0].color.toArray()).toEqual([0, 0, 0]);
    expect(e.drawn).toEqual([true]);
  });

  it('pushes vertices out by edge size × scale × depth in a program of its own', () => {
    const m = built().edges.materials[0];
    const shader = { uniforms: {} as Record<string, { value: unknown }>, vertexShader: '#include <skinning_vertex>\n#include <project_vertex>\n', fragmentShader: '' };
    m.onBeforeCompile(shader as never, undefined as never);
    expect(shader.uniforms.edgeWidth.value).toBeCloseTo(1.5 * EDGE_WIDTH_PER_DEPTH, 12);
    expect(shader.vertexShader).toMatch(/attribute float edgeScale/);
    expect(shader.vertexShader).toMatch(/mvPosition\.xyz \+= edgeNormal \* \( edgeWidth \* edgeModelScale \* edgeScale \* -mvPosition\.z \)/);
    expect(m.customProgramCacheKey()).not.toBe(new THREE.MeshBasicMaterial().customProgramCacheKey());
  });

  it('draws no outline for a material without the edge flag, or one a morph has hidden', () => {
    const r = readPmx(tinyPmx().build());
    if (!r.ok) throw new Error(r.error.message);
    r.value.materials[0].flags &= ~0x10;
    expect(buildModelMesh(r.value).edges.materials[0].visible).toBe(false);
    const b = built();
    b.edges.sync();
    expect(b.edges.materials[0].visible).toBe(true);
    b.materials[0].visible = false; // as a material morph at alpha 0 leaves it
    b.edges.sync();
    expect(b.edges.materials[0].visible).toBe(false);
    b.materials[0].visible = true;
    b.edges.sync();
    expect(b.edges.materials[0].visible).toBe(true);
  });
});
