/** Where the app keeps settings when no folder is given: the same folder Electron's userData uses. */
import os from 'node:os';
import path from 'node:path';

/** `vmd-studio` under the OS's per-user application-data folder. */
export function defaultSettingsDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32') return path.win32.join(env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'), 'vmd-studio');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'vmd-studio');
  return path.posix.join(env.XDG_CONFIG_HOME ?? path.posix.join(home, '.config'), 'vmd-studio');
}
