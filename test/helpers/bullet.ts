/** Bullet for tests: the same Node loader the CLI uses. */
import { loadBullet, type BulletInstance } from '../../shared/physics/bullet';
import { nodeBulletLoader } from '../../electron/physics/bullet-node';

export function testBullet(): Promise<BulletInstance> {
  return loadBullet(nodeBulletLoader);
}
