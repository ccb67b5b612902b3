/**
 * Messages the preload itself sends to main, outside the contract's requests (which the page calls):
 * the page cannot send on these, and nothing answers them.
 */

/**
 * The path the platform gave for a File the person dropped on the window (or picked in a file input):
 * main grants it so the request that opens it is allowed (electron/services/access.ts). Sent with
 * ipcRenderer.send before that request, on the same ordered channel.
 */
export const DROPPED_FILE_CHANNEL = 'vmd:droppedFile';
