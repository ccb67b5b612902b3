/** The app's version, from package.json (bundled into main and the server at build time). */
import pkg from '../../package.json';

export const APP_NAME = 'VMD Studio';
export const APP_VERSION: string = pkg.version;
